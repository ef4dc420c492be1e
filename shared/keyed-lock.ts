/**
 * Runs tasks for the same key one at a time within this process. Across processes the
 * conditional writes still decide; this only stops one process's own requests for one link
 * from racing each other (and wasting round trips on conflicts they would lose).
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async function withLock<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
