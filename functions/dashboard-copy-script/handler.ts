import { COPY_SCRIPT } from '../../shared/dashboard/copy-script';
import { scriptFile } from '../../shared/dashboard/scripts';
import { pageHandler } from '../../shared/http/page';

/** GET /dashboard/assets/copy.js: the copy buttons' script, a file of the dashboard's own origin (`script-src 'self'`). */
export const handler = pageHandler(async () => scriptFile(COPY_SCRIPT));
