/**
 * A user's second factor by TOTP (product-decisions §16): a pending enrolment while the person
 * scans the QR code, then the factor itself, with the last time step a code was accepted for;
 * and the recovery codes' hashes. Secrets are stored sealed (shared/domain/sealing.ts), codes
 * only hashed.
 */
export interface TotpEnrolment {
  sealedSecret: string;
  createdAt: string;
  /** The QR code is offered this long; a later confirmation starts over. */
  expiresAt: string;
}

export interface TotpFactor {
  sealedSecret: string;
  enabledAt: string;
  /** The step of the last code accepted (the enrolment's confirming one first): only a later step is accepted. */
  lastUsedStep: number;
}

/** How long an enrolment's secret waits for its confirming code. */
export const TOTP_ENROLMENT_SECONDS = 15 * 60;

/** The issuer an authenticator app shows beside the account (the otpauth URI's). */
export const TOTP_ISSUER = 'Payment operations';

/** The table's side of two-factor: every write a single conditional one or one transaction, so that concurrent requests cannot use a code twice. */
export interface TwoFactorStore {
  /** Replaces any pending enrolment of the user. */
  startEnrolment(userId: string, enrolment: TotpEnrolment): Promise<void>;
  pendingEnrolment(userId: string): Promise<TotpEnrolment | undefined>;
  /**
   * Turns the pending enrolment (still the one read: same sealed secret) into the factor, with
   * the recovery codes' hashes, in one transaction (the person's `twoFactorEnabledAt` set in
   * it); false when it was replaced, already confirmed, or the user has a factor already.
   */
  confirmEnrolment(userId: string, factor: TotpFactor, recoveryCodeHashes: string[]): Promise<boolean>;
  factorOf(userId: string): Promise<TotpFactor | undefined>;
  /** Records `step` as used, only if it is later than the last one used: false for a replay (or a race lost to the same code). */
  useStep(userId: string, step: number): Promise<boolean>;
  /** Removes a recovery code's hash, only if it is there: false when unknown or already used. */
  useRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  /** New codes in place of the old, only while the factor exists: false otherwise. */
  replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean>;
  recoveryCodesLeft(userId: string): Promise<number>;
  /**
   * Removes the factor, its recovery codes and any pending enrolment: false when two-factor was
   * off (nothing removed). With `keepASecondFactor`, only while the person has a passkey left
   * (LastSecondFactorError otherwise), checked by the write itself.
   */
  disable(userId: string, keepASecondFactor: boolean): Promise<boolean>;
}
