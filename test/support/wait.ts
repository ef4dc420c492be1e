/**
 * Waits for a condition, never for a fixed time: polls `condition` every `intervalMs` until it
 * holds, and fails naming `what` once `timeoutMs` have passed. A loaded machine only makes the
 * wait longer; the deadline bounds a condition that never comes.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  { timeoutMs = 20_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Repeats `request` until its answer is `done`, checking a rule's time bounds on every answer
 * rather than sleeping past them: an answer received before `notBefore` must not be done yet
 * (a grace period), and a request sent after `by` must be done (a change that takes effect
 * within a bound). Returns the first answer that is done.
 */
export async function requestUntil<T>(
  request: () => Promise<T>,
  done: (answer: T) => boolean,
  what: string,
  bounds: { notBefore?: number; by?: number },
): Promise<T> {
  let last: T | undefined;
  await waitUntil(
    async () => {
      const sent = Date.now();
      const answer = await request();
      const received = Date.now();
      const isDone = done(answer);
      if (isDone && bounds.notBefore !== undefined && received < bounds.notBefore) {
        throw new Error(`${what}: came ${bounds.notBefore - received} ms before it may`);
      }
      if (!isDone && bounds.by !== undefined && sent > bounds.by) throw new Error(`${what}: still not so ${sent - bounds.by} ms after it must be`);
      last = answer;
      return isDone;
    },
    what,
    { intervalMs: 100 },
  );
  return last!;
}
