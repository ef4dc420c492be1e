import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import type { Scope } from './auth/principal';
import type { PublicUrls } from './config';
import { ChargebackListSchema, ChargebackSchema, ChargebackTransitionBody, TestChargebackBody } from './domain/chargebacks';
import {
  CheckoutDeniedSchema,
  PaymentLinkListSchema,
  PaymentLinkSchema,
  createPaymentLinkBody,
  listLinkPaymentsQuery,
  listPaymentLinksQuery,
  updatePaymentLinkBody,
} from './domain/payment-links';
import { PaymentLinkPaymentListSchema, PaymentListSchema, PaymentSchema, listPaymentsQuery, testCheckoutBody } from './domain/payments';
import { BalanceSchema, RefundListSchema, balanceAdjustmentBody, refundCreateBody, refundResourceSchema, refundTransitionBody } from './domain/refunds';
import {
  SettlementListSchema,
  SettlementRecordListSchema,
  SettlementRecordsQuery,
  SettlementSchema,
} from './domain/settlements';
import {
  DeliveryAttemptListSchema,
  EventListSchema,
  EventResendSchema,
  EventSchema,
  eventIdPath,
  listEventsQuery,
  resendEventBody,
} from './domain/event-resources';
import { ErrorEnvelopeSchema, STATUS_TYPES } from './http/error-envelope';
import { IdempotencyHeaders, ReplayedHeaders } from './http/idempotency';
import { JobRunSchema } from './jobs';
import { ListQuery } from './pagination';
import { routes as allRoutes, type RouteDefinition } from './routes';

/**
 * The OpenAPI 3.1 reference, built from the zod schemas the handlers validate requests with and
 * the domain modules shape responses with. One row per `/v1` route, keyed by its handler name;
 * `test/openapi.test.ts` checks that every `/v1` route has a row, that the rows' query and body
 * schemas are the very ones the handlers use, and that real answers match the documented schemas.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 500 | 503;
type Tag = 'Payment links' | 'Payments' | 'Refunds' | 'Chargebacks' | 'Settlements' | 'Events' | 'Test helpers' | 'Reference';

export interface OperationSpec {
  summary: string;
  description: string;
  tag: Tag;
  /** The scope the handler requires; test helpers take any test key. */
  scope?: Scope;
  /** Public operation: no API key. */
  auth?: 'none';
  testModeOnly?: boolean;
  liveModeOnly?: boolean;
  /** Path parameters, described; their names are the route's `{name}` segments. */
  path?: z.ZodObject;
  /** The handler's own query and body schemas (the same objects). */
  query?: z.ZodObject;
  body?: z.ZodType;
  success: { status: 200 | 201 | 202; description: string; schema: z.ZodType };
  /** Operation-specific wording (or schema) of an error status, beyond the generic ones. */
  errors?: Partial<Record<ErrorStatus, { description: string; schema?: z.ZodType }>>;
}

const pathId = (name: string, description: string, example: string) =>
  z.object({ [name]: z.string().meta({ description, example }) });
