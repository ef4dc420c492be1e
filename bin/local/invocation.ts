import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ROUTE_TIMEOUT_SECONDS } from '../../shared/api/operation';
import { AWS_LIMITS } from '../../shared/aws-limits';
import type { ApiEvent, ApiResult } from '../../shared/http/response';
import { gatewayAnswer } from './artifacts/api-gateway';
import type { InvokeOutcome } from './artifacts/workers';
import type { RouteInvoker } from './functions';

/** A handler module's export, as Lambda calls it. */
export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** The Lambda context of one invocation: `getRemainingTimeInMillis` counts down from `timeoutMs`. */
export function lambdaContext(name: string, timeoutMs = ROUTE_TIMEOUT_SECONDS * 1000): Context {
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

/** The deadline of the in-process invocation a call belongs to. */
const invocations = new AsyncLocalStorage<{ deadline: number }>();

const guarded = new WeakSet<DynamoDBDocumentClient>();

/**
 * What Lambda's kill of a timed-out function means to the table: nothing the invocation does
 * after its timeout reaches it. Code in this process cannot be stopped, so each call it makes
 * past its deadline is refused just before it would be sent (each SDK retry too). A call sent
 * before may still commit, as in Lambda, where the idempotency mark covers it (decisions 16).
 */
export function refuseCallsPastDeadline(client: DynamoDBDocumentClient): void {
  if (guarded.has(client)) return;
  guarded.add(client);
  client.middlewareStack.add(
    (next) => async (args) => {
      const invocation = invocations.getStore();
      if (invocation && Date.now() >= invocation.deadline) {
        throw Object.assign(new Error('The invocation has timed out: a killed function sends nothing more'), { name: 'Sandbox.Timedout' });
      }
      return next(args);
    },
    { step: 'deserialize', name: 'refuseCallsPastDeadline', priority: 'low' },
  );
}

/** Execution environments per function at the same time, unless configured (`LAMBDA_MAX_WORKERS`): two per core, as more only add contention on one machine. */
export const defaultEnvironmentsPerFunction = () => Math.max(2, availableParallelism() * 2);

/**
 * How many invocations of one function run at once, as Lambda runs one per execution
 * environment; the others wait before they start, so their timeout does not run while they
 * wait. One that is still waiting when API Gateway has given up on it (`giveUpAt`) never starts.
 */
export function createConcurrencyLimit(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async take(giveUpAt: number): Promise<boolean> {
      if (running < max) {
        running++;
        return true;
      }
      let timer: NodeJS.Timeout | undefined;
      const taken = await new Promise<boolean>((resolve) => {
        const turn = () => resolve(true);
        waiting.push(turn);
        timer = setTimeout(() => {
          const at = waiting.indexOf(turn);
          // Not handed a turn yet: it leaves the queue, so no turn is ever given to it.
          if (at >= 0) {
            waiting.splice(at, 1);
            resolve(false);
          }
        }, Math.max(0, giveUpAt - Date.now()));
      });
      clearTimeout(timer);
      return taken;
    },
    /** Hands the environment to the next waiting invocation, or frees it. */
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else running--;
    },
  };
}

export type ConcurrencyLimit = ReturnType<typeof createConcurrencyLimit>;

/**
 * A handler of this process behind its route, as Lambda and API Gateway run it: it starts when
 * one of its function's environments is free (`environments`), its timeout counts from that
 * start, the context's remaining time counts down to it, and past it the route answers as for a
 * killed function (HTTP API's 500); no answer within the integration timeout, the wait
 * included, is API Gateway's 503. What the handler answers after that is dropped.
 */
export function inProcessRoute(handler: LambdaHandler, name: string, environments: ConcurrencyLimit, timeoutSeconds = ROUTE_TIMEOUT_SECONDS): RouteInvoker {
  const integrationTimeoutMs = AWS_LIMITS.apiGateway.integrationTimeoutMs;

  async function invoke(event: ApiEvent, giveUpAt: number): Promise<InvokeOutcome> {
    if (!(await environments.take(giveUpAt))) return { ok: false, errorType: 'TooManyRequestsException', errorMessage: 'No environment was free before the gateway gave up' };
    const timeoutMs = timeoutSeconds * 1000;
    const context = lambdaContext(name, timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<InvokeOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, errorType: 'Sandbox.Timedout', errorMessage: `RequestId: ${context.awsRequestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds` }),
        timeoutMs,
      );
    });
    const answered = invocations.run({ deadline: Date.now() + context.getRemainingTimeInMillis() }, () => handler(event, context)).then(
      (result): InvokeOutcome => ({ ok: true, result }),
      (error: Error): InvokeOutcome => ({ ok: false, errorType: error?.name ?? 'Error', errorMessage: error?.message ?? String(error) }),
    );
    try {
      return await Promise.race([answered, killed]);
    } finally {
      clearTimeout(timer);
      // Killed or done, the environment takes the next invocation.
      environments.release();
    }
  }

  return (event) => gatewayAnswer(invoke(event, Date.now() + integrationTimeoutMs), integrationTimeoutMs, { route: event.routeKey, function: name });
}
