import { errorReferencePage } from '../../shared/docs/pages';
import { pageHandler } from '../../shared/http/page';

/** GET /docs/errors: every error status, the envelope and the 400 vs 422 split (public). */
export const handler = pageHandler(async (_event, urls) => ({ status: 200, html: errorReferencePage(urls) }));