const linkId = pathId('id', 'The payment link id (`pl_…`).', 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h');
const paymentId = pathId('id', 'The payment id (`pay_…`).', 'pay_01jd2x3y4z5a6b7c8d9e0f1g2h');
const chargebackId = pathId('id', 'The chargeback id (`cb_…`).', 'cb_01jd2x3y4z5a6b7c8d9e0f1g2h');
const refundId = pathId('id', 'The refund id (`rf_…`).', 'rf_01jd2x3y4z5a6b7c8d9e0f1g2h');
const settlementCode = pathId('code', 'The settlement reference code (as on the bank statement) or its `stl_` id.', 'STL-2026-11-20');

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

const LIST_422 = 'A list parameter breaks a rule: `limit` outside 1..100, a malformed cursor or one naming no item of this list, both cursors at once.';

/** Every `/v1` operation, keyed by the route's handler name (`shared/routes.ts`). */
export const operations: Record<string, OperationSpec> = {
  'create-payment-link': {
    tag: 'Payment links',
    summary: 'Create a payment link',
    description:
      'Creates an `active` link. Organization-scoped keys must name `acceptor_id`; acceptor-bound keys default to their acceptor. ' +
      'Not idempotent without an `Idempotency-Key`: a repeated POST creates a second link. Emits `transactions.payment_link.created`.',
    scope: 'payment_link:create',
    body: createPaymentLinkBody,
    success: { status: 201, description: 'The new payment link.', schema: PaymentLinkSchema },
    errors: {
      400: { description: 'Malformed JSON, a wrong type, an unknown field (e.g. `webhook_url`), or `amount.value` off its pattern.' },
      422: {
        description:
          '`amount.value` missing or not positive; `acceptor_id` missing for an organization-scoped key or of another organization; `payments_limit` below 1.',
      },
    },
  },
  'list-payment-links': {
    tag: 'Payment links',
    summary: 'List payment links',
    description: 'Organization-wide, newest first. Forward cursor only (`ending_before` is not supported).',
    scope: 'payment_link:read',
    query: listPaymentLinksQuery,
    success: { status: 200, description: 'A page of payment links.', schema: PaymentLinkListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'get-payment-link': {
    tag: 'Payment links',
    summary: 'Retrieve a payment link',
    description: 'Unknown, malformed and other-organization ids get the same 404.',
    scope: 'payment_link:read',
    path: linkId,
    success: { status: 200, description: 'The payment link.', schema: PaymentLinkSchema },
  },
  'update-payment-link': {
    tag: 'Payment links',
    summary: 'Update a payment link',
    description:
      'Partial update over POST: omitted fields are kept. `amount`, `acceptor_id`, `redirect_url` and the `collect_*` fields are immutable ' +
      '(sending them is a 400). Emits `transactions.payment_link.properties.changed`.',
    scope: 'payment_link:update',
    path: linkId,
    body: updatePaymentLinkBody,
    success: { status: 200, description: 'The updated payment link.', schema: PaymentLinkSchema },
    errors: {
      400: { description: 'Malformed JSON, a wrong type, an unknown or immutable field, or `status` outside `active`, `inactive`.' },
      422: {
        description:
          'Empty body; status change of an expired link (`Status cannot be changed once expired`); `payments_limit` below `paid_count`.',
      },
    },
  },
  'list-payment-link-payments': {
    tag: 'Payment links',
    summary: "List a payment link's payments",
    description: 'Newest first, the minimal payment shape. Needs only `payment_link:read`. Forward cursor only.',
    scope: 'payment_link:read',
    path: linkId,
    query: listLinkPaymentsQuery,
    success: { status: 200, description: "A page of the link's payments.", schema: PaymentLinkPaymentListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'list-payments': {
    tag: 'Payments',
    summary: 'List payments',
    description: 'Organization-wide, newest first, with an optional `status` filter.',
    scope: 'payment:read',
    query: listPaymentsQuery,
    success: { status: 200, description: 'A page of payments.', schema: PaymentListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'get-payment': {
    tag: 'Payments',
    summary: 'Retrieve a payment',
    description: 'A payment of a payment link.',
    scope: 'payment:read',
    path: paymentId,
    success: { status: 200, description: 'The payment.', schema: PaymentSchema },
  },
  'test-helper-checkout': {
    tag: 'Test helpers',
    summary: 'Check out a payment link',
    description: 'Runs the checkout page\'s code without a browser: opens the checkout and completes the payment with `outcome` (default `paid`).',
    testModeOnly: true,
    path: linkId,
    body: testCheckoutBody,
    success: { status: 201, description: 'The payment.', schema: PaymentSchema },
    errors: {
      409: {
        description: 'The link refuses checkout (`reason`: `expired`, `inactive` or `limit_reached`), or an Idempotency-Key is in flight.',
        schema: CheckoutDeniedSchema.or(ErrorEnvelopeSchema),
      },
    },
  },
  'test-helper-run-job': {
    tag: 'Test helpers',
    summary: 'Run a minute job now',
    description: 'Runs one of `expire-payment-links`, `accept-overdue-chargebacks`, `process-refunds` once.',
    testModeOnly: true,
    path: pathId('name', 'The job name.', 'expire-payment-links'),
    success: { status: 200, description: 'The run.', schema: JobRunSchema },
    errors: { 404: { description: 'No job of that name, or a live key.' } },
  },
  'get-chargeback': {
    tag: 'Chargebacks',
    summary: 'Retrieve a chargeback',
    description: 'The full chargeback object.',
    scope: 'chargeback:read',
    path: chargebackId,
    success: { status: 200, description: 'The chargeback.', schema: ChargebackSchema },
  },
  'list-chargebacks': {
    tag: 'Chargebacks',
    summary: 'List chargebacks',
    description: 'Newest first, list items. An acceptor-bound key sees its acceptor\'s chargebacks; an organization-scoped key all of its organization.',
    scope: 'chargeback:read',
    query: ListQuery,
    success: { status: 200, description: 'A page of chargebacks.', schema: ChargebackListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'list-payment-chargebacks': {
    tag: 'Chargebacks',
    summary: "List a payment's chargebacks",
    description: 'The chargebacks of one payment as list items, newest first (organization-wide).',
    scope: 'chargeback:read',
    path: paymentId,
    query: ListQuery,
    success: { status: 200, description: "A page of the payment's chargebacks.", schema: ChargebackListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'test-helper-create-chargeback': {
    tag: 'Test helpers',
    summary: 'Charge back a payment',
    description: 'A bank reversal of a paid test payment: an `open` chargeback (default amount: the payment\'s; default `deadline_at`: 7 days).',
    testModeOnly: true,
    path: paymentId,
    body: TestChargebackBody,
    success: { status: 201, description: 'The new chargeback.', schema: ChargebackSchema },
    errors: { 422: { description: 'The payment is not paid, or the amount exceeds it or is in another currency.' } },
  },
  'test-helper-transition-chargeback': {
    tag: 'Test helpers',
    summary: 'Move a chargeback',
    description: 'Moves a chargeback along the state table (`open` → `accepted`/`disputed` → `won`/`lost`).',
    testModeOnly: true,
    path: chargebackId,
    body: ChargebackTransitionBody,
    success: { status: 200, description: 'The chargeback.', schema: ChargebackSchema },
    errors: { 422: { description: 'A move the state table forbids (attribute `status`).' } },
  },
  'create-refund': {
    tag: 'Refunds',
    summary: 'Refund a payment',
    description:
      'Refunds a paid EUR payment; without `amount`, the whole refundable rest. When the balance does not cover it, the refund stays `pending` with ' +
      '`on_hold: true` and is processed automatically once it does.',
    scope: 'refund:create',
    path: paymentId,
    body: refundCreateBody,
    success: { status: 201, description: 'The new refund.', schema: refundResourceSchema },
    errors: {
      422: { description: 'The payment is not paid or not in EUR; the amount is not positive, exceeds the refundable rest or the overcapture ceiling.' },
    },
  },
  'get-refund': {
    tag: 'Refunds',
    summary: 'Retrieve a refund',
    description: 'The refund object.',
    scope: 'refund:read',
    path: refundId,
    success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
  },
  'list-refunds': {
    tag: 'Refunds',
    summary: 'List refunds',
    description: 'Organization-wide, newest first.',
    scope: 'refund:read',
    query: ListQuery,
    success: { status: 200, description: 'A page of refunds.', schema: RefundListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'test-helper-refund-transition': {
    tag: 'Test helpers',
    summary: 'Move a refund',
    description: '`pending` → `processing` → `refunded`; `pending` → `canceled`; `processing` → `failed`.',
    testModeOnly: true,
    path: refundId,
    body: refundTransitionBody,
    success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
    errors: { 422: { description: 'A move the lifecycle forbids, or a balance that does not cover `processing`.' } },
  },
  'test-helper-balance-adjustment': {
    tag: 'Test helpers',
    summary: 'Adjust the balance',
    description: 'Adds a signed amount to the test balance.',
    testModeOnly: true,
    body: balanceAdjustmentBody,
    success: { status: 201, description: 'The balance after the adjustment.', schema: BalanceSchema },
  },
  'list-settlements': {
    tag: 'Settlements',
    summary: 'List settlements',
    description: 'Organization-wide, newest first by creation; cursors take a settlement code or id. Live keys only.',
    scope: 'settlement:read',
    liveModeOnly: true,
    query: ListQuery,
    success: { status: 200, description: 'A page of settlements (without `clearings`).', schema: SettlementListSchema },
    errors: { 404: { description: 'A test key: settlements exist only in live mode.' }, 422: { description: LIST_422 } },
  },
  'get-settlement': {
    tag: 'Settlements',
    summary: 'Retrieve a settlement',
    description: 'By reference code or `stl_` id, with `clearings`. Live keys only.',
    scope: 'settlement:read',
    liveModeOnly: true,
    path: settlementCode,
    success: { status: 200, description: 'The settlement.', schema: SettlementSchema },
    errors: { 404: { description: 'Unknown or foreign settlement, or a test key.' } },
  },
  'list-settlement-records': {
    tag: 'Settlements',
    summary: "List a settlement's records",
    description: 'Payments, refunds, chargebacks, chargeback reversals and rollbacks, newest first by transaction time. Live keys only.',
    scope: 'settlement:read',
    liveModeOnly: true,
    path: settlementCode,
    query: SettlementRecordsQuery,
    success: { status: 200, description: 'A page of records.', schema: SettlementRecordListSchema },
    errors: { 404: { description: 'Unknown or foreign settlement, or a test key.' }, 422: { description: LIST_422 } },
  },
  'list-events': {
    tag: 'Events',
    summary: 'List events',
    description:
      'The events of the key\'s organization and mode, newest first, kept 35 days. `type` takes an exact type, a `prefix.*` wildcard or `*`, like webhook subscriptions.',
    scope: 'event:read',
    query: listEventsQuery,
    success: { status: 200, description: 'A page of event envelopes.', schema: EventListSchema },
    errors: { 422: { description: LIST_422 } },
  },
  'get-event': {
    tag: 'Events',
    summary: 'Retrieve an event',
    description: 'The event envelope exactly as webhooks deliver it.',
    scope: 'event:read',
    path: eventIdPath,
    success: { status: 200, description: 'The event.', schema: EventSchema },
  },
  'list-event-deliveries': {
    tag: 'Events',
    summary: "List an event's delivery attempts",
    description: 'Every attempt to deliver the event, oldest first: time, endpoint, status code, duration, error.',
    scope: 'event:read',
    path: eventIdPath,
    success: { status: 200, description: 'The attempts.', schema: DeliveryAttemptListSchema },
  },
  'resend-event': {
    tag: 'Events',
    summary: 'Resend an event',
    description:
      'Replays the event to every subscription matching it now (and its per-object URLs), or with `subscription_id` to that subscription only. Delivered asynchronously with the same `webhook-id`.',
    scope: 'event:resend',
    path: eventIdPath,
    body: resendEventBody,
    success: { status: 202, description: 'The replay request.', schema: EventResendSchema },
    errors: { 422: { description: '`subscription_id` names no subscription of this organization and mode.' } },
  },
  'get-openapi': {
    tag: 'Reference',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of the API, generated from the schemas that validate requests and shape responses. No API key needed.',
    auth: 'none',
    success: { status: 200, description: 'The document.', schema: OpenApiDocumentSchema },
  },
};

/** The generic wording of each error status; operations may replace it (`errors`). */
const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad Request: malformed JSON, a wrong type, an unknown field or query parameter, a format or pattern violation, or an invalid `Idempotency-Key`.',
  401: 'Unauthorized: the key is missing, revoked (after its grace period) or its creator was demoted.',
  403: 'Forbidden: the key lacks the scope, or its creator lost the organization permission.',
  404: 'Not Found: unknown, malformed, foreign or other-mode id; one identical answer for all.',
  409: 'Conflict: a request with the same `Idempotency-Key` is still in progress.',
  422: 'Unprocessable Entity: a business rule is broken (see `attribute`), the key was created by an admin, or (POST) the `Idempotency-Key` was already used with another body.',
  500: 'Internal Server Error: unexpected; the detail is generic.',
  503: 'Service Unavailable: a dependency cannot be reached; retry after `Retry-After` seconds with exponential backoff.',
};

/** Appended to an operation's own wording of 400 and 422: the causes every keyed operation (or POST) shares. */
function sharedCauses(status: ErrorStatus, isPost: boolean): string {
  const causes: string[] = [];
  if (status === 422) causes.push('a key created by an admin (`API key configuration is invalid (creator role)`)');
  if (status === 422 && isPost) causes.push('an `Idempotency-Key` already used with another body');
  if (status === 400 && isPost) causes.push('an `Idempotency-Key` outside 1..255 characters');
  return causes.length ? ` Also: ${causes.join('; ')}.` : '';
}

const RESPONSE_IDS: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'UnprocessableEntity',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

const RetryAfterHeaders = z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait before retrying.' }) });

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function errorResponse(status: ErrorStatus, description: string, schema: z.ZodType = ErrorEnvelopeSchema, id?: string): ZodOpenApiResponseObject {
  return {
    ...(id ? { id } : {}),
    description,
    content: json(schema),
    ...(status === 503 ? { headers: RetryAfterHeaders } : {}),
  };
}

/** The generic error responses: each becomes `#/components/responses/<id>`. */
const ERROR_RESPONSES = {} as Record<ErrorStatus, ZodOpenApiResponseObject>;
for (const status of Object.keys(ERROR_DESCRIPTIONS).map(Number) as ErrorStatus[]) {
  ERROR_RESPONSES[status] = errorResponse(status, ERROR_DESCRIPTIONS[status], ErrorEnvelopeSchema, RESPONSE_IDS[status]);
}

const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/**
 * The error statuses an operation documents: authentication ones for every keyed operation (a
 * key created by an admin is a 422 everywhere), 400 for any input, 404 for ids and mode-only
 * routes, 409 for the Idempotency-Key of every POST, plus the operation's own.
 */
export function errorStatuses(route: RouteDefinition, spec: OperationSpec): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([500]);
  if (spec.auth !== 'none') [401, 403, 422, 503].forEach((status) => statuses.add(status as ErrorStatus));
  if (spec.query || spec.body || route.method === 'POST') statuses.add(400);
  if (pathParamNames(route.path).length || spec.testModeOnly || spec.liveModeOnly) statuses.add(404);
  if (route.method === 'POST' && spec.auth !== 'none') statuses.add(409);
  for (const status of Object.keys(spec.errors ?? {})) statuses.add(Number(status) as ErrorStatus);
  return [...statuses].sort((a, b) => a - b);
}

/** The zod schema a response of `status` must match. */
export function responseSchema(spec: OperationSpec, status: number): z.ZodType | undefined {
  if (status === spec.success.status) return spec.success.schema;
  if (!(status in STATUS_TYPES)) return undefined;
  return spec.errors?.[status as ErrorStatus]?.schema ?? ErrorEnvelopeSchema;
}

const operationId = (handler: string) => handler.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());

function describeAccess(spec: OperationSpec): string {
  if (spec.auth === 'none') return 'Public: no API key.';
  const notes = [spec.scope ? `Scope \`${spec.scope}\`.` : 'Any key of the organization (no scope needed).'];
  if (spec.testModeOnly) notes.push('Test keys only: a live key gets 404.');
  if (spec.liveModeOnly) notes.push('Live keys only: a test key gets 404.');
  return notes.join(' ');
}

function operationOf(route: RouteDefinition, spec: OperationSpec): ZodOpenApiOperationObject {
  const isPost = route.method === 'POST' && spec.auth !== 'none';
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [spec.success.status]: {
      description: spec.success.description,
      content: json(spec.success.schema),
      ...(isPost ? { headers: ReplayedHeaders } : {}),
    },
  };
  for (const status of errorStatuses(route, spec)) {
    const own = spec.errors?.[status];
    responses[status] = own ? errorResponse(status, `${own.description}${sharedCauses(status, isPost)}`, own.schema) : ERROR_RESPONSES[status];
  }
  return {
    operationId: operationId(route.handler),
    tags: [spec.tag],
    summary: spec.summary,
    description: `${spec.description}\n\n${describeAccess(spec)}`,
    ...(spec.auth === 'none' ? { security: [] } : {}),
    requestParams: {
      ...(spec.path ? { path: spec.path } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(isPost ? { header: IdempotencyHeaders } : {}),
    },
    ...(spec.body ? { requestBody: { required: true, content: json(spec.body) } } : {}),
    responses,
  };
}

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Payment links', description: 'Stable checkout URLs a customer pays against; never deleted, retired by status or expiry.' },
  { name: 'Payments', description: 'Payments made through payment links.' },
  { name: 'Refunds', description: 'Refunds of paid EUR payments against the balance; held while the balance is too low.' },
  { name: 'Chargebacks', description: 'Bank reversals recorded against payments (read-only).' },
  { name: 'Settlements', description: 'Payouts to the organization\'s bank account and their records (live mode only).' },
  { name: 'Test helpers', description: 'Drive test-mode objects through their lifecycles. Test keys only; a live key gets 404.' },
  { name: 'Reference', description: 'This document.' },
];

function infoDescription(urls: PublicUrls): string {
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
  ].join('\n');
}

/** The OpenAPI document of the `/v1` routes of `routes`, for the given public URLs. */
export function buildOpenApiDocument(routes: RouteDefinition[], urls: PublicUrls) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes.filter((candidate) => candidate.path.startsWith('/v1/'))) {
    const spec = operations[route.handler];
    if (!spec) throw new Error(`No OpenAPI entry for route ${route.method} ${route.path} (${route.handler}) in shared/openapi.ts`);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route, spec) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Payment Operations API', version: '1.0.0', description: infoDescription(urls) },
    servers: [{ url: urls.base }],
    externalDocs: { description: 'Error reference', url: `${urls.docs}/errors` },
    tags: TAGS,
    security: [{ apiKey: [] }],
    paths,
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
    document = buildOpenApiDocument(allRoutes, urls);
    documents.set(key, document);
  }
  return document;
}
