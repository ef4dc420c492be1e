import * as z from './zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { apiOperations } from './api';
import { ANY_KEY, pathParamNames, type ApiOperation, type ErrorStatus } from './api/operation';
import { ERROR_DESCRIPTIONS, RESPONSE_IDS, TAGS, infoDescription } from './api/reference';
import type { PublicUrls } from './config';
import { EVENT_ENVELOPES } from './domain/event-resources';
import { EVENT_REGISTRY, EVENT_TYPES, type EventType } from './domain/event-types';
import { WebhookHeadersSchema } from './domain/webhook-attempt';
import { ErrorEnvelopeSchema, STATUS_TYPES, StageThrottledSchema } from './http/error-envelope';
import { IdempotencyHeaders, ReplayedHeaders } from './http/idempotency-headers';
import { LIMITS } from './limits';
import { AWS_WEBHOOK_SETTINGS } from './webhooks/settings';

/**
 * The OpenAPI 3.1 reference, built from the operation declarations (shared/api/*.ts): the same
 * schemas the handlers validate requests with and the domain modules shape responses with.
 */

const THROTTLED =
  `the API's throttle (${LIMITS.stageThrottle.requestsPerSecond} requests per second on each operation, bursts of ${LIMITS.stageThrottle.burst}) refused the request before the service saw it: ` +
  'API Gateway\'s `{"message":"Too Many Requests"}`, without `Retry-After`';

/** Appended to an operation's own wording of 400, 422 and 429: the causes every keyed operation (or POST) shares. */
function sharedCauses(status: ErrorStatus, isPost: boolean): string {
  const causes: string[] = [];
  if (status === 422) causes.push('a key created by an admin (`API key configuration is invalid (creator role)`)');
  if (status === 422 && isPost) causes.push('an `Idempotency-Key` already used with another body');
  if (status === 400 && isPost) causes.push('an `Idempotency-Key` outside 1..255 characters');
  if (status === 429) causes.push(THROTTLED);
  return causes.length ? ` Also: ${causes.join('; ')}.` : '';
}

const RetryAfterHeaders = /* @__PURE__ */ (() => z.object({ 'Retry-After': z.withMeta(z.string(), { description: 'Seconds to wait before retrying.' }) }))();
/** An operation's own rate limit says when to retry; the stage's throttle, answering the same status, does not. */
const OwnLimitRetryAfterHeaders = /* @__PURE__ */ (() =>
  z.object({ 'Retry-After': z.withMeta(z.optional(z.string()), { description: "Seconds to wait before retrying: sent with the operation's own limit, not by the stage's throttle." }) }))();

const json = (schema: z.ZodMiniType) => ({ 'application/json': { schema } });

/**
 * The body of an error of `status`: the operation's own schema or the envelope, except a 429,
 * which the stage's throttle may answer on any operation in API Gateway's shape: an operation
 * with a rate limit of its own answers either.
 */
function errorSchema(status: ErrorStatus, own?: { schema?: z.ZodMiniType }): z.ZodMiniType {
  if (status !== 429) return own?.schema ?? ErrorEnvelopeSchema;
  return own ? z.union([own.schema ?? ErrorEnvelopeSchema, StageThrottledSchema]) : StageThrottledSchema;
}

function errorResponse(status: ErrorStatus, description: string, schema: z.ZodMiniType, options: { id?: string; own?: boolean } = {}): ZodOpenApiResponseObject {
  const headers = status === 503 ? RetryAfterHeaders : status === 429 && options.own ? OwnLimitRetryAfterHeaders : undefined;
  return {
    ...(options.id ? { id: options.id } : {}),
    description,
    content: json(schema),
    ...(headers ? { headers } : {}),
  };
}

/** The generic error responses: each becomes `#/components/responses/<id>`. */
const ERROR_RESPONSES = {} as Record<ErrorStatus, ZodOpenApiResponseObject>;
for (const status of Object.keys(ERROR_DESCRIPTIONS).map(Number) as ErrorStatus[]) {
  ERROR_RESPONSES[status] = errorResponse(status, ERROR_DESCRIPTIONS[status], errorSchema(status), { id: RESPONSE_IDS[status] });
}

/**
 * The error statuses an operation documents: 429 and 500 for every one (the stage's throttle
 * answers before any function), authentication ones for every keyed operation (a key created by
 * an admin is a 422 everywhere), 400 for any input, 404 for ids and mode-only routes, 409 for
 * the Idempotency-Key of every POST, plus the operation's own.
 */
export function errorStatuses(spec: ApiOperation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([429, 500]);
  if (spec.auth !== 'public') [401, 403, 422, 503].forEach((status) => statuses.add(status as ErrorStatus));
  if (Object.keys(spec.query.shape).length || spec.body || spec.method === 'POST') statuses.add(400);
  if (pathParamNames(spec.path).length || (spec.auth !== 'public' && spec.auth.mode)) statuses.add(404);
  if (spec.method === 'POST' && spec.auth !== 'public') statuses.add(409);
  // Every body is bounded before anything else is read (LIMITS.requestBodyBytes).
  if (spec.method === 'POST') statuses.add(413);
  for (const status of Object.keys(spec.errors ?? {})) statuses.add(Number(status) as ErrorStatus);
  return [...statuses].sort((a, b) => a - b);
}

