import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from '../../../shared/zod';
import { ErrorEnvelopeSchema, StageThrottledSchema } from '../../../shared/http/error-envelope';
import { apiOperations as v1Routes, routes } from '../../../shared/api';
import { ANY_KEY, defineOperation, NoParams, NoQuery } from '../../../shared/api/operation';
import { buildOpenApiDocument, errorStatuses } from '../../../shared/openapi';

const urls = {
  base: 'https://api.example.com',
  checkout: 'https://api.example.com/checkout',
  dashboard: 'https://api.example.com/dashboard',
  docs: 'https://api.example.com/docs',
};
const document = buildOpenApiDocument(v1Routes, urls) as any;
const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
const componentId = (schema: z.ZodMiniType) => z.globalRegistry.get(schema)?.id;

/** A response of the document, following a `$ref` into components.responses. */
function response(path: string, method: string, status: number) {
  const found = document.paths[path][method.toLowerCase()].responses[status];
  return found?.$ref ? document.components.responses[found.$ref.split('/').pop()] : found;
}

test('openapi: the document is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // The validator is ESM-only (import.meta): run its CLI in its own Node process.
    const cli = join(__dirname, '..', '..', '..', 'node_modules', '@seriousme', 'openapi-schema-validator', 'bin', 'validate-api-cli.js');
    const output = execFileSync(process.execPath, [cli, file], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ valid: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(document.openapi).toBe('3.1.0');
  expect(document.info.title).toBe('Payment Operations API');
  expect(document.servers).toEqual([{ url: urls.base }]);
});

test('openapi: every /v1 route the stack serves is documented with its method and path parameters', () => {
  for (const route of v1Routes) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    expect({ route: `${route.method} ${route.path}`, documented: Boolean(operation) }).toEqual({ route: `${route.method} ${route.path}`, documented: true });
    const documented = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'path');
    expect(documented.map((parameter: any) => parameter.name).sort()).toEqual(pathParams(route.path).sort());
    expect(documented.every((parameter: any) => parameter.required === true)).toBe(true);
  }
});

test('openapi: every documented operation is a real route, and the table has no row without a route', () => {
  const served = new Set(v1Routes.map((route) => `${route.method} ${route.path}`));
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item)) expect(served).toContain(`${method.toUpperCase()} ${path}`);
  }
  expect(routes.filter((route) => route.path.startsWith('/v1/'))).toEqual(v1Routes);
});

test('operations: a route without an explicit auth or a query schema cannot be declared', () => {
  const declaration = {
    method: 'GET',
    path: '/v1/example',
    handler: 'example',
    table: 'read',
    params: NoParams,
    tag: 'Reference',
    summary: 'An example',
    description: 'An example.',
    success: { status: 200, description: 'Nothing.', schema: z.object({}) },
  } as const;
  // @ts-expect-error: no `auth` and no `query`
  expect(() => defineOperation(declaration)).not.toThrow();
  // @ts-expect-error: no `query`
  defineOperation({ ...declaration, auth: { scope: 'payment_link:read' } });
  // @ts-expect-error: no `auth`
  defineOperation({ ...declaration, query: NoQuery });
  expect(defineOperation({ ...declaration, auth: { scope: ANY_KEY, mode: 'test' }, query: NoQuery }).kind).toBe('api');
  for (const operation of v1Routes) {
    expect({ handler: operation.handler, auth: Boolean(operation.auth), query: operation.query instanceof z.ZodMiniObject }).toEqual({
      handler: operation.handler,
      auth: true,
      query: true,
    });
  }
});

