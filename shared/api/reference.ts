import * as z from '../zod';
import { SWAGGER_UI_BUNDLE_FILES } from '../docs/swagger-ui';
import type { PublicUrls } from '../config';
import { LIMITS } from '../limits';
import { NoParams, NoQuery, defineOperation, definePage, type ErrorStatus, type Tag } from './operation';

const OpenApiDocumentSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    { id: 'OpenApiDocument', description: 'This document.' },
  ))();

export const getOpenApi = /* @__PURE__ */ defineOperation({
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

export const referencePages = /* @__PURE__ */ (() => [
  definePage({ method: 'GET', path: '/docs', handler: 'docs-page', table: 'none', auth: 'public' }),
  definePage({ method: 'GET', path: '/docs/errors', handler: 'docs-errors', table: 'none', auth: 'public' }),
  definePage({ method: 'GET', path: '/docs/assets/{file}', handler: 'docs-asset', table: 'none', auth: 'public', files: SWAGGER_UI_BUNDLE_FILES }),
])();

/** The generic wording of each error status; operations may replace it (`errors`). */
export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad Request: malformed JSON, a wrong type, an unknown field or query parameter, a format or pattern violation, or an invalid `Idempotency-Key`.',
  401: 'Unauthorized: the key is missing, revoked (after its grace period) or its creator was demoted.',
  403: 'Forbidden: the key lacks the scope, or its creator lost the organization permission.',
  404: 'Not Found: unknown, malformed, foreign or other-mode id; one identical answer for all.',
  409: 'Conflict: a request with the same `Idempotency-Key` is still in progress.',
  413: 'Content Too Large: the request body is larger than 1 MB (1,048,576 bytes).',
  422: 'Unprocessable Entity: a business rule is broken (see `attribute`), the key was created by an admin, or (POST) the `Idempotency-Key` was already used with another body.',
  429: `Too Many Requests: the API's throttle (${LIMITS.stageThrottle.requestsPerSecond} requests per second on each operation, bursts of ${LIMITS.stageThrottle.burst}) refused the request before the service saw it. The body is API Gateway's \`{"message":"Too Many Requests"}\`, not the error envelope, and carries no \`Retry-After\`: retry with exponential backoff and jitter.`,
  500: 'Internal Server Error: unexpected; the detail is generic.',
  503: 'Service Unavailable: a dependency cannot be reached; retry after `Retry-After` seconds with exponential backoff.',
};

/** The component id of each generic error response (`#/components/responses/<id>`). */
export const RESPONSE_IDS: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'ContentTooLarge',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

/** The document's tags, in the reference's order. */
export const TAGS: { name: Tag; description: string }[] = [
  { name: 'Payment links', description: 'Stable checkout URLs a customer pays against; never deleted, retired by status or expiry.' },
  { name: 'Payments', description: 'Payments made through payment links.' },
  { name: 'Refunds', description: 'Refunds of paid EUR payments against the balance; held while the balance is too low.' },
  { name: 'Chargebacks', description: 'Bank reversals recorded against payments (read-only).' },
  { name: 'Balance', description: 'What the organization holds per currency, and every movement behind it (the ledger).' },
  { name: 'Settlements', description: 'Payouts to the organization\'s bank account and their records (live mode only).' },
  { name: 'Events', description: 'What happened, as delivered to webhooks: readable for 35 days and replayable.' },
  { name: 'Webhook endpoints', description: 'Where events are delivered, signed with each endpoint\'s secret; at most 16 per organization and mode.' },
  { name: 'Audit events', description: 'Who did what: every write and sign-in of the organization, one immutable record each, kept a year.' },
  { name: 'Reports', description: 'A list (payments, refunds, chargebacks, balance transactions) over a creation range as a CSV file, built in the background, kept 30 days.' },
  { name: 'Test helpers', description: 'Drive test-mode objects through their lifecycles. Test keys only; a live key gets 404.' },
  { name: 'Reference', description: 'This document.' },
];

/** The document's introduction. */
export function infoDescription(urls: PublicUrls): string {
  return [
    'A JSON REST API for payment links with a customer checkout, payments, refunds against a balance, chargebacks and settlements.',
    '',
    '**Authentication.** Every operation but this document takes `Authorization: Bearer <API key>`. Keys are `test_…` or `live_…`: ' +
      'the key decides the mode, and test and live objects never see each other. Each operation names the scope it needs.',
    '',
    '**Lists.** `limit` 1..100 (default 10), cursors `starting_after` / `ending_before` are ids of the list; newest first.',
    '',
    `**Errors.** Every error is one envelope (\`status\`, \`type\`, \`detail\`, \`attribute\`, \`links.documentation\`); ` +
      `shape problems are 400, broken business rules 422. See [the error reference](${urls.docs}/errors).`,
    '',
    '**Retries.** Every POST accepts an `Idempotency-Key` header.',
    '',
    '**Request ids.** Every answer carries a `Request-Id` header: quote it when asking about a request. ' +
      'A method a path does not take is a 405 whose `Allow` header lists the ones it does.',
  ].join('\n');
}
