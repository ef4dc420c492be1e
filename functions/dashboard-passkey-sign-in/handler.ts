import { newSignIn, PASSKEY_PAGE_HEADERS } from '../../shared/dashboard/http';
import { passkeySignInPage } from '../../shared/dashboard/second-factor';
import { pageHandler } from '../../shared/http/page';

/**
 * GET /dashboard/sign-in/passkey: signing in with a passkey (product-decisions §16), linked from
 * the sign-in form: its button asks the authenticator for one of the dashboard's passkeys; the
 * ceremony's challenge is bound to the sign-in cookie this page sets.
 */
export const handler = pageHandler(async (_event, urls) => {
  const signIn = newSignIn(urls);
  return { status: 200, headers: PASSKEY_PAGE_HEADERS, html: passkeySignInPage(urls, { signInToken: signIn.token }), cookies: [signIn.cookie] };
});
