import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DIMENSION, METRIC } from './catalog';
import { logger } from './logger';
import { countMetric, metrics } from './metrics';

/** What every invocation gets: the Lambda context on each log line (request id, cold start, function), its keys dropped after it, metrics flushed. */
const invocation = (): MiddlewareObj[] => {
  const end = () => {
    metrics.publishStoredMetrics();
    logger.resetKeys();
  };
  return [{ before: (request) => logger.startInvocation(request.context as Context), after: end, onError: end }];
};

type HttpRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

const startedAt = new WeakMap<object, number>();

/**
 * The request id on the answer (`Request-Id`): the id of the function's log lines, so a client
 * quoting it leads to them. An answer is always there by now: the handler's, or the error's.
 */
function answerWithRequestId(request: HttpRequest): void {
  const id = request.event.requestContext?.requestId;
  if (!id || !request.response) return;
  request.response = { ...request.response, headers: { ...request.response.headers, 'request-id': id } };
}

function finishRequest(request: HttpRequest): void {
  answerWithRequestId(request);
  logRequest(request);
}

function logRequest(request: HttpRequest): void {
  const route = request.event.routeKey;
  const status = request.response?.statusCode ?? 500;
  logger.info('request', { route, status, latencyMs: Date.now() - (startedAt.get(request.event) ?? Date.now()) });
  if (status >= 500) countMetric(METRIC.serverErrors, { name: DIMENSION.route, value: route });
  else if (status >= 400) countMetric(METRIC.clientErrors, { name: DIMENSION.route, value: route });
}

/**
 * The first middlewares of every HTTP function (API and pages): the API Gateway request id as
 * correlation id, which joins a function's lines with the stage's access log and is sent back
 * as `Request-Id`; then one `request` line per request (route, status, latency, plus the keys
 * the handler appended) and the 4xx/5xx count by route. Registered before the error
 * middleware, so its `onError` runs after the error has become a response.
 */
export function observeRequests(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>[] {
  return [
    ...(invocation() as MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>[]),
    {
      before: (request) => {
        startedAt.set(request.event, Date.now());
        logger.setCorrelationId(request.event.requestContext?.requestId);
      },
      after: finishRequest,
      onError: finishRequest,
    },
  ];
}

/** A function outside the API (stream, queue, schedule, feeds) with the Lambda context on its log lines and its metrics flushed. */
export function observed<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy<E, R, Error, Context>(handler).use(invocation() as MiddlewareObj<E, R, Error, Context>[]);
}
