import { swaggerUiAsset } from '../../shared/docs/swagger-ui';
import { pageHandler } from '../../shared/http/page';

/** GET /docs/assets/{file}: a Swagger UI file from swagger-ui-dist (public, cacheable, gzipped when accepted). */
export const handler = pageHandler(async (event) => {
  const acceptsGzip = /\bgzip\b/.test(event.headers?.['accept-encoding'] ?? '');
  const file = swaggerUiAsset(event.pathParameters?.file ?? '', acceptsGzip);
  return {
    status: 200,
    bytes: file.bytes,
    headers: {
      'content-type': file.type,
      'cache-control': 'public, max-age=86400',
      vary: 'accept-encoding',
      ...(file.encoding ? { 'content-encoding': file.encoding } : {}),
    },
  };
});
