import { looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeHash } from '../domain/recovery-codes';
import type { SealingContext, SecretSealer } from '../domain/sealing';
import { matchingTotpStep, newTotpSecret, looksLikeTotpCode, totpKeyUri, totpSecretFromText, totpSecretText } from '../domain/totp';
import { TOTP_ENROLMENT_SECONDS, TOTP_ISSUER, type TwoFactorStore } from '../domain/two-factor';
import { BusinessRuleError } from '../errors';
import { isoMillis } from '../time';

export interface TwoFactorDeps {
  twoFactor: TwoFactorStore;
  sealer: SecretSealer;
  now: () => Date;
}

/** Whose second factor: the user's id (the sealed secret's context) and the email an authenticator app shows. */
export interface TwoFactorUser {
  id: string;
  email: string;
}

/** A user's TOTP secret is sealed for that user and that use only (shared/domain/sealing.ts). */
const totpContext = (userId: string): SealingContext => ({ purpose: 'totp', user_id: userId });

/** What an enrolment shows: the key URI (as a QR code) and the secret as text; neither is logged or put in a URL. */
export interface TotpEnrolmentStart {
  keyUri: string;
  secretText: string;
  expiresAt: string;
}

/** How a second factor was proven: a TOTP code, or a recovery code (one fewer left). */
export type SecondFactorProof = 'totp' | 'recovery_code';

const CODE_REFUSED = 'The code is not valid';

/**
 * Two-factor by TOTP and recovery codes (product-decisions §16). Secrets are sealed under the
 * stage's key with the user as context; codes are accepted once (the step of the last accepted
 * TOTP code is kept; a recovery code's hash is removed as it is used), each use one conditional
 * write so that two requests with the same code cannot both pass.
 */
export function twoFactorUseCases(deps: TwoFactorDeps) {
  const { twoFactor, sealer, now } = deps;

  async function openSecret(userId: string, sealed: string): Promise<Uint8Array> {
    return totpSecretFromText(await sealer.open(sealed, totpContext(userId)));
  }

  return {
    /**
     * Starts (or restarts) an enrolment:
     * 1. refuse a user who has a factor already (422: disable it first);
     * 2. make a 160-bit secret, seal it for the user, keep it pending for 15 minutes;
     * 3. answer the otpauth URI and the secret as text, to show once.
     */
    async beginTotpEnrolment(user: TwoFactorUser): Promise<TotpEnrolmentStart> {
      if (await twoFactor.factorOf(user.id)) throw new BusinessRuleError('Two-factor authentication is already on; turn it off first to enrol again');
      const secret = newTotpSecret();
      const secretText = totpSecretText(secret);
      const at = now();
      const expiresAt = isoMillis(at.getTime() + TOTP_ENROLMENT_SECONDS * 1000);
      await twoFactor.startEnrolment(user.id, { sealedSecret: await sealer.seal(secretText, totpContext(user.id)), createdAt: isoMillis(at), expiresAt });
      return { keyUri: totpKeyUri({ issuer: TOTP_ISSUER, account: user.email, secret }), secretText, expiresAt };
    },

    /**
     * The enrolment waiting for its code, shown again (its secret opened) while it lasts: the
     * Security page and the sign-in's enrolment step show its QR code on every load.
     */
    async pendingTotpEnrolment(user: TwoFactorUser): Promise<TotpEnrolmentStart | undefined> {
      const pending = await twoFactor.pendingEnrolment(user.id);
      if (!pending || Date.parse(pending.expiresAt) <= now().getTime()) return undefined;
      const secret = await openSecret(user.id, pending.sealedSecret);
      return { keyUri: totpKeyUri({ issuer: TOTP_ISSUER, account: user.email, secret }), secretText: totpSecretText(secret), expiresAt: pending.expiresAt };
    },

    /**
     * Confirms the pending enrolment with a code from the app:
     * 1. the pending secret, unexpired (else 422: start again);
     * 2. the code must match a step within the drift (else 422 beside `code`);
     * 3. the factor (its last used step: the confirming code's) and 10 new recovery codes' hashes
     *    replace the pending enrolment in one transaction;
     * 4. answer the recovery codes, to be shown this once.
     */
    async confirmTotpEnrolment(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
      const at = now();
      const pending = await twoFactor.pendingEnrolment(userId);
      if (!pending || Date.parse(pending.expiresAt) <= at.getTime()) throw new BusinessRuleError('The enrolment has expired; start again', 'code');
      const step = looksLikeTotpCode(code) ? matchingTotpStep(await openSecret(userId, pending.sealedSecret), code, at) : undefined;
      if (step === undefined) throw new BusinessRuleError(CODE_REFUSED, 'code');
      const recoveryCodes = newRecoveryCodes();
      const confirmed = await twoFactor.confirmEnrolment(userId, { sealedSecret: pending.sealedSecret, enabledAt: isoMillis(at), lastUsedStep: step }, recoveryCodes.map(recoveryCodeHash));
      if (!confirmed) throw new BusinessRuleError('The enrolment was replaced or already confirmed; start again', 'code');
      return { recoveryCodes };
    },

    /**
     * A second factor at sign-in: a TOTP code (within the drift, of a step after the last one
     * accepted, recorded as used) or an unused recovery code (used up). Undefined when neither:
     * the caller counts the failure. A user without a factor proves nothing.
     */
    async proveSecondFactor(userId: string, input: string): Promise<SecondFactorProof | undefined> {
      if (looksLikeTotpCode(input)) {
        const factor = await twoFactor.factorOf(userId);
        if (!factor) return undefined;
        const step = matchingTotpStep(await openSecret(userId, factor.sealedSecret), input, now(), factor.lastUsedStep);
        return step !== undefined && (await twoFactor.useStep(userId, step)) ? 'totp' : undefined;
      }
      if (looksLikeRecoveryCode(input)) return (await twoFactor.useRecoveryCode(userId, recoveryCodeHash(input))) ? 'recovery_code' : undefined;
      return undefined;
    },

    /** New recovery codes in place of every old one, while two-factor is on (else 422); shown once. */
    async regenerateRecoveryCodes(userId: string): Promise<{ recoveryCodes: string[] }> {
      const recoveryCodes = newRecoveryCodes();
      if (!(await twoFactor.replaceRecoveryCodes(userId, recoveryCodes.map(recoveryCodeHash)))) throw new BusinessRuleError('Two-factor authentication is off');
      return { recoveryCodes };
    },

    /** Whether two-factor is on, and how many recovery codes are left (the Security page, the team page). */
    async twoFactorStatus(userId: string): Promise<{ enabled: boolean; enabledAt?: string; recoveryCodesLeft: number }> {
      const [factor, left] = await Promise.all([twoFactor.factorOf(userId), twoFactor.recoveryCodesLeft(userId)]);
      return factor ? { enabled: true, enabledAt: factor.enabledAt, recoveryCodesLeft: left } : { enabled: false, recoveryCodesLeft: 0 };
    },

    /** Turns two-factor off: the factor, its recovery codes and any pending enrolment go. */
    /** `keepASecondFactor`: the person's organization requires one (`requiresSecondFactor`). */
    disableTwoFactor: (userId: string, keepASecondFactor: boolean) => twoFactor.disable(userId, keepASecondFactor),
  };
}

export type TwoFactorUseCases = ReturnType<typeof twoFactorUseCases>;
