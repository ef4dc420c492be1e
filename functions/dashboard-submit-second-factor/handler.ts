import { dashboardSubmitSecondFactor } from '../../shared/api/pages';
import { clearedPendingSignInCookie, DASHBOARD_HEADERS, noticeCookie, pendingSignInIdOf, requireFormToken, requireSameOrigin, sessionCookie, signInContextOf } from '../../shared/dashboard/http';
import { pendingSignInEnded, secondFactorAnswer, TOO_MANY_CODES } from '../../shared/dashboard/second-factor-answer';
import type { Notice } from '../../shared/dashboard/html';
import { securityPagePath } from '../../shared/dashboard/security';
import { twoFactorTurnedOn } from '../../shared/dashboard/second-factor';
import { BusinessRuleError, NotAuthenticatedError, TooManyRequestsError } from '../../shared/errors';
import { WrongSecondFactorError } from '../../shared/use-cases/sign-in';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { toErrorResponse } from '../../shared/http/error-envelope';
import type { ApiResponse } from '../../shared/http/response';
import { formFields, pageHandler } from '../../shared/http/page';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { twoFactorServices } from '../../shared/services/two-factor';

const sessions = dashboardSessionServices();
const twoFactor = twoFactorServices();

/** A code of more characters than any code has is wrong without being read further. */
const CODE_MAX_LENGTH = 64;

/**
 * POST /dashboard/sign-in/second-factor: the second factor of a pending sign-in (§16).
 * 1. From the dashboard's origin, with the token of the pending sign-in's cookie (else 403);
 *    the pending sign-in must last (else the sign-in form, 401).
 * 2. `code`: a TOTP code (a step after the last one accepted, recorded as used) or an unused
 *    recovery code (used up). `enrol`: the code confirms the enrolment the page showed.
 * 3. A code (not an enrolment's) is checked under the person's email's and the address's
 *    lockouts, as a password is: locked → the sign-in form, 429 with Retry-After. Wrong: counted
 *    on the pending sign-in and as a failure of the lockouts; the page again (401; 422 for an
 *    enrolment), and at the fifth the pending sign-in ends (the sign-in form, 401). A wrong code
 *    (not an enrolment's) is recorded as the person's failed sign-in (never the code).
 * 4. Right: the pending sign-in taken once, a session issued, 303 to the dashboard; after an
 *    enrolment, to the Security page, which shows the recovery codes once.
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  const pendingId = pendingSignInIdOf(event);
  requireFormToken(fields, pendingId);
  const pending = await sessions.pendingSignIn(pendingId);
  if (!pending || !pendingId) return pendingSignInEnded(urls);
  const code = (fields.code ?? '').slice(0, CODE_MAX_LENGTH).trim();
  const context = signInContextOf(event);
  const wrong = async (status: number, error: string): Promise<ApiResponse> =>
    (await sessions.failSecondFactor(pendingId)) ? secondFactorAnswer(urls, twoFactor, pending, pendingId, { status, error }) : pendingSignInEnded(urls, TOO_MANY_CODES);
  /** The sign-in completed (recorded with its session), after `prove` checked the code when the step is one; `notice` for the page it goes to. */
  const signedIn = async (location: string, { notice, prove }: { notice?: Notice; prove?: () => Promise<boolean> }): Promise<ApiResponse> => {
    let sessionId: string;
    try {
      sessionId = await audited(dashboardSubmitSecondFactor.audit, auditCallerOf(event), () =>
        prove ? sessions.withSecondFactor(pendingId, pending.user, prove, context) : sessions.completeSignIn(pendingId, context),
      );
    } catch (error) {
      if (error instanceof WrongSecondFactorError) return wrong(401, error.message);
      if (error instanceof TooManyRequestsError) {
        const { status, envelope, headers } = toErrorResponse(error, urls.docs);
        return pendingSignInEnded(urls, envelope.detail, { status, headers, email: pending.user.email });
      }
      if (error instanceof NotAuthenticatedError) return pendingSignInEnded(urls);
      throw error;
    }
    const cookies = [sessionCookie(sessionId, urls), clearedPendingSignInCookie(urls), ...(notice ? [noticeCookie(sessionId, urls, new URL(location).pathname, notice)] : [])];
    return { status: 303, headers: { ...DASHBOARD_HEADERS, location }, cookies, html: '' };
  };
  if (pending.step === 'enrol') {
    let recoveryCodes: string[];
    try {
      ({ recoveryCodes } = await twoFactor.confirmTotpEnrolment(pending.user.userId, code));
    } catch (error) {
      if (error instanceof BusinessRuleError) return wrong(422, error.message);
      throw error;
    }
    return signedIn(securityPagePath(urls), { notice: twoFactorTurnedOn(recoveryCodes) });
  }
  return signedIn(urls.dashboard, { prove: async () => (await twoFactor.proveSecondFactor(pending.user.userId, code)) !== undefined });
});
