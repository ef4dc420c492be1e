import { escapeHtml } from '../http/page';
import type { ApiResponse } from '../http/response';

/*
 * The dashboard's scripts are files of its own origin, each a route of its own (shared/api/pages.ts),
 * so that a page that loads one allows it with `script-src 'self'` and runs no inline script. A page
 * works without them: a script only adds to what its markup already does.
 */

/** A script's tag at the dashboard's own URL (as its links are), for the script served at `path`. */
export const scriptTag = (dashboardUrl: string, path: string) => `<script src="${escapeHtml(`${dashboardUrl}${path.slice('/dashboard'.length)}`)}" defer></script>`;

/** A script file's answer: JavaScript, never sniffed as anything else, cached a few minutes (a new version reaches every page within them). */
export const scriptFile = (script: string): ApiResponse => ({
  status: 200,
  text: script,
  headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
});
