import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from '../zod';
import type { Principal } from '../auth/principal';
import { isAudited, type ApiOperation, type Auth } from '../api/operation';
import type { PublicUrls } from '../config';
import { runWithDeadline } from '../deadline';
import { errorResult } from './error-envelope';
import { logger } from '../observability/logger';
import { observeRequests } from '../observability/middleware';
import { cookiesOf } from './cookies';
import { toResult, urlsFor, type ApiEvent, type ApiResponse, type ApiResult } from './response';
import { parseJsonBody, parseWith } from './validation';

/** What a use case gets from the edge: the caller, the parsed input, and the public URLs. */
export interface ApiRequest<P, Q, B> {
  principal: Principal;
  path: P;
  query: Q;
  body: B;
  urls: PublicUrls;
  headers: Record<string, string | undefined>;
  cookies: Record<string, string>;
  /** When the function's timeout ends this invocation (epoch ms): work that retries stops before it. */
  deadline: number;
}

/** Runs a POST's use case at most once per Idempotency-Key: given by `apiHandler` (shared/http/api.ts) for a POST. */
export type RunOnce = (principal: Principal | undefined, event: ApiEvent, execute: () => Promise<ApiResult>) => Promise<ApiResult>;

/** The caller's key checked against the operation's auth. Given by `apiHandler` (shared/http/api.ts), so a public operation's bundle carries no key store. */
export type Authenticate = (event: ApiEvent, auth: Exclude<Auth, 'public'>) => Promise<Principal>;

/** Runs a writing operation's use case with its audit record waiting for its change's transaction (shared/http/audit.ts): given by `apiHandler`. */
export type RunAudited = (operation: ApiOperation, event: ApiEvent, principal: Principal, work: () => Promise<ApiResponse>) => Promise<ApiResponse>;

/** Every error leaves as the one envelope; 5xx are logged with their cause, nothing else is. */
export const errorEnvelope = (): MiddlewareObj<ApiEvent, ApiResult> => ({
  onError: async (request) => {
    const result = errorResult(request.error, urlsFor(request.event).docs);
    if (result.statusCode === 500) logger.error('request failed', { error: request.error as Error, path: request.event.rawPath });
    else if (result.statusCode === 503) logger.warn('dependency unavailable', { path: request.event.rawPath });
    request.response = result;
  },
});

/**
 * Builds an API Gateway handler for a declared operation: error envelope, authentication with
 * the operation's scope and mode, then input parsing with its schemas, then the use case (at
 * most once per Idempotency-Key on POST, through `runOnce`; its audit record, as the operation
 * declares it, in the transaction of its change: shared/http/audit.ts). Every `/v1` handler is `apiHandler`
 * (a keyed operation, its POSTs idempotent) or `publicApiHandler` (no key, so its bundle carries
 * no key store and no DynamoDB client) over this function, so each cross-cutting rule lives here
 * once. A handler built without what its operation needs (a key check, idempotency on POST)
 * fails at its cold start, never silently without it.
 */
export function operationHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
  edge: { authenticate?: Authenticate; runOnce?: RunOnce; runAudited?: RunAudited },
) {
  const { auth } = operation;
  const { authenticate, runOnce, runAudited } = edge;
  if (isAudited(operation.audit) && !runAudited) throw new Error(`${operation.method} ${operation.path} records ${operation.audit.action}, which only apiHandler records`);
  if (operation.method === 'POST' && !runOnce) throw new Error(`POST ${operation.path} takes an Idempotency-Key, which only apiHandler gives (a keyed operation; a public POST has no key to tie it to)`);
  if (auth !== 'public' && !authenticate) throw new Error(`${operation.method} ${operation.path} takes an API key: build its handler with apiHandler`);
  if (auth === 'public' && authenticate) throw new Error(`${operation.method} ${operation.path} is public: build its handler with publicApiHandler, without a key store`);
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(observeRequests())
    .use(errorEnvelope())
    .handler(async (event, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis();
      const principal = auth === 'public' ? undefined : await authenticate!(event, auth);
      // Who asked, on the request line: ids only, never the token.
      if (principal) logger.appendKeys({ orgId: principal.orgId, keyId: principal.actor.id });
      const execute = async () => {
        const path = parseWith(operation.params, event.pathParameters ?? {}, 'path');
        const query = parseWith(operation.query, event.queryStringParameters ?? {}, 'query');
        const body = operation.body ? parseWith(operation.body, parseJsonBody(event.body, event.isBase64Encoded), 'body') : undefined;
        const work = () =>
          run({
            principal: principal as Principal,
            path,
            query,
            body: body as z.infer<B>,
            urls: urlsFor(event),
            headers: event.headers ?? {},
            cookies: cookiesOf(event),
            deadline,
          });
        // A writing operation's audit record rides the transaction of its change.
        return toResult(await (runAudited ? runAudited(operation, event, principal as Principal, work) : work()));
      };
      return runWithDeadline(deadline, () => (runOnce ? runOnce(principal, event, execute) : execute()));
    });
}

/** A public operation's handler (no API key): its bundle has no key store and no DynamoDB client. */
export function publicApiHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
) {
  return operationHandler(operation, run, {});
}
