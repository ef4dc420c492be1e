/**
 * Runs tasks for the same key one at a time within this process. Across processes the
 * conditional writes still decide; this only stops one process's own requests for one link
 * from racing each other (and wasting round trips on conflicts they would lose).
 */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  /**
   * A task whose turn has not come by `startBy` (epoch ms) never runs: `tooLate()` is thrown
   * instead, so a waiter at the end of a long queue still answers before its deadline.
   */
  return async function withLock<T>(key: string, task: () => Promise<T>, startBy = Infinity, tooLate = () => new Error(`No turn for ${key} in time`)): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    let abandoned = false;
    const gaveUp = new Promise<never>((_resolve, reject) => {
      if (startBy === Infinity) return;
      timer = setTimeout(() => {
        abandoned = true;
        reject(tooLate());
      }, Math.max(0, startBy - Date.now()));
    });
    // Both run synchronously on one thread: either the turn comes first and cancels the timer, or the timer abandons the turn.
    const turn = async () => {
      clearTimeout(timer);
      return abandoned ? (undefined as T) : task();
    };
    const run = previous.then(turn, turn);
    const tail: Promise<void> = run
      .catch(() => undefined)
      .then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
    tails.set(key, tail);
    return Promise.race([run, gaveUp]);
  };
}
