import { getOpenApi } from '../../shared/api/reference';
import { apiHandler } from '../../shared/http/api';
import { openApiDocumentFor } from '../../shared/openapi';

/** GET /v1/openapi.json: the OpenAPI 3.1 document (public). */
export const handler = apiHandler(getOpenApi, async ({ urls }) => ({
  status: 200,
  body: openApiDocumentFor(urls),
  headers: { 'cache-control': 'public, max-age=300' },
}));
