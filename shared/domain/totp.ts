import { generateHOTP } from '@oslojs/otp';
import { createTOTPKeyURI } from '@oslojs/otp';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords as product-decisions §16 fixes them (RFC 6238): HMAC-SHA-1,
 * 30-second steps, 6 digits, one step of drift either way. The HOTP computation (RFC 4226) is
 * @oslojs/otp's; which step a code belongs to is this module's, because a code is accepted once:
 * the step it matched is stored, and only a later step is accepted after it.
 */
export const TOTP = { periodSeconds: 30, digits: 6, driftSteps: 1, secretBytes: 20 } as const;

/** A new secret: 160 random bits, as RFC 4226 recommends and the Copenhagen Book asks. */
export const newTotpSecret = (): Uint8Array => new Uint8Array(randomBytes(TOTP.secretBytes));

/** The secret as a person types it into an authenticator app, and as the otpauth URI carries it: base32, upper case, no padding. */
export const totpSecretText = (secret: Uint8Array): string => encodeBase32UpperCaseNoPadding(secret);

export const totpSecretFromText = (text: string): Uint8Array => decodeBase32IgnorePadding(text.toUpperCase());

/** The time step (RFC 6238's T) an instant falls in. */
export const totpStepAt = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP.periodSeconds);

/** The code of one time step. */
export const totpCode = (secret: Uint8Array, step: number, digits: number = TOTP.digits): string => generateHOTP(secret, BigInt(step), digits);

/** Whether text reads as a TOTP code (six digits; spaces a person may type between them are dropped first). */
export const looksLikeTotpCode = (text: string): boolean => /^\d{6}$/.test(text.replace(/\s/g, ''));

/**
 * The step a code matches, among the current one and one step either side, and only among steps
 * after `lastUsedStep` (a code used once, or an older one, is refused); undefined when none
 * matches. Every candidate is compared in constant time.
 */
export function matchingTotpStep(secret: Uint8Array, code: string, at: Date, lastUsedStep = -1): number | undefined {
  const given = Buffer.from(code.replace(/\s/g, ''), 'utf8');
  const now = totpStepAt(at);
  let matched: number | undefined;
  for (let step = now - TOTP.driftSteps; step <= now + TOTP.driftSteps; step++) {
    const expected = Buffer.from(totpCode(secret, step), 'utf8');
    const equal = given.length === expected.length && timingSafeEqual(given, expected);
    if (equal && step > lastUsedStep && matched === undefined) matched = step;
  }
  return matched;
}

/** The `otpauth://totp/…` key URI an authenticator app reads from the QR code (Google Authenticator's key URI format). */
export const totpKeyUri = (options: { issuer: string; account: string; secret: Uint8Array }): string =>
  createTOTPKeyURI(options.issuer, options.account, options.secret, TOTP.periodSeconds, TOTP.digits);
