import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from '../zod';
import { Authenticator } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { ANY_KEY, type ApiOperation, type Auth } from '../api/operation';
import { loadConfig, type PublicUrls } from '../config';
import { documentClient } from '../db/client';
import { NotFoundError } from '../errors';
import { createKeyStore } from '../db/directory-lookups';
import { toErrorResponse } from './error-envelope';
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

/** The process's authenticator (its key cache lives as long as the environment), created on first use. */
let authenticator: Authenticator | undefined;

/**
 * Runs a POST's use case at most once per Idempotency-Key. Given by `idempotentApiHandler`
 * (shared/http/idempotent-api.ts), so a read's bundle carries none of it.
 */
export type RunOnce = (principal: Principal | undefined, event: ApiEvent, execute: () => Promise<ApiResult>) => Promise<ApiResult>;

/** Every error leaves as the one envelope; 5xx are logged with their cause, nothing else is. */
export const errorEnvelope = (): MiddlewareObj<ApiEvent, ApiResult> => ({
  onError: async (request) => {
    const { status, envelope, retryAfterSeconds } = toErrorResponse(request.error, urlsFor(request.event).docs);
    if (status === 500) logger.error('request failed', { error: request.error as Error, path: request.event.rawPath });
    else if (status === 503) logger.warn('dependency unavailable', { path: request.event.rawPath });
    request.response = {
      statusCode: status,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {}),
      },
      body: JSON.stringify(envelope),
    };
  },
});

/**
 * Builds an API Gateway handler for a declared operation: error envelope, authentication with
 * the operation's scope and mode, then input parsing with its schemas, then the use case (at
 * most once per Idempotency-Key on POST, through `runOnce`). Every `/v1` handler is one call to
 * this function or `idempotentApiHandler`, so each cross-cutting rule lives here once; a POST
 * built without `runOnce` fails at its cold start, never silently without idempotency.
 */
export function apiHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
  runOnce?: RunOnce,
) {
  const { auth } = operation;
  if (operation.method === 'POST' && !runOnce) throw new Error(`POST ${operation.path} takes an Idempotency-Key: build its handler with idempotentApiHandler`);
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(observeRequests())
    .use(errorEnvelope())
    .handler(async (event, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis();
      const principal = auth === 'public' ? undefined : await authenticate(event, auth);
      // Who asked, on the request line: ids only, never the token.
      if (principal) logger.appendKeys({ orgId: principal.orgId, keyId: principal.keyId });
      const execute = async () => {
        const path = parseWith(operation.params, event.pathParameters ?? {}, 'path');
        const query = parseWith(operation.query, event.queryStringParameters ?? {}, 'query');
        const body = operation.body ? parseWith(operation.body, parseJsonBody(event.body, event.isBase64Encoded), 'body') : undefined;
        const response = await run({
          principal: principal as Principal,
          path,
          query,
          body: body as z.infer<B>,
          urls: urlsFor(event),
          headers: event.headers ?? {},
          cookies: cookiesOf(event),
          deadline,
        });
        return toResult(response);
      };
      return runOnce ? runOnce(principal, event, execute) : execute();
    });
}

/** The caller's key, with the operation's scope; a key of the other mode finds no such route (404). */
async function authenticate(event: ApiEvent, auth: Exclude<Auth, 'public'>): Promise<Principal> {
  authenticator ??= new Authenticator(createKeyStore(documentClient(), loadConfig().tableName));
  const principal = await authenticator.authenticate(event.headers?.authorization, auth.scope === ANY_KEY ? undefined : auth.scope);
  if (auth.mode && principal.mode !== auth.mode) throw new NotFoundError(auth.mode === 'test' ? 'No such route' : undefined);
  return principal;
}
