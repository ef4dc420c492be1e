import { hashToken } from '../../shared/auth/tokens';
import { DASHBOARD_HEADERS, relyingPartyOf, requireFormToken, requireSameOrigin, signInSecretOf } from '../../shared/dashboard/http';
import { ServiceError } from '../../shared/errors';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { formFields, pageHandler } from '../../shared/http/page';
import { passkeyServices } from '../../shared/services/passkeys';

const passkeys = passkeyServices();

/**
 * POST /dashboard/sign-in/passkey/options: the options of `navigator.credentials.get()` for the
 * passkey script (JSON), from the dashboard's origin with the token of this browser's sign-in
 * cookie (else the error envelope, 403): a challenge bound to that cookie, single-use, for 5
 * minutes, no credential named (the authenticator offers its discoverable ones).
 */
export const handler = pageHandler(async (event, urls) => {
  try {
    requireSameOrigin(event, urls);
    const secret = signInSecretOf(event);
    requireFormToken(formFields(event), secret);
    return { status: 200, headers: DASHBOARD_HEADERS, body: await passkeys.authenticationOptions(relyingPartyOf(urls), hashToken(secret!)) };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const { status, envelope, headers } = toErrorResponse(error, urls.docs);
    return { status, body: envelope, headers: { ...DASHBOARD_HEADERS, ...headers } };
  }
});
