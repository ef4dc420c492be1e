import { apiHandler } from '../../shared/http/api';
import { openApiDocumentFor } from '../../shared/openapi';

/** GET /v1/openapi.json: the OpenAPI 3.1 document (public). */
export const handler = apiHandler({ auth: 'none' }, async ({ urls }) => ({
  status: 200,
  body: openApiDocumentFor(urls),
  headers: { 'cache-control': 'public, max-age=300' },
}));
