import { createHmac } from 'node:crypto';
import { DependencyUnavailableError } from '../errors';

/**
 * Finding payments by their customer's email (product-decisions §18: exact, case-insensitive),
 * without the email in any index key: a payment carries the keyed digest of its customer's
 * normalized email (`customerEmailDigest`), and its index key is that digest.
 *
 * Normalization: surrounding white space removed and the whole address lower-cased. The
 * addresses are HTML's "valid e-mail address" (the checkout's rule, ./inputs.ts): ASCII only, so
 * lower-casing is all case-insensitivity takes. The local part is lower-cased too, although RFC
 * 5321 lets a server tell `Ann@` from `ann@`: no mail provider does, and a merchant answering
 * `ANN@example.com` means the customer who paid as `ann@example.com`. Nothing else is folded
 * (no dots or `+tags` removed): that is one provider's rule, and would match distinct addresses
 * at every other.
 */
export const normalizedEmail = (email: string) => email.trim().toLowerCase();

/**
 * The digest the index keeps for an email: HMAC-SHA256 of its normalized form with the stage's
 * secret key, base64url (43 characters). Without the key a digest tells nothing about the
 * address (a plain hash of an address is found by hashing candidate addresses); with it, the
 * same address always gives the same digest.
 */
export const emailDigest = (key: Buffer, email: string) => createHmac('sha256', key).update(normalizedEmail(email), 'utf8').digest('base64url');

/** The port: an email's digest with the stage's key (shared/services/customer-emails.ts). */
export interface CustomerEmailIndex {
  digest(email: string): Promise<string>;
}

/** The index key cannot be read right now (503): nothing is found or written without it. */
export class CustomerEmailIndexUnavailableError extends DependencyUnavailableError {
  constructor(
    /** What went wrong, for the logs (the secret's error name): never shown to a caller. */
    readonly failure: string,
  ) {
    super();
  }
}
