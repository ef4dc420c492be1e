import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { logger } from '../../../shared/observability/logger';
import { NO_FAULTS, type Faults } from '../faults';

/** One function as Lambda would run it: its bundle, handler, memory, timeout and environment. */
export interface FunctionSpec {
  logicalId: string;
  name: string;
  arn: string;
  codeDir: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** The whole environment of an execution environment, computed when the first one starts. */
  environment(): Record<string, string>;
}

export type InvocationType = 'RequestResponse' | 'Event';

/** A function error as Lambda reports it (X-Amz-Function-Error), or the result. */
export type InvokeOutcome =
  | { ok: true; result: unknown }
  | { ok: false; errorType: string; errorMessage: string };

interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the bundle is imported; rejects with the init error. */
  ready: Promise<void>;
  /** Killed or exited: never handed out again. */
  dead: boolean;
  idleTimer?: NodeJS.Timeout;
  onExit?: () => void;
}

export interface PoolOptions {
  /** Execution environments of one function at the same time; invocations beyond wait. */
  maxWorkers: number;
  /** Where the environments' stdout and stderr go, appended (the function's log group); by default this process's own. */
  logFile?: string;
  /** `lambda.kill` and `lambda.timeout` (FAULTS): an environment killed, or stopped until its timeout, mid-invocation. */
  faults?: Faults;
}

/**
 * How far into an invocation an injected fault lands: early enough to find most invocations
 * still running (a checkout's takes tens of milliseconds here), anywhere in its first 50 ms.
 */
export const faultDelayMs = (faults: Faults) => Math.floor(faults.draw() * 50);

/** An idle environment is shut down after this long, as Lambda reclaims idle ones. */
const IDLE_MS = 10 * 60_000;

export interface FunctionPoolStats {
  /** Process ids of the environments alive now. */
  pids: number[];
  /** Environments started so far (cold starts). */
  started: number;
  /** The invocations running now. */
  running: number;
  /** The most invocations that ran at the same time. */
  peakConcurrent: number;
  /** The longest an invocation ran (init excluded, as Lambda's timeout excludes it), in ms. */
  slowestMs: number;
  /** Invocations so far, their durations as Lambda bills them (each rounded up to the millisecond) and their CPU time, in ms. */
  invocations: number;
  billedMs: number;
  cpuMs: number;
  /** The inits so far: their time and CPU time, in ms. */
  initMs: number;
  initCpuMs: number;
  /**
   * The invocations' outgoing requests, to AWS and to other hosts (a webhook's POST): the sum of
   * their durations, and the time at least one of the kind was in flight, in ms (artifact mode;
   * runtime.mjs).
   */
  awsRequestSumMs: number;
  awsRequestBusyMs: number;
  otherRequestSumMs: number;
  otherRequestBusyMs: number;
  /** The function's memory (MemorySize). */
  memoryMb: number;
}

/** What a pool counts of its invocations and inits (FunctionPoolStats). */
export const newUsageStats = () => ({ invocations: 0, billedMs: 0, cpuMs: 0, initMs: 0, initCpuMs: 0, awsRequestSumMs: 0, awsRequestBusyMs: 0, otherRequestSumMs: 0, otherRequestBusyMs: 0 });

const RUNTIME = join(__dirname, 'runtime.mjs');

/** What runtime.mjs answers an invocation with: its result or error, its CPU time and its outgoing requests' times. */
interface RuntimeMessage {
  type: string;
  id?: string;
  payload?: string;
  cpuMs?: number;
  outgoing?: Record<'aws' | 'other', { sumMs: number; busyMs: number }>;
  error?: { errorType: string; errorMessage: string };
}

export const failure = (errorType: string, errorMessage: string): InvokeOutcome => ({ ok: false, errorType, errorMessage });

/** Lambda's refusal of a payload over its invocation type's limit, before any environment is taken. */
export function oversizedPayload(payload: string, type: InvocationType): InvokeOutcome | undefined {
  const limit = type === 'Event' ? AWS_LIMITS.lambda.asyncPayloadBytes : AWS_LIMITS.lambda.syncPayloadBytes;
  return Buffer.byteLength(payload) > limit ? failure('RequestEntityTooLargeException', `Request must be smaller than ${limit} bytes for the ${type} invocation type`) : undefined;
}

