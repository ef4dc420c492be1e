import { scrypt } from 'node:crypto';
import { checkNewPassword, hashPassword, verifyPassword } from '../../../shared/auth/passwords';

// The real scrypt, watched: an unknown email must cost a hash like a known one.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual('node:crypto');
  return { ...actual, scrypt: jest.fn(actual.scrypt) };
});
import { BusinessRuleError } from '../../../shared/errors';

/** People's passwords (product-decisions §16): the rules of a new one, the stored hash, its check. */
describe('Function: checkNewPassword', () => {
  test.each([
    ['11 characters', 'a'.repeat(11), 'A password needs at least 12 characters'],
    ['129 characters', 'a'.repeat(129), 'A password has at most 128 characters'],
    ['the email', 'Ann@Example.com', 'A password cannot be your email address'],
  ])('%s -> 422 on the field', (_name, password, detail) => {
    expect(() => checkNewPassword(password, 'ann@example.com')).toThrow(new BusinessRuleError(detail, 'password'));
  });

  test.each([
    ['12 characters', 'a'.repeat(12)],
    ['128 characters (ASVS V6.2.9: 64 at least)', 'a'.repeat(128)],
    ['anything: spaces, symbols, any script (ASVS V6.2.5)', '  pässwörd ✓ 密码 🔑  '],
    ['characters counted as people count them: 12 emoji', '🔑'.repeat(12)],
  ])('%s is a password', (_name, password) => {
    expect(() => checkNewPassword(password, 'ann@example.com')).not.toThrow();
  });

  test('length is counted after NFKC: a ligature is two letters', () => {
    expect(() => checkNewPassword('ﬁ'.repeat(6), 'ann@example.com')).not.toThrow();
  });
});

describe('Function: hashPassword / verifyPassword', () => {
  let stored: string;
  beforeAll(async () => {
    stored = await hashPassword('correct horse battery staple');
  }, 30_000);

  test("the stored form is scrypt at OWASP's parameters in PHC format, salted: two hashes of one password differ", async () => {
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(stored).not.toContain('correct horse');
    expect(await hashPassword('correct horse battery staple')).not.toBe(stored);
  }, 30_000);

  test('the right password verifies, a wrong one does not; the check normalizes as the hash did (NFKC)', async () => {
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery staplE', stored)).toBe(false);
    const ligature = await hashPassword('ﬁrst password ever');
    expect(await verifyPassword('first password ever', ligature)).toBe(true);
  }, 30_000);

  test('without a stored hash (an unknown email) it still runs scrypt at the same cost, and answers false', async () => {
    const watched = jest.mocked(scrypt);
    watched.mockClear();
    expect(await verifyPassword('correct horse battery staple', undefined)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', 'not a hash')).toBe(false);
    expect(watched).toHaveBeenCalledTimes(2);
    for (const call of watched.mock.calls) expect(call[3]).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
  }, 30_000);
});
