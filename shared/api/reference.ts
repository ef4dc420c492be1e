import { z } from 'zod';
import { SWAGGER_UI_BUNDLE_FILES } from '../docs/swagger-ui';
import { NoParams, NoQuery, defineOperation, definePage } from './operation';

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

export const getOpenApi = defineOperation({
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'get-openapi',
  table: 'none',
  auth: 'public',
  params: NoParams,
  query: NoQuery,
  tag: 'Reference',
  summary: 'This OpenAPI document',
  description: 'The OpenAPI 3.1 description of the API, generated from the schemas that validate requests and shape responses. No API key needed.',
  success: { status: 200, description: 'The document.', schema: OpenApiDocumentSchema },
});

export const referencePages = [
  definePage({ method: 'GET', path: '/docs', handler: 'docs-page', table: 'none', auth: 'public' }),
  definePage({ method: 'GET', path: '/docs/errors', handler: 'docs-errors', table: 'none', auth: 'public' }),
  definePage({ method: 'GET', path: '/docs/assets/{file}', handler: 'docs-asset', table: 'none', auth: 'public', files: SWAGGER_UI_BUNDLE_FILES }),
];
