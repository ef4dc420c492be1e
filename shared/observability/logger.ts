import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './catalog';

const THRESHOLDS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 } as const;
type Level = Exclude<keyof typeof THRESHOLDS, 'SILENT'>;
type Attributes = Record<string, unknown>;

/** Whether the next invocation is this environment's first: only on-demand environments start cold on an invocation. */
let coldStart = process.env.AWS_LAMBDA_INITIALIZATION_TYPE === 'on-demand';

/** The X-Ray trace id of the current invocation: Lambda's invoke store first (several invocations per process), then its variable. */
function xrayTraceId(): string | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda?.InvokeStore;
  return /Root=([^;]+)/.exec(store?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID ?? '')?.[1];
}

/** The first file:line of a stack, as CloudWatch readers of the log know it (`location`). */
function locationOf(stack: string | undefined): string {
  const frame = /\(([^()]*?):(\d+):\d+\)$/m.exec(stack ?? '');
  return frame ? `${frame[1]}:${frame[2]}` : '';
}

function errorFields(error: Error): Attributes {
  const { name, message, stack, cause, ...own } = error as Error & Attributes;
  return { name, location: locationOf(stack), message, stack, cause: cause instanceof Error ? errorFields(cause) : cause, ...own };
}

/** Errors as fields, bigints as strings, a value seen twice on one path (a cycle) left out: a log line never throws. */
function replacer() {
  const seen = new WeakSet<object>();
  return (_key: string, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) return errorFields(value);
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  };
}

/**
 * JSON lines in the shape Powertools for AWS Lambda writes them (level, message, timestamp,
 * service, the Lambda context, `xray_trace_id`, then the invocation's keys and the entry's own),
 * which the runbooks' Logs Insights queries read (docs/operations.md). Hand-written because a
 * function needs only this much of it: it costs ~2 KB of a bundle, Powertools ~30 KB and its
 * load time (docs/decisions.md 27). DEBUG and INFO go to stdout, WARN and ERROR to stderr, as
 * Node's console does; empty values (undefined, null, '') are left out of the top level.
 */
export class Logger {
  private readonly threshold: number;
  private context: Attributes = {};
  private keys: Attributes = {};

  constructor(level: string | undefined) {
    this.threshold = THRESHOLDS[(level?.toUpperCase() ?? 'WARN') as keyof typeof THRESHOLDS] ?? THRESHOLDS.WARN;
  }

  /** Starts an invocation: its Lambda context on every line. */
  startInvocation(context: Pick<Context, 'invokedFunctionArn' | 'memoryLimitInMB' | 'functionName' | 'awsRequestId'>): void {
    this.context = {
      cold_start: coldStart,
      function_arn: context.invokedFunctionArn,
      function_memory_size: context.memoryLimitInMB,
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
    };
    coldStart = false;
  }

  /** Ends an invocation's keys (the Lambda context stays, as on Lambda until the next one). */
  resetKeys(): void {
    this.keys = {};
  }

  /** Keys on every later line of this invocation (an organization once its key is known). */
  appendKeys(keys: Attributes): void {
    Object.assign(this.keys, keys);
  }

  /** The API Gateway request id, which joins a function's lines with the stage's access log. */
  setCorrelationId(id: string | undefined): void {
    this.appendKeys({ correlation_id: id });
  }

  debug(message: string, attributes?: Attributes): void {
    this.write('DEBUG', message, attributes);
  }

  info(message: string, attributes?: Attributes): void {
    this.write('INFO', message, attributes);
  }

  warn(message: string, attributes?: Attributes): void {
    this.write('WARN', message, attributes);
  }

  error(message: string, attributes?: Attributes): void {
    this.write('ERROR', message, attributes);
  }

  private write(level: Level, message: string, attributes: Attributes = {}): void {
    if (THRESHOLDS[level] < this.threshold) return;
    const entry: Attributes = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: SERVICE_NAME,
      ...this.context,
      sampling_rate: 0,
      xray_trace_id: xrayTraceId(),
      ...this.keys,
      ...attributes,
    };
    for (const key of Object.keys(entry)) if (entry[key] === undefined || entry[key] === null || entry[key] === '') delete entry[key];
    const line = `${JSON.stringify(entry, replacer())}\n`;
    if (THRESHOLDS[level] >= THRESHOLDS.WARN) process.stderr.write(line);
    else process.stdout.write(line);
  }
}

/**
 * One structured logger per process; handlers append keys, never payloads or tokens. The stack
 * sets LOG_LEVEL (INFO in AWS); locally the default WARN keeps `npm start` and tests quiet.
 */
export const logger = new Logger(process.env.LOG_LEVEL);
