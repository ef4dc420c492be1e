/** Splits `items` into batches of at most `size` (PutEvents and SendMessageBatch take 10). */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BatchRetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends `items` in batches of `size` and sends again only the entries a batch reports as
 * failed (or the whole batch when the call throws), with exponential backoff and full jitter.
 * `send` returns the indexes (within the batch it got) of the entries that failed.
 * Returns the items still failing after the last attempt.
 */
export async function sendInBatches<T>(
  items: T[],
  size: number,
  send: (batch: T[]) => Promise<number[]>,
  options: BatchRetryOptions = {},
): Promise<{ failed: T[]; lastError?: unknown }> {
  const maxAttempts = options.maxAttempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 100;
  const sleep = options.sleep ?? defaultSleep;
  const failed: T[] = [];
  let lastError: unknown;
  for (const batch of chunks(items, size)) {
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