/** Lambda's refusal of a result over the synchronous payload limit. */
export function oversizedResult(payload: string): InvokeOutcome | undefined {
  const limit = AWS_LIMITS.lambda.syncPayloadBytes;
  return Buffer.byteLength(payload) > limit ? failure('Function.ResponseSizeTooLarge', `Response payload size exceeded maximum allowed payload size (${limit} bytes).`) : undefined;
}

/** The message of Lambda's timeout of an invocation. */
export const timedOut = (requestId: string, timeoutSeconds: number): InvokeOutcome =>
  failure('Sandbox.Timedout', `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`);

/** A function's execution environments, whatever runs them: what routes, schedules and mappings invoke. */
export interface FunctionPool {
  spec: FunctionSpec;
  /** One invocation; never throws: a refused or failed invocation is an outcome, as Lambda reports it. */
  invoke(event: unknown, type?: InvocationType): Promise<InvokeOutcome>;
  stats(): FunctionPoolStats;
  stop(): Promise<void>;
}

/**
 * A function's execution environments: each a `node` process running runtime.mjs, which
 * imports the bundle once and runs one invocation at a time. An invocation takes an idle
 * environment, or starts a new one (a cold start) up to `maxWorkers`, or waits for one. Past
 * its timeout the environment is killed and the invocation fails as Lambda's
 * `Sandbox.Timedout`; an environment that exits mid-invocation fails it as `Runtime.ExitError`.
 */
