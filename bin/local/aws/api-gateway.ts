import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import type { ApiEvent, ApiResult } from '../../../shared/http/response';
import { logger } from '../../../shared/observability/logger';
import { DEFAULT_ROUTE_KEY } from '../functions';
import type { AccessDecision } from './iam';
import type { LocalResources } from './resources';
import { resourcesOfType, type SynthesizedStack } from './template';
import type { FunctionSpec, InvokeOutcome } from './workers';

/** One route of the template's HTTP API and what API Gateway knows of it. */
export interface ApiRoute {
  /** `METHOD /path`, or `$default`. */
  key: string;
  /** The route's logical id: what the local server's loadHandler takes. */
  handler: string;
  spec: FunctionSpec;
  /** What API Gateway names itself as when it invokes the function (execute-api ARN). */
  sourceArn: string;
  timeoutMs: number;
  /** The route's throttle, as the stage sets it (its route settings, else its default route settings); none: unthrottled. */
  throttle?: TokenBucket;
}

/**
 * API Gateway's throttle of one route, a token bucket: it holds `burstLimit` requests at most
 * and refills at `rateLimit` a second; a request takes a token or is throttled.
 */
export function tokenBucket(limits: { rateLimit: number; burstLimit: number }, now: () => number = () => performance.now()) {
  let tokens = limits.burstLimit;
  let filledAt = now();
  return {
    limits,
    take(): boolean {
      const at = now();
      tokens = Math.min(limits.burstLimit, tokens + ((at - filledAt) / 1000) * limits.rateLimit);
      filledAt = at;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

export type TokenBucket = ReturnType<typeof tokenBucket>;

interface ThrottleSettings {
  ThrottlingRateLimit?: number;
  ThrottlingBurstLimit?: number;
}

/** A route's throttle from the stage's settings: its own route settings, else the stage's default ones; none when neither throttles. */
function throttleOf(key: string, stage: { DefaultRouteSettings?: ThrottleSettings; RouteSettings?: Record<string, ThrottleSettings> } | undefined): TokenBucket | undefined {
  const settings = stage?.RouteSettings?.[key] ?? stage?.DefaultRouteSettings;
  if (settings?.ThrottlingRateLimit === undefined || settings.ThrottlingBurstLimit === undefined) return undefined;
  return tokenBucket({ rateLimit: Number(settings.ThrottlingRateLimit), burstLimit: Number(settings.ThrottlingBurstLimit) });
}

/** HTTP API's own answers (its JSON, not the service's error envelope). */
const API_GATEWAY = {
  internalError: { statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' },
  timeout: { statusCode: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"Service Unavailable"}' },
  tooLarge: { statusCode: 413, headers: { 'content-type': 'application/json' }, body: '{"message":"Request Entity Too Large"}' },
  throttled: { statusCode: 429, headers: { 'content-type': 'application/json' }, body: '{"message":"Too Many Requests"}' },
} satisfies Record<string, ApiResult>;

/**
 * The template's HTTP API routes: RouteKey → Integration → function, Lambda proxy integrations
 * of payload format 2.0 only; `METHOD /path` routes and the `$default` route, each with its
 * throttle from the API's stage. API Gateway prefers a literal segment to a path parameter, and
 * the local server takes the first match: routes with fewer parameters come first.
 */
export function readRoutes(stack: SynthesizedStack, resources: LocalResources, functionByKey: (key: string) => FunctionSpec | undefined): ApiRoute[] {
  const { resolve, nameOf } = resources;
  const stages = resourcesOfType(stack, 'AWS::ApiGatewayV2::Stage');
  if (stages.length > 1) throw new Error('The local AWS serves one stage of the HTTP API; the template has more');
  const stage = stages[0]?.[1].Properties as Parameters<typeof throttleOf>[1];
  const integrations = new Map(resourcesOfType(stack, 'AWS::ApiGatewayV2::Integration').map(([logicalId, integration]) => [nameOf(logicalId), integration]));
  const parameters = (routeKey: unknown) => String(routeKey).split('{').length;
  return resourcesOfType(stack, 'AWS::ApiGatewayV2::Route')
    .sort(([, a], [, b]) => parameters(a.Properties?.RouteKey) - parameters(b.Properties?.RouteKey))
    .map(([logicalId, route]) => {
      const properties = route.Properties ?? {};
      const key = String(properties.RouteKey);
      const [method, path] = key.split(' ');
      if (key !== DEFAULT_ROUTE_KEY && (!path || method === 'ANY' || path.includes('+}'))) {
        throw new Error(`Route ${key} is not imitated locally (only METHOD /path routes and $default)`);
      }
      const integration = integrations.get(String(resolve(properties.Target)).replace(/^integrations\//, ''))?.Properties ?? {};
      if (integration.IntegrationType !== 'AWS_PROXY' || integration.PayloadFormatVersion !== '2.0') {
        throw new Error(`Route ${properties.RouteKey}: the local AWS serves Lambda proxy integrations of payload format 2.0`);
      }
      const spec = functionByKey(resolve(integration.IntegrationUri) as string);
      if (!spec) throw new Error(`Route ${properties.RouteKey} invokes no function of the stack`);
      return {
        key,
        handler: logicalId,
        spec,
        // What API Gateway names as the source of the invocation: stage, then method and path, or `$default`.
        sourceArn: `arn:aws:execute-api:${stack.region}:${stack.account}:${resolve(properties.ApiId)}/$default/${key === DEFAULT_ROUTE_KEY ? key : `${method}${path}`}`,
        timeoutMs: Math.min(Number(integration.TimeoutInMillis ?? AWS_LIMITS.apiGateway.integrationTimeoutMs), AWS_LIMITS.apiGateway.integrationTimeoutMs),
        throttle: throttleOf(key, stage),
      };
    });
}

/** The stage's access log: the line format and the log group its lines go to (AccessLogSettings). */
export interface AccessLog {
  format: string;
  logGroup: string;
}

/** The stage's access log settings, if the template sets them. */
export function readAccessLog(stack: SynthesizedStack, resources: LocalResources): AccessLog | undefined {
  const settings = resourcesOfType(stack, 'AWS::ApiGatewayV2::Stage')[0]?.[1].Properties?.AccessLogSettings as { Format?: string; DestinationArn?: unknown } | undefined;
  if (!settings?.Format) return undefined;
  const destination = String(resources.resolve(settings.DestinationArn));
  const logGroup = /:log-group:([^:]+)/.exec(destination)?.[1];
  if (!logGroup) throw new Error(`The stage's access log goes to ${destination}, not a log group's ARN: the local API Gateway writes only to log groups`);
  return { format: settings.Format, logGroup };
}

/**
 * The stage's access log as the local API Gateway keeps it: a file of `dir` named after its log
 * group (as a function's output is), written line by line; lines after `close` (a request still in
 * flight when the stack stops) are dropped, as a deleted log group would drop them.
 */
export function openAccessLog(accessLog: AccessLog | undefined, dir: string) {
  if (!accessLog) return undefined;
  let file: number | undefined = openSync(join(dir, `${accessLog.logGroup.replaceAll('/', '_')}.log`), 'a');
  return {
    write(context: AccessLogContext): void {
      if (file !== undefined) writeSync(file, `${accessLogLine(accessLog.format, context)}\n`);
    },
    close(): void {
      if (file !== undefined) closeSync(file);
      file = undefined;
    },
  };
}

interface AccessLogContext {
  requestId: string;
  routeKey: string;
  status: number;
  responseLatency: number;
}

/**
 * One access log line, as API Gateway writes it: each `$context.…` variable of the format with its
 * value, `-` for one without. A function's error message (`integrationErrorMessage`) is not
 * imitated: `-` there too, a few bytes under API Gateway's line for a failed invocation.
 */
export function accessLogLine(format: string, context: AccessLogContext): string {
  const values: Record<string, string> = { requestId: context.requestId, routeKey: context.routeKey, status: String(context.status), responseLatency: String(context.responseLatency) };
  return format.replace(/\$context\.([A-Za-z.]+)/g, (_match, name: string) => values[name] ?? '-');
}

/**
 * What HTTP API answers for one invocation behind a route, in both local modes: the function's
 * result; for a function error (a timeout kill included) its 500 `{"message":"Internal Server
 * Error"}`; when no answer comes within the integration timeout, its 503 `{"message":"Service
 * Unavailable"}` (docs/architecture.md).
 */
export async function gatewayAnswer(invocation: Promise<InvokeOutcome>, integrationTimeoutMs: number, about: { route: string; function: string }): Promise<ApiResult> {
  let timer: NodeJS.Timeout | undefined;
  const integrationTimeout = new Promise<'timeout'>((done) => (timer = setTimeout(() => done('timeout'), integrationTimeoutMs)));
  const outcome = await Promise.race([invocation, integrationTimeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') return API_GATEWAY.timeout;
  if (!outcome.ok) {
    logger.error('local stack: function error behind a route', { ...about, errorType: outcome.errorType, error: outcome.errorMessage });
    return API_GATEWAY.internalError;
  }
  return outcome.result as ApiResult;
}

/**
 * API Gateway's side of a route of the template: its throttle (429 `{"message":"Too Many
 * Requests"}` when its bucket is empty), the function's permission, the payload limit, then
 * `gatewayAnswer` with the route's integration timeout.
 */
export function routeHandler(
  route: ApiRoute,
  deps: { invoke(event: ApiEvent): Promise<InvokeOutcome>; mayInvoke(): AccessDecision; onAnswered?(event: ApiEvent, answer: ApiResult, latencyMs: number): void },
) {
  const answer = routeAnswer(route, deps);
  return async (event: ApiEvent): Promise<ApiResult> => {
    const startedAt = Date.now();
    const result = await answer(event);
    deps.onAnswered?.(event, result, Date.now() - startedAt);
    return result;
  };
}

function routeAnswer(route: ApiRoute, deps: { invoke(event: ApiEvent): Promise<InvokeOutcome>; mayInvoke(): AccessDecision }) {
  const name = route.key;
  return async (event: ApiEvent): Promise<ApiResult> => {
    if (route.throttle && !route.throttle.take()) return API_GATEWAY.throttled;
    if (!deps.mayInvoke().allowed) {
      logger.error('local AWS: API Gateway may not invoke the function (AWS::Lambda::Permission)', { route: name, function: route.spec.name });
      return API_GATEWAY.internalError;
    }
    if (Buffer.byteLength(event.body ?? '') > AWS_LIMITS.apiGateway.payloadBytes) return API_GATEWAY.tooLarge;
    return gatewayAnswer(deps.invoke(event), route.timeoutMs, { route: name, function: route.spec.name });
  };
}
