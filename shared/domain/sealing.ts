/**
 * What a sealed secret is bound to (its encryption context): who or what it belongs to and what it
 * is for, e.g. `{purpose: 'totp', user_id: 'usr_…'}`. Opening needs the same context, so a secret
 * copied onto another user's item, or used for another purpose, does not open. Not secret itself:
 * KMS logs it in CloudTrail.
 */
export type SealingContext = Readonly<Record<string, string>>;

/**
 * The port for secrets the service must read back (TOTP secrets, webhook signing secrets), kept
 * encrypted under the stage's key: `seal` gives text to store, `open` the plaintext again, for
 * the same context only. The adapter (shared/crypto/kms-sealer.ts) encrypts with AWS KMS.
 */
export interface SecretSealer {
  seal(plaintext: string, context: SealingContext): Promise<string>;
  open(sealed: string, context: SealingContext): Promise<string>;
}

/** A sealed value that does not open with the context given: tampered with, copied from elsewhere, or of another key. */
export class SealedSecretMismatchError extends Error {
  constructor() {
    super('A sealed secret did not open with its context');
  }
}
