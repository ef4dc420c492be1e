import { DASHBOARD_HEADERS } from '../../shared/dashboard/http';
import { passkeySignInPage } from '../../shared/dashboard/pages';
import { pageHandler } from '../../shared/http/page';

/** GET /dashboard/sign-in/passkey: signing in with a passkey (product-decisions §16), linked from the sign-in form. */
export const handler = pageHandler(async (_event, urls) => ({ status: 200, headers: DASHBOARD_HEADERS, html: passkeySignInPage(urls) }));
