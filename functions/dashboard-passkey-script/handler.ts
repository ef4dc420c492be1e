import { PASSKEY_SCRIPT } from '../../shared/dashboard/passkey-script';
import { pageHandler } from '../../shared/http/page';

/** GET /dashboard/assets/passkeys.js: the passkey pages' script, a file of the dashboard's own origin (`script-src 'self'`). */
export const handler = pageHandler(async () => ({
  status: 200,
  text: PASSKEY_SCRIPT,
  headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
}));
