import * as z from '../zod';
import {
  BusinessRuleError,
  ConflictError,
  DependencyUnavailableError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotAuthenticatedError,
  NotFoundError,
  PermissionDeniedError,
  PayloadTooLargeError,
  ServiceError,
  TooManyRequestsError,
} from '../errors';
import { lostToContention } from '../db/transaction-conflict';

export const STATUS_TYPES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * The one error envelope of every endpoint (product-decisions §1), output. The schema is for the
 * OpenAPI document (the declarations' error responses name it), so it is built in a pure
 * function that a bundle leaves out unless one of its declarations does; `toErrorResponse`
 * writes the envelope.
 */
export const ErrorEnvelopeSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      status: z.withMeta(z.int().check(z.gte(400), z.lte(599)), { description: 'The HTTP status, mirrored in the body.' }),
      type: z.withMeta(z.enum(Object.values(STATUS_TYPES)), { description: 'The status name.' }),
      detail: z.withMeta(z.string(), { description: 'What went wrong and how to fix it; never internals.' }),
      attribute: z.withMeta(z.optional(z.string()), { description: 'The offending input field, e.g. `amount.value` or `limit`.' }),
      reason: z.withMeta(z.optional(z.string()), { description: '409 only: why the action is refused, e.g. `expired`, `inactive`, `limit_reached`.' }),
      links: z.strictObject({
        documentation: z.strictObject({ href: z.withMeta(z.string(), { description: '`{docs_url}/errors`' }), type: z.literal('text/html') }),
      }),
    }),
    { id: 'Error', description: 'The error envelope. The status codes and the 400 vs 422 split are explained at `{docs_url}/errors`.' },
  ))();

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/**
 * What API Gateway answers when the stage's throttle refuses a request (429), before any
 * function runs: its own body, not the envelope, and no `Retry-After` (HTTP APIs cannot
 * reshape it). Documented on every operation (shared/openapi.ts).
 */
export const StageThrottledSchema = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ message: z.literal('Too Many Requests') }), {
    id: 'StageThrottled',
    description: "API Gateway's answer when the API's throttle refused the request before the service saw it: not the error envelope, and without `Retry-After`.",
  }))();

const STATUS_OF: [new (...args: never[]) => ServiceError, number][] = [
  [InvalidRequestError, 400],
  [NotAuthenticatedError, 401],
  [PermissionDeniedError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [BusinessRuleError, 422],
  [TooManyRequestsError, 429],
  [DependencyUnavailableError, 503],
];

const TRANSIENT_AWS_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);

/** A throttled or unreachable dependency, or a transaction conflict that outlasted its retries: safe to retry, so 503 rather than 500. */
function isTransient(error: unknown): boolean {
  const name = (error as { name?: string; code?: string })?.name ?? '';
  const code = (error as { code?: string })?.code ?? '';
  return TRANSIENT_AWS_ERRORS.has(name) || lostToContention(error) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code);
}

/**
 * The one mapping from any thrown value to status + envelope, and the headers that go with it
 * (`Retry-After` of a 429 or 503, `Allow` of a 405). Internals never leak.
 */
export function toErrorResponse(
  error: unknown,
  docsUrl: string,
): { status: number; envelope: ErrorEnvelope; headers: Record<string, string> } {
  let status = 500;
  let detail = 'An unexpected error occurred';
  let attribute: string | undefined;
  let reason: string | undefined;
  const headers: Record<string, string> = {};
  if (error instanceof ServiceError) {
    status = STATUS_OF.find(([type]) => error instanceof type)?.[1] ?? 500;
    detail = error.detail;
    attribute = error.attribute;
    if (error instanceof ConflictError) reason = error.reason;
    if (error instanceof DependencyUnavailableError || error instanceof TooManyRequestsError) headers['retry-after'] = String(error.retryAfterSeconds);
    if (error instanceof MethodNotAllowedError) headers.allow = error.allow.join(', ');
  } else if (isTransient(error)) {
    status = 503;
    detail = 'The service is temporarily unavailable; retry with exponential backoff';
    headers['retry-after'] = '1';
  }
  return {
    status,
    headers,
    envelope: {
      status,
      type: STATUS_TYPES[status],
      detail,
      ...(attribute ? { attribute } : {}),
      ...(reason ? { reason } : {}),
      links: { documentation: { href: `${docsUrl}/errors`, type: 'text/html' } },
    },
  };
}

/**
 * An error as every JSON endpoint answers it: the envelope with its status and headers (the API's
 * operations through `errorEnvelope`, the acquirer's notification receiver directly).
 */
export function errorResult(error: unknown, docsUrl: string): { statusCode: number; headers: Record<string, string>; body: string } {
  const { status, envelope, headers } = toErrorResponse(error, docsUrl);
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(envelope) };
}