test('openapi: request bodies and query parameters reference the request schemas', () => {
  const create = document.paths['/v1/payment_links'].post;
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreatePaymentLinkRequest' });
  expect(document.components.schemas.CreatePaymentLinkRequest.required).toEqual(['amount']);
  const list = document.paths['/v1/payment_links'].get;
  expect(list.parameters.map((parameter: any) => `${parameter.in} ${parameter.name}`)).toEqual(['query limit', 'query starting_after', 'query status']);
  expect(list.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
  const refund = document.paths['/v1/payments/{id}/refunds'].post;
  expect(refund.parameters.map((parameter: any) => `${parameter.in} ${parameter.name}`)).toEqual(['path id', 'header Idempotency-Key']);
});

test('openapi: every operation documents its success schema and each error status with the error envelope (429: the stage throttle\'s body, or either)', () => {
  const errorRef = `#/components/schemas/${componentId(ErrorEnvelopeSchema)}`;
  const throttledRef = `#/components/schemas/${componentId(StageThrottledSchema)}`;
  for (const route of v1Routes) {
    const spec = route;
    const statuses = Object.keys(document.paths[route.path][route.method.toLowerCase()].responses).map(Number);
    expect({ handler: route.handler, statuses }).toEqual({ handler: route.handler, statuses: [spec.success.status, ...errorStatuses(spec)] });
    const success = response(route.path, route.method, spec.success.status).content['application/json'].schema;
    expect({ handler: route.handler, schema: success }).toEqual({ handler: route.handler, schema: { $ref: `#/components/schemas/${componentId(spec.success.schema)}` } });
    for (const status of errorStatuses(spec)) {
      const schema = response(route.path, route.method, status).content['application/json'].schema;
      if (status === 429 && spec.errors?.[429]) expect(schema).toEqual({ anyOf: [{ $ref: errorRef }, { $ref: throttledRef }] });
      else if (status === 429) expect(schema).toEqual({ $ref: throttledRef });
      else if (spec.errors?.[status]?.schema) expect(JSON.stringify(schema)).toContain(errorRef);
      else expect(schema).toEqual({ $ref: errorRef });
    }
  }
});

test('openapi: statuses follow the contract: auth errors everywhere keyed, 404 for ids, 409 and Idempotency-Key on POST, 503 with Retry-After', () => {
  const statuses = (method: string, path: string) => Object.keys(document.paths[path][method].responses);
  expect(statuses('get', '/v1/payment_links/{id}')).toEqual(['200', '401', '403', '404', '422', '429', '500', '503']);
  expect(statuses('get', '/v1/payment_links')).toEqual(['200', '400', '401', '403', '422', '429', '500', '503']);
  expect(statuses('post', '/v1/payment_links')).toEqual(['201', '400', '401', '403', '409', '413', '422', '429', '500', '503']);
  expect(statuses('get', '/v1/settlements')).toEqual(['200', '400', '401', '403', '404', '422', '429', '500', '503']);
  expect(statuses('get', '/v1/openapi.json')).toEqual(['200', '429', '500']);
  expect(document.paths['/v1/openapi.json'].get.security).toEqual([]);
  expect(document.security).toEqual([{ apiKey: [] }]);
  expect(response('/v1/payments', 'GET', 503).headers['Retry-After']).toBeDefined();
  expect(response('/v1/payment_links', 'POST', 201).headers['Idempotent-Replayed']).toBeDefined();
  const denied = response('/v1/test_helpers/payment_links/{id}/checkout', 'POST', 409).content['application/json'].schema;
  expect(JSON.stringify(denied)).toContain('#/components/schemas/CheckoutDeniedError');
  expect(document.paths['/v1/payment_links/{id}'].get.description).toContain('Scope `payment_link:read`');
  expect(document.paths['/v1/test_helpers/jobs/{name}'].post.description).toContain('Test keys only');
});

test("openapi: every operation documents the stage throttle's 429 once, as API Gateway answers it (no envelope, no Retry-After); an operation's own limit adds the envelope and Retry-After", () => {
  for (const route of v1Routes) expect({ handler: route.handler, throttled: errorStatuses(route).includes(429) }).toEqual({ handler: route.handler, throttled: true });
  const throttled = document.components.responses.TooManyRequests;
  expect(throttled.description).toContain('{"message":"Too Many Requests"}');
  expect(throttled.headers).toBeUndefined();
  expect(document.components.schemas.StageThrottled).toEqual({
    type: 'object',
    properties: { message: { type: 'string', const: 'Too Many Requests' } },
    required: ['message'],
    additionalProperties: false,
    description: expect.any(String),
  });
  expect(StageThrottledSchema.safeParse({ message: 'Too Many Requests' }).success).toBe(true);
  const resend = response('/v1/events/{id}/resend', 'POST', 429);
  expect(resend.headers['Retry-After'].required).not.toBe(true);
  expect(resend.description).toContain('{"message":"Too Many Requests"}');
});

test('openapi: every limit the service enforces on a refund, a dispute and a document is in the schema it is declared with', () => {
  const schemas = document.components.schemas;
  expect(schemas.RefundCreateRequest.properties.description).toMatchObject({ type: 'string', maxLength: 500 });
  expect(schemas.RefundCreateRequest.properties.metadata).toMatchObject({
    type: 'object',
    maxProperties: 50,
    propertyNames: { type: 'string', minLength: 1, maxLength: 40 },
    additionalProperties: { type: 'string', maxLength: 500 },
  });
  expect(schemas.RefundCreateRequest.properties.metadata.description).toContain('40960 bytes');
  for (const text of ['product_description', 'customer_communication', 'refund_policy', 'shipping_tracking_number', 'uncategorized_text']) {
    expect(schemas.EvidenceInput.properties[text]).toEqual({ type: 'string', minLength: 1, maxLength: 20_000 });
  }
  expect(schemas.EvidenceInput.properties.documents).toMatchObject({ type: 'array', maxItems: 5, uniqueItems: true });
  expect(schemas.EvidenceInput.description).toContain('384000 bytes in UTF-8');
  expect(schemas.DisputeDocumentRequest.properties.filename).toEqual({ type: 'string', minLength: 1, maxLength: 255 });
  expect(schemas.DisputeDocumentRequest.properties.size).toMatchObject({ type: 'integer', minimum: 1, maximum: 4_194_304 });
  expect(schemas.DisputeDocumentRequest.properties.content_type.enum).toEqual(['application/pdf', 'image/png', 'image/jpeg']);
});
