import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ROUTE_TIMEOUT_SECONDS } from '../../shared/api/operation';
import { failure, faultDelayMs, newUsageStats, oversizedPayload, oversizedResult, timedOut, type FunctionPool, type FunctionSpec, type InvokeOutcome } from './aws/workers';
import { NO_FAULTS, type Faults } from './faults';

/** The Lambda context of one invocation: `getRemainingTimeInMillis` counts down from `timeoutMs`; ARN and memory are the function's (`spec`) when given. */
export function lambdaContext(name: string, timeoutMs = ROUTE_TIMEOUT_SECONDS * 1000, spec?: Pick<FunctionSpec, 'arn' | 'memoryMb'>): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: spec?.arn ?? `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: String(spec?.memoryMb ?? 1024),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

/** The in-process invocation a call belongs to: its function and deadline. */
const invocations = new AsyncLocalStorage<{ functionName: string; deadline: number }>();

/** The function whose in-process invocation runs the calling code (none outside one). */
export const invokedFunction = (): string | undefined => invocations.getStore()?.functionName;

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
 * environment; the others wait for one before they start, so their timeout does not run while
 * they wait.
 */
export function createConcurrencyLimit(max: number) {
  let running = 0;
  let closed = false;
  const waiting: ((taken: boolean) => void)[] = [];
  return {
    /** True once an environment is this invocation's; false when the limit closed first. */
    async take(): Promise<boolean> {
      if (closed) return false;
      if (running < max) {
        running++;
        return true;
      }
      return new Promise<boolean>((resolve) => waiting.push(resolve));
    },
    /** Hands the environment to the next waiting invocation, or frees it. */
    release(): void {
      const next = waiting.shift();
      if (next) next(true);
      else running--;
    },
    /** The stack stops: the waiting invocations never start. */
    close(): void {
      closed = true;
      for (const next of waiting.splice(0)) next(false);
    },
  };
}

/** A handler module's export, as Lambda calls it with any event. */
export type ModuleHandler = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Source mode's execution environments of one function: its handler module, imported in this
 * process at the first invocation (the init phase), run as Lambda runs the bundle. At most
 * `maxWorkers` invocations at once, the others waiting; the event and the result cross as JSON
 * within Lambda's payload limits; past its timeout an invocation fails as `Sandbox.Timedout`,
 * and the table refuses its later calls (`refuseCallsPastDeadline`), since code in this process
 * cannot be killed. The faults `lambda.kill` and `lambda.timeout` end an invocation the same way
 * partway (its table calls refused from then on; its other calls, to SQS, EventBridge or Adyen,
 * cannot be stopped): as `Runtime.ExitError` at once, or as `Sandbox.Timedout` at its timeout.
 */
export function createModulePool(spec: FunctionSpec, load: () => Promise<ModuleHandler>, options: { maxWorkers: number; faults?: Faults }): FunctionPool {
  const environments = createConcurrencyLimit(options.maxWorkers);
  let handler: Promise<ModuleHandler> | undefined;
  let started = 0;
  let running = 0;
  let peakConcurrent = 0;
  let slowestMs = 0;
  let stopped = false;
  // In this one process an invocation's CPU is not its own: only durations are counted.
  const usage = newUsageStats();

  function initialize(): Promise<ModuleHandler> {
    if (!handler) {
      started++;
      handler = load();
      // A failed init is tried again by the next invocation, as Lambda starts a new environment.
      handler.catch(() => (handler = undefined));
    }
    return handler;
  }

  async function run(run: ModuleHandler, payload: string): Promise<InvokeOutcome> {
    const context = lambdaContext(spec.name, spec.timeoutSeconds * 1000, spec);
    const startedAt = Date.now();
    const invocation = { functionName: spec.name, deadline: startedAt + spec.timeoutSeconds * 1000 };
    let timer: NodeJS.Timeout | undefined;
    let faultTimer: NodeJS.Timeout | undefined;
    const killed = new Promise<InvokeOutcome>((resolve) => {
      timer = setTimeout(() => resolve(timedOut(context.awsRequestId, spec.timeoutSeconds)), spec.timeoutSeconds * 1000);
      const faults = options.faults ?? NO_FAULTS;
      const fault = faults.strikes('lambda.kill', spec.name) ? 'kill' : faults.strikes('lambda.timeout', spec.name) ? 'timeout' : undefined;
      if (!fault) return;
      faultTimer = setTimeout(() => {
        // From now on the invocation reaches the table no more; killed, it ends at once, stopped, at its timeout.
        invocation.deadline = Date.now();
        if (fault === 'kill') resolve(failure('Runtime.ExitError', `RequestId: ${context.awsRequestId} Error: Runtime exited without providing a reason`));
      }, faultDelayMs(faults));
    });
    const answered = invocations.run(invocation, () => run(JSON.parse(payload), context)).then(
      (result): InvokeOutcome => {
        const body = JSON.stringify(result ?? null);
        return oversizedResult(body) ?? { ok: true, result: JSON.parse(body) };
      },
      (error: Error): InvokeOutcome => failure(error?.name ?? 'Error', error?.message ?? String(error)),
    );
    try {
      // An answer that comes after the fault landed is never seen, as from a killed or stopped environment.
      const faulted = () => invocation.deadline < startedAt + spec.timeoutSeconds * 1000;
      return await Promise.race([answered.then((outcome) => (faulted() ? killed : outcome)), killed]);
    } finally {
      clearTimeout(timer);
      clearTimeout(faultTimer);
      slowestMs = Math.max(slowestMs, Date.now() - startedAt);
      usage.invocations++;
      usage.billedMs += Math.max(1, Math.ceil(Date.now() - startedAt));
    }
  }

  return {
    spec,
    async invoke(event, type = 'RequestResponse') {
      const payload = JSON.stringify(event);
      const refused = oversizedPayload(payload, type);
      if (refused) return refused;
      if (stopped || !(await environments.take()) || stopped) return failure('ServiceException', 'The local stack is stopping');
      running++;
      peakConcurrent = Math.max(peakConcurrent, running);
      try {
        const loaded = await initialize().catch((error: Error) => failure(error?.name ?? 'Runtime.ImportModuleError', error?.message ?? String(error)));
        return typeof loaded === 'function' ? await run(loaded, payload) : loaded;
      } finally {
        running--;
        environments.release();
      }
    },
    stats: () => ({ pids: handler ? [process.pid] : [], started, running, peakConcurrent, slowestMs, ...usage, memoryMb: spec.memoryMb }),
    async stop() {
      stopped = true;
      environments.close();
    },
  };
}
