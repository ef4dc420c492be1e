import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { ApiEvent, ApiResult } from '../http/response';
import { LIMITS } from '../limits';
import { logger } from '../observability/logger';

/** A function's handler module export, as Lambda calls it. */
export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** What the local API server calls for a route: API Gateway invoking the route's function, answer or failure. */
export type RouteInvoker = (event: ApiEvent) => Promise<ApiResult>;

/** HTTP API's own answers (its JSON, not the service's error envelope). */
export const HTTP_API_ANSWERS = {
  /** A function error, a function killed at its timeout included. */
  internalError: { statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' },
  /** No answer within the integration timeout. */
  timeout: { statusCode: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"Service Unavailable"}' },
  tooLarge: { statusCode: 413, headers: { 'content-type': 'application/json' }, body: '{"message":"Request Entity Too Large"}' },
} satisfies Record<string, ApiResult>;

/** A route the local API server serves: `handler` is what `loadHandler` takes. */
export interface ServedRoute {
  method: string;
  path: string;
  handler: string;
}

/**
 * Where the local stack's functions come from: the TypeScript sources (the default) or the
 * bundles of a `cdk synth` output (artifact mode). Either serves the API routes and runs the
 * background machinery (minute jobs, event publishing and webhook delivery) its own way.
 */
export interface LocalFunctions {
  routes: ServedRoute[];
  loadHandler(name: string): Promise<RouteInvoker>;
  /** The minute jobs and the event machinery, until `stop`. */
  startBackground(): Promise<void>;
  stop(): Promise<void>;
}

const ROUTE_TIMEOUT_MS = LIMITS.routeTimeoutSeconds * 1000;

/** A Lambda context whose remaining time counts down from the function's timeout, as Lambda's does. */
export function lambdaContext(name: string, timeoutMs = ROUTE_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

/**
 * A route's handler run in this process as API Gateway would see its function: the handler
 * gets the route's timeout, and an invocation that throws or outlives the timeout is HTTP
 * API's 500, as a failed or killed function is. A process cannot kill its own promise, so
 * the late work runs on unanswered where Lambda would have stopped it.
 */
export function inProcessRoute(name: string, handler: LambdaHandler, timeoutMs = ROUTE_TIMEOUT_MS): RouteInvoker {
  return async (event) => {
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)));
    try {
      const outcome = await Promise.race([handler(event, lambdaContext(name, timeoutMs)), killed]);
      if (outcome !== 'timed out') return outcome;
      logger.error('local: invocation timed out', { function: name, timeoutMs });
    } catch (error) {
      logger.error('local: invocation failed', { function: name, error });
    } finally {
      clearTimeout(timer);
    }
    return HTTP_API_ANSWERS.internalError;
  };
}
