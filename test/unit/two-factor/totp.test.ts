import { matchingTotpStep, totpCode, totpKeyUri, totpSecretFromText, totpSecretText, totpStepAt, newTotpSecret, looksLikeTotpCode } from '../../../shared/domain/totp';
import { looksLikeRecoveryCode, newRecoveryCodes, normalizedRecoveryCode, recoveryCodeHash, RECOVERY_CODES } from '../../../shared/domain/recovery-codes';

/** RFC 6238 (TOTP) and RFC 4226 (HOTP) as product-decisions §16 uses them: SHA-1, 30 s, 6 digits, one step of drift. */
describe('TOTP', () => {
  // RFC 6238, Appendix B: the SHA-1 seed and its 8-digit codes.
  const SEED = new TextEncoder().encode('12345678901234567890');
  const VECTORS: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  test.each(VECTORS)('RFC 6238 test vector: T = %i s gives %s (8 digits, SHA-1)', (seconds, code) => {
    expect(totpCode(SEED, totpStepAt(new Date(seconds * 1000)), 8)).toBe(code);
  });

  test.each(VECTORS)('the service\'s 6-digit code at T = %i s is the vector\'s last six digits', (seconds, code) => {
    expect(totpCode(SEED, totpStepAt(new Date(seconds * 1000)))).toBe(code.slice(-6));
  });

  test('drift: the codes of the step before and after are accepted, not two steps away', () => {
    const at = new Date(1111111111 * 1000);
    const step = totpStepAt(at);
    for (const offset of [-1, 0, 1]) expect(matchingTotpStep(SEED, totpCode(SEED, step + offset), at)).toBe(step + offset);
    for (const offset of [-2, 2]) expect(matchingTotpStep(SEED, totpCode(SEED, step + offset), at)).toBeUndefined();
  });

  test('a code accepted once: a step at or before the last one used is refused; a later one is not', () => {
    const at = new Date(1234567890 * 1000);
    const step = totpStepAt(at);
    expect(matchingTotpStep(SEED, totpCode(SEED, step), at, step)).toBeUndefined();
    expect(matchingTotpStep(SEED, totpCode(SEED, step - 1), at, step - 1)).toBeUndefined();
    expect(matchingTotpStep(SEED, totpCode(SEED, step + 1), at, step)).toBe(step + 1);
  });

  test('a code of another length, or not a code, never matches; spaces a person types are dropped', () => {
    const at = new Date(59_000);
    expect(matchingTotpStep(SEED, '94287082', at)).toBeUndefined();
    expect(matchingTotpStep(SEED, '', at)).toBeUndefined();
    expect(matchingTotpStep(SEED, '287 082', at)).toBe(1);
    expect(looksLikeTotpCode('287 082')).toBe(true);
    expect(looksLikeTotpCode('28708')).toBe(false);
  });

  test('a secret is 160 random bits, shown as base32 without padding, and read back from it', () => {
    const secret = newTotpSecret();
    expect(secret).toHaveLength(20);
    const text = totpSecretText(secret);
    expect(text).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpSecretFromText(text.toLowerCase())).toEqual(secret);
    expect(totpSecretText(newTotpSecret())).not.toBe(text);
  });

  test('the key URI: otpauth://totp/issuer:account with the secret, SHA1, 30 s and 6 digits', () => {
    const uri = new URL(totpKeyUri({ issuer: 'Payment operations', account: 'ada@example.com', secret: SEED }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Payment operations:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: 'Payment operations', algorithm: 'SHA1', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', period: '30', digits: '6' });
  });
});

describe('recovery codes', () => {
  test('ten codes of four groups of four characters, all different, none with a look-alike character', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODES.count);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
  });

  test('typed with other case, spaces or without dashes, a code has the same hash; the hash is not the code', () => {
    const [code] = newRecoveryCodes();
    const typed = ` ${code.toUpperCase().replace(/-/g, ' ')} `;
    expect(normalizedRecoveryCode(typed)).toBe(code.replace(/-/g, ''));
    expect(recoveryCodeHash(typed)).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).not.toContain(normalizedRecoveryCode(code));
    expect(looksLikeRecoveryCode(typed)).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
  });
});
