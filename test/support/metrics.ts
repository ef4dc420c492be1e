import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_STAGE, stageNamed } from '../../lib/stages';
import type { TestStack } from './stack';

/** One EMF document (CloudWatch's embedded metric format) as a function writes it. */
export type EmfDocument = Record<string, unknown> & { _aws: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] } };

const documentsIn = (text: string): EmfDocument[] =>
  text
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as EmfDocument);

/** A function of the template: the one serving a route (`POST /acquirer/adyen/notifications`), or the one whose name holds `named`. */
export type FunctionOfStack = string | { named: string };

function functionName(stack: TestStack, of: FunctionOfStack): string {
  if (typeof of === 'string') return stack.aws.functionOfRoute(of);
  const name = Object.keys(stack.aws.stats()).find((candidate) => candidate.includes(of.named));
  if (!name) throw new Error(`The template has no function named like ${of.named}`);
  return name;
}

/** Polls every 20 ms, for at most 10 s, until `done`. */
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !done() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The metric documents one function writes while `act` runs and until the invocations it set
 * going end: a function's metrics are flushed at the end of its invocation, after the writes
 * that `act` may wait for (shared/observability/metrics.ts). In source mode the lines this
 * process writes (metrics turned on meanwhile: the stack keeps them off in this process), in
 * artifact mode the new lines of the function's log file (the stack needs LAMBDA_LOG_DIR), which
 * a worker's output reaches a moment after its invocation ends.
 */
export async function metricsWhile(stack: TestStack, of: FunctionOfStack, act: () => Promise<unknown>): Promise<EmfDocument[]> {
  const name = functionName(stack, of);
  const idle = () => until(() => stack.aws.stats()[name].running === 0);
  if (stack.mode === 'artifacts') {
    if (!stack.logDir) throw new Error('Reading metrics in artifact mode needs LAMBDA_LOG_DIR');
    const file = join(stack.logDir, `${name}.log`);
    const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    const before = read().length;
    await act();
    await idle();
    // The log is whole once it stops growing (two polls alike).
    let seen = -1;
    await until(() => {
      const length = read().length;
      const settled = length === seen;
      seen = length;
      return settled;
    });
    return documentsIn(read().slice(before));
  }
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const namespace = process.env.METRICS_NAMESPACE;
  const disabled = process.env.METRICS_DISABLED;
  process.env.METRICS_NAMESPACE = stageNamed(DEFAULT_STAGE).metricsNamespace;
  process.env.METRICS_DISABLED = 'false';
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    written.push(String(chunk));
    return String(chunk).includes('"_aws"') ? true : (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    await act();
    await idle();
  } finally {
    process.stdout.write = write;
    for (const [name, value] of [['METRICS_NAMESPACE', namespace], ['METRICS_DISABLED', disabled]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return documentsIn(written.join(''));
}

/** The sum of `metric` in the documents, where `dimension` (name, value) holds when given. */
export function sumOf(documents: EmfDocument[], metric: string, dimension?: [string, string]): number {
  return documents
    .filter((document) => metric in document && (!dimension || document[dimension[0]] === dimension[1]))
    .reduce((sum, document) => sum + [document[metric] as number | number[]].flat().reduce((a, b) => a + b, 0), 0);
}
