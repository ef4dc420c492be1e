import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { dashboardSubmitPasskeySignIn } from '../../shared/api/pages';
import { hashToken } from '../../shared/auth/tokens';
import {
  clearedPendingSignInCookie,
  DASHBOARD_HEADERS,
  isSessionProblem,
  newSignIn,
  PASSKEY_PAGE_HEADERS,
  postedCredential,
  relyingPartyOf,
  requireFormToken,
  requireSameOrigin,
  sessionCookie,
  signInContextOf,
  signInSecretOf,
} from '../../shared/dashboard/http';
import { passkeySignInPage } from '../../shared/dashboard/second-factor';
import { InvalidRequestError, TooManyRequestsError } from '../../shared/errors';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { formFields, pageHandler } from '../../shared/http/page';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { passkeyServices } from '../../shared/services/passkeys';

const sessions = dashboardSessionServices();
const passkeys = passkeyServices();

/**
 * POST /dashboard/sign-in/passkey: the passkey's answer, posted by the passkey script (§16).
 * 1. From the dashboard's origin with the token of this browser's sign-in cookie (else 403).
 * 2. The credential its user handle and id name, registered to that user; the answer verified
 *    against a challenge issued to this browser for a sign-in (taken once), the relying party,
 *    the origin and user verification: any failure is the same 401.
 *    The answer of a registered passkey is checked under its person's email's and the address's
 *    lockouts, as a password is (locked: 429 with Retry-After); one that does not verify is a
 *    failure of both.
 * 3. The passkey's person must still be allowed to sign in (the key rules' statuses); a passkey
 *    counts as both factors: a session, 303 to the dashboard (a pending sign-in's cookie cleared).
 * A refusal is the passkey page again, with why; once the passkey is a person's, it is recorded
 * as their failed sign-in.
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  const secret = signInSecretOf(event);
  try {
    requireFormToken(fields, secret);
    const credential = postedCredential<AuthenticationResponseJSON>(fields.credential);
    const registered = await passkeys.registeredPasskey(credential);
    const verify = () => passkeys.verifyPasskeySignIn(credential, registered, relyingPartyOf(urls), hashToken(secret!));
    const { sessionId } = await audited(dashboardSubmitPasskeySignIn.audit, auditCallerOf(event), () => sessions.withPasskey(registered.userId, verify, signInContextOf(event)));
    return { status: 303, headers: { ...DASHBOARD_HEADERS, location: urls.dashboard }, cookies: [sessionCookie(sessionId, urls), clearedPendingSignInCookie(urls)], html: '' };
  } catch (error) {
    if (!isSessionProblem(error) && !(error instanceof InvalidRequestError) && !(error instanceof TooManyRequestsError)) throw error;
    const { status, envelope, headers } = toErrorResponse(error, urls.docs);
    const signIn = newSignIn(urls);
    return { status, headers: { ...PASSKEY_PAGE_HEADERS, ...headers }, html: passkeySignInPage(urls, { signInToken: signIn.token, error: envelope.detail }), cookies: [signIn.cookie] };
  }
});
