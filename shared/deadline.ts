import { AsyncLocalStorage } from 'node:async_hooks';

const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `work` knowing when its invocation ends (epoch ms: the function's timeout), so that what
 * retries deep inside it (transaction conflicts, shared/db/conditional.ts) stops in time to
 * answer. Set by the request handlers once for every route.
 */
export function runWithDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return deadlines.run(deadline, work);
}

/** When the current invocation ends; Infinity outside a request (jobs, streams, ops). */
export function invocationDeadline(): number {
  return deadlines.getStore() ?? Infinity;
}
