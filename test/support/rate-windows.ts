/**
 * Rate limits count in fixed windows of wall-clock time (shared/db/rate-limit.ts): a test whose
 * requests must all count in one window runs them through `inOneWindow`. `attempt` must take
 * fresh subjects (a new link, a new event) each time it runs: a run that a window's end cut in
 * two is run again, which on average costs less than waiting for the next window beforehand.
 */
export async function inOneWindow<T>(windowSeconds: number, attempt: () => Promise<T>, runs = 3): Promise<T> {
  const windowNow = () => Math.floor(Date.now() / 1000 / windowSeconds);
  for (let run = 1; ; run++) {
    const started = windowNow();
    const result = await attempt();
    if (windowNow() === started) return result;
    if (run === runs) throw new Error(`None of ${runs} runs fitted in one ${windowSeconds} s window`);
  }
}
