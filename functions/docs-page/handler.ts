import { apiReferencePage } from '../../shared/docs/pages';
import { pageHandler } from '../../shared/http/page';

/** GET /docs: the API reference (Swagger UI over /v1/openapi.json), public. */
export const handler = pageHandler(async (_event, urls) => ({ status: 200, html: apiReferencePage(urls) }));