/** The zod schema a response of `status` must match. */
export function responseSchema(spec: ApiOperation, status: number): z.ZodMiniType | undefined {
  if (status === spec.success.status) return spec.success.schema;
  if (!(status in STATUS_TYPES)) return undefined;
  return errorSchema(status as ErrorStatus, spec.errors?.[status as ErrorStatus]);
}

const operationId = (handler: string) => handler.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());

function describeAccess({ auth }: ApiOperation): string {
  if (auth === 'public') return 'Public: no API key.';
  const notes = [auth.scope === ANY_KEY ? 'Any key of the organization (no scope needed).' : `Scope \`${auth.scope}\`.`];
  if (auth.mode === 'test') notes.push('Test keys only: a live key gets 404.');
  if (auth.mode === 'live') notes.push('Live keys only: a test key gets 404.');
  return notes.join(' ');
}

function operationOf(spec: ApiOperation): ZodOpenApiOperationObject {
  const isPost = spec.method === 'POST' && spec.auth !== 'public';
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [spec.success.status]: {
      description: spec.success.description,
      content: json(spec.success.schema),
      ...(isPost ? { headers: ReplayedHeaders } : {}),
    },
  };
  for (const status of errorStatuses(spec)) {
    const own = spec.errors?.[status];
    responses[status] = own ? errorResponse(status, `${own.description}${sharedCauses(status, isPost)}`, errorSchema(status, own), { own: true }) : ERROR_RESPONSES[status];
  }
  return {
    operationId: operationId(spec.handler),
    tags: [spec.tag],
    summary: spec.summary,
    description: `${spec.description}\n\n${describeAccess(spec)}`,
    ...(spec.auth === 'public' ? { security: [] } : {}),
    requestParams: {
      ...(Object.keys(spec.params.shape).length ? { path: spec.params } : {}),
      ...(Object.keys(spec.query.shape).length ? { query: spec.query } : {}),
      ...(isPost ? { header: IdempotencyHeaders } : {}),
    },
    ...(spec.body ? { requestBody: { required: !spec.body.safeParse({}).success, content: json(spec.body) } } : {}),
    responses,
  };
}

const { policy, timeoutMs } = AWS_WEBHOOK_SETTINGS;
const WEBHOOK_RESPONSES: Record<string, ZodOpenApiResponseObject> = {
  '2XX': { description: 'Acknowledged: any 2xx ends the delivery. Answer quickly and process afterwards.' },
  default: {
    description:
      `Any other status, a redirect or no answer within ${timeoutMs / 1000} s fails the attempt: it is retried with exponential backoff ` +
      `and jitter (${policy.scheduleMs.length + 1} attempts over at least 3 days), then parked in a dead-letter queue.`,
  },
};

/**
 * One webhook per event type: the envelope with that type's `data` schema, POSTed signed per
 * Standard Webhooks to each matching subscription (and per-object URL).
 */
function webhookOf(type: EventType): ZodOpenApiOperationObject {
  const { description } = EVENT_REGISTRY[type];
  return {
    operationId: operationId(`${type.replace(/^transactions\./, '').replace(/[._]/g, '-')}-webhook`),
    tags: ['Events'],
    summary: type,
    description:
      `${description}\n\nDelivered at least once to every subscription of the organization and mode whose pattern matches ` +
      '`type` (and to the per-object URL the resource names): drop duplicates by `webhook-id`, and verify the signature over the raw body.',
    security: [],
    requestParams: { header: WebhookHeadersSchema },
    requestBody: { required: true, content: json(EVENT_ENVELOPES[type]) },
    responses: WEBHOOK_RESPONSES,
  };
}

/** The OpenAPI document of `operations`, for the given public URLs. */
export function buildOpenApiDocument(operations: ApiOperation[], urls: PublicUrls) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: operationOf(operation) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Payment Operations API', version: '1.0.0', description: infoDescription(urls), license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: urls.base }],
    externalDocs: { description: 'Error reference', url: `${urls.docs}/errors` },
    tags: TAGS,
    security: [{ apiKey: [] }],
    paths,
    webhooks: Object.fromEntries(EVENT_TYPES.map((type) => [type, { post: webhookOf(type) }])),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, `test_…` or `live_…`, as a bearer token.' },
      },
    },
  });
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const documents = new Map<string, OpenApiDocument>();

/** The document of the service's routes for these public URLs, built once per warm function. */
export function openApiDocumentFor(urls: PublicUrls): OpenApiDocument {
  const key = `${urls.base} ${urls.docs}`;
  let document = documents.get(key);
  if (!document) {
    document = buildOpenApiDocument(apiOperations, urls);
    documents.set(key, document);
  }
  return document;
}
