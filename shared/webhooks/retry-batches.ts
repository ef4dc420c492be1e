/** What one call of a batch API takes: at most `entries` items, together at most `bytes` as `sizeOf` counts them. */
export interface BatchLimits<T> {
  entries: number;
  bytes: number;
  sizeOf(item: T): number;
}

/**
 * Splits `items`, in order, into batches within `limits`. An item larger than `bytes` on its
 * own goes alone: the service refuses it, and only it.
 */
export function chunks<T>(items: T[], limits: BatchLimits<T>): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = limits.sizeOf(item);
    if (current.length > 0 && (current.length >= limits.entries || bytes + size > limits.bytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export interface BatchRetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends `items` in batches within `limits` and sends again only the entries a batch reports as
 * failed (or the whole batch when the call throws), with exponential backoff and full jitter.
 * `send` returns the indexes (within the batch it got) of the entries that failed.
 * Returns the items still failing after the last attempt.
 */
export async function sendInBatches<T>(
  items: T[],
  limits: BatchLimits<T>,
  send: (batch: T[]) => Promise<number[]>,
  options: BatchRetryOptions = {},
): Promise<{ failed: T[]; lastError?: unknown }> {
  const maxAttempts = options.maxAttempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const sleep = options.sleep ?? defaultSleep;
  const failed: T[] = [];
  let lastError: unknown;
  for (const batch of chunks(items, limits)) {
    let pending = batch;
    for (let attempt = 1; pending.length > 0 && attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await sleep(Math.random() * baseDelayMs * 2 ** (attempt - 2));
      try {
        const failedIndexes = new Set(await send(pending));
        pending = pending.filter((_item, index) => failedIndexes.has(index));
      } catch (error) {
        lastError = error;
      }
    }
    failed.push(...pending);
  }
  return { failed, lastError };
}
