import { getOpenApi } from '../../shared/api/reference';
import { publicApiHandler } from '../../shared/http/operation-handler';
import { openApiDocumentFor } from '../../shared/openapi';

/** GET /v1/openapi.json: the OpenAPI 3.1 document (public). */
export const handler = publicApiHandler(getOpenApi, async ({ urls }) => ({
  status: 200,
  body: openApiDocumentFor(urls),
  headers: { 'cache-control': 'public, max-age=300' },
}));
