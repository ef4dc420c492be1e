import { PASSKEY_SCRIPT } from '../../shared/dashboard/passkey-script';
import { scriptFile } from '../../shared/dashboard/scripts';
import { pageHandler } from '../../shared/http/page';

/** GET /dashboard/assets/passkeys.js: the passkey pages' script, a file of the dashboard's own origin (`script-src 'self'`). */
export const handler = pageHandler(async () => scriptFile(PASSKEY_SCRIPT));
