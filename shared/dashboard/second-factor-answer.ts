import type { PublicUrls } from '../config';
import type { SecondFactorStep, TeamUser } from '../domain/team';
import type { ApiResponse } from '../http/response';
import type { TwoFactorUseCases } from '../use-cases/two-factor';
import { clearedPendingSignInCookie, formToken, newSignIn, PASSKEY_PAGE_HEADERS, signInAnswer } from './http';
import { onceAsync } from '../services/wiring';
import { secondFactorPage, type EnrolmentView } from './second-factor';

/** The QR code's drawing (shared/dashboard/qr-code.ts), loaded when one is drawn: the Security page without an enrolment under way never loads it (decisions 139). */
const qrCodes = /* @__PURE__ */ onceAsync(
  async (): Promise<typeof import('./qr-code')> => (typeof BUNDLED_APART !== 'undefined' ? await import(require.resolve('./qr-code.mjs')) : await import('./qr-code')),
);
const qrCodeSvg = async (data: string, label: string) => (await qrCodes()).qrCodeSvg(data, label);

/** What an authenticator's QR code is called for screen readers (the key itself is never in an attribute). */
const QR_LABEL = 'QR code of your two-factor key';

/** The enrolment a person owes at sign-in: the one waiting for its code, or a new one. */
async function enrolmentOf(twoFactor: TwoFactorUseCases, user: TeamUser): Promise<EnrolmentView> {
  const who = { id: user.userId, email: user.email };
  const enrolment = (await twoFactor.pendingTotpEnrolment(who)) ?? (await twoFactor.beginTotpEnrolment(who));
  return { qrSvg: await qrCodeSvg(enrolment.keyUri, QR_LABEL), secretText: enrolment.secretText, expiresAt: enrolment.expiresAt };
}

/** A pending enrolment as the Security page shows it, while it waits for its code. */
export async function pendingEnrolmentView(twoFactor: TwoFactorUseCases, user: TeamUser): Promise<EnrolmentView | undefined> {
  const enrolment = await twoFactor.pendingTotpEnrolment({ id: user.userId, email: user.email });
  return enrolment && { qrSvg: await qrCodeSvg(enrolment.keyUri, QR_LABEL), secretText: enrolment.secretText, expiresAt: enrolment.expiresAt };
}

/**
 * The second step's page of a pending sign-in (`pendingId`, its cookie's value: its forms'
 * token), with `status` and the problem of the last code if any; a fresh sign-in cookie for its
 * passkey form.
 */
export async function secondFactorAnswer(
  urls: PublicUrls,
  twoFactor: TwoFactorUseCases,
  pending: { step: SecondFactorStep; user: TeamUser },
  pendingId: string,
  options: { status: number; error?: string } = { status: 200 },
): Promise<ApiResponse> {
  const signIn = newSignIn(urls);
  const { user } = pending;
  const tokens = { formToken: formToken(pendingId), signInToken: signIn.token, error: options.error };
  const html =
    pending.step === 'enrol'
      ? secondFactorPage(urls, { ...tokens, step: 'enrol', enrolment: await enrolmentOf(twoFactor, user) })
      : secondFactorPage(urls, { ...tokens, step: 'code', totp: !!user.twoFactorEnabledAt, passkeys: (user.passkeyCount ?? 0) > 0 });
  return { status: options.status, headers: PASSKEY_PAGE_HEADERS, html, cookies: [signIn.cookie] };
}

/** Said when a pending sign-in is gone: it lasts 5 minutes, ends after five wrong codes, and is used once. */
export const SIGN_IN_AGAIN = 'Your sign-in has ended: sign in again.';
/** Said when the fifth wrong code ended it (§16). */
export const TOO_MANY_CODES = 'Too many wrong codes: sign in again.';

/**
 * The pending sign-in is over or unknown, or its email locked (429 with `Retry-After` and the
 * email, as the password step answers a lock): the sign-in form says why (401), its cookie cleared.
 */
export function pendingSignInEnded(urls: PublicUrls, error = SIGN_IN_AGAIN, refusal: { status: number; headers?: Record<string, string>; email?: string } = { status: 401 }): ApiResponse {
  const answer = signInAnswer(urls, { ...refusal, error });
  return { ...answer, cookies: [...(answer.cookies ?? []), clearedPendingSignInCookie(urls)] };
}