export function createFunctionPool(spec: FunctionSpec, options: PoolOptions): FunctionPool {
  const live = new Set<WorkerProcess>();
  const idle: WorkerProcess[] = [];
  /** Invocations waiting for an environment; `undefined` when the pool stops first. */
  const waiting: ((worker: WorkerProcess | undefined) => void)[] = [];
  let started = 0;
  let running = 0;
  let peakConcurrent = 0;
  let slowestMs = 0;
  let stopped = false;
  const usage = newUsageStats();

  function start(): WorkerProcess {
    started++;
    const forkedAt = Date.now();
    const output = options.logFile ? openSync(options.logFile, 'a') : 'inherit';
    const child = fork(RUNTIME, [], {
      cwd: spec.codeDir,
      env: spec.environment(),
      // V8 sizes its heap from the memory Lambda gives the environment; here, from MemorySize.
      execArgv: [`--max-old-space-size=${spec.memoryMb}`],
      stdio: ['ignore', output, output, 'ipc'],
    });
    // The environment holds its own copy of the descriptor.
    if (typeof output === 'number') closeSync(output);
    const worker: WorkerProcess = {
      child,
      dead: false,
      ready: new Promise<void>((resolve, reject) => {
        const onMessage = (message: { type: string; initCpuMs?: number; error?: { errorType: string; errorMessage: string } }) => {
          if (message.type !== 'ready' && message.type !== 'init-error') return;
          child.off('message', onMessage);
          usage.initMs += Date.now() - forkedAt;
          usage.initCpuMs += message.initCpuMs ?? 0;
          if (message.type === 'ready') resolve();
          else reject(Object.assign(new Error(message.error!.errorMessage), { name: message.error!.errorType }));
        };
        child.on('message', onMessage);
        child.once('exit', (code) => reject(Object.assign(new Error(`Runtime exited with error: exit status ${code}`), { name: 'Runtime.ExitError' })));
      }),
    };
    worker.ready.catch(() => undefined);
    child.once('exit', () => {
      worker.dead = true;
      live.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      clearTimeout(worker.idleTimer);
      worker.onExit?.();
    });
    live.add(worker);
    return worker;
  }

  /** Its slot is free at once; the process may take a moment to go. */
  function kill(worker: WorkerProcess) {
    worker.dead = true;
    live.delete(worker);
    worker.child.kill('SIGKILL');
  }

  function acquire(): Promise<WorkerProcess | undefined> {
    const reused = idle.pop();
    if (reused) {
      clearTimeout(reused.idleTimer);
      return Promise.resolve(reused);
    }
    if (live.size < options.maxWorkers) return Promise.resolve(start());
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(worker: WorkerProcess) {
    if (worker.dead) {
      // A waiting invocation gets a new environment instead.
      if (waiting.length > 0 && !stopped) waiting.shift()!(start());
      return;
    }
    const next = waiting.shift();
    if (next) return next(worker);
    idle.push(worker);
    worker.idleTimer = setTimeout(() => kill(worker), IDLE_MS);
    worker.idleTimer.unref();
  }

  async function initialize(worker: WorkerProcess): Promise<InvokeOutcome | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const initTimeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`Init phase exceeded ${AWS_LIMITS.lambda.initTimeoutMs} ms`), { name: 'Runtime.InitTimeout' })),
        AWS_LIMITS.lambda.initTimeoutMs,
      );
    });
    try {
      await Promise.race([worker.ready, initTimeout]);
      return undefined;
    } catch (error) {
      kill(worker);
      logger.error('artifact mode: function init failed', { function: spec.name, error: (error as Error).message });
      return failure((error as Error).name, (error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  function run(worker: WorkerProcess, payload: string, requestId: string): Promise<InvokeOutcome> {
    const timeoutMs = spec.timeoutSeconds * 1000;
    return new Promise<InvokeOutcome>((resolve) => {
      const id = randomUUID();
      const startedAt = Date.now();
      const finish = (outcome: InvokeOutcome, cpuMs = 0, outgoing?: RuntimeMessage['outgoing']) => {
        slowestMs = Math.max(slowestMs, Date.now() - startedAt);
        usage.invocations++;
        usage.billedMs += Math.max(1, Math.ceil(Date.now() - startedAt));
        usage.cpuMs += cpuMs;
        usage.awsRequestSumMs += outgoing?.aws.sumMs ?? 0;
        usage.awsRequestBusyMs += outgoing?.aws.busyMs ?? 0;
        usage.otherRequestSumMs += outgoing?.other.sumMs ?? 0;
        usage.otherRequestBusyMs += outgoing?.other.busyMs ?? 0;
        clearTimeout(timer);
        worker.child.off('message', onMessage);
        worker.onExit = undefined;
        resolve(outcome);
      };
      const onMessage = (message: RuntimeMessage) => {
        if (message.id !== id) return;
        if (message.type === 'error') return finish(failure(message.error!.errorType, message.error!.errorMessage), message.cpuMs, message.outgoing);
        finish(oversizedResult(message.payload!) ?? { ok: true, result: JSON.parse(message.payload!) }, message.cpuMs, message.outgoing);
      };
      const timer = setTimeout(() => {
        logger.error('artifact mode: invocation timed out; environment killed', { function: spec.name, requestId, timeoutSeconds: spec.timeoutSeconds });
        kill(worker);
        finish(timedOut(requestId, spec.timeoutSeconds));
      }, timeoutMs);
      const exited = () => finish(failure('Runtime.ExitError', `RequestId: ${requestId} Error: Runtime exited without providing a reason`));
      worker.onExit = exited;
      // A fault: the environment dies mid-invocation, or stops making progress until its timeout kills it.
      const faults = options.faults ?? NO_FAULTS;
      const fault = faults.strikes('lambda.kill', spec.name) ? 'SIGKILL' : faults.strikes('lambda.timeout', spec.name) ? 'SIGSTOP' : undefined;
      if (fault) setTimeout(() => !worker.dead && worker.child.kill(fault), faultDelayMs(faults));
      worker.child.on('message', onMessage);
      // An environment that died meanwhile (the stack stopping) is an exit, as Lambda reports it, never an EPIPE thrown at the caller.
      worker.child.send({ type: 'invoke', id, requestId, payload, deadline: Date.now() + timeoutMs, functionArn: spec.arn }, (error) => error && exited());
    });
  }

  return {
    spec,
    async invoke(event, type = 'RequestResponse') {
      const payload = JSON.stringify(event);
      const refused = oversizedPayload(payload, type);
      if (refused) return refused;
      const worker = stopped ? undefined : await acquire();
      if (!worker) return failure('ServiceException', 'The local stack is stopping');
      running++;
      peakConcurrent = Math.max(peakConcurrent, running);
      try {
        return (await initialize(worker)) ?? (await run(worker, payload, randomUUID()));
      } finally {
        running--;
        release(worker);
      }
    },
    stats() {
      return { pids: [...live].map((worker) => worker.child.pid!), started, running, peakConcurrent, slowestMs, ...usage, memoryMb: spec.memoryMb };
    },
    async stop() {
      stopped = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
      const workers = [...live];
      const exits = workers.map((worker) => new Promise<void>((done) => worker.child.once('exit', () => done())));
      for (const worker of workers) kill(worker);
      await Promise.all(exits);
    },
  };
}
