/**
 * Rate limits count in fixed windows of wall-clock time (shared/db/rate-limit.ts): a test that
 * must stay inside one window starts at the next window when fewer than `neededSeconds` are
 * left of the current one.
 */
export async function atWindowStartIfLate(windowSeconds: number, neededSeconds: number) {
  const leftMs = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (leftMs < neededSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}
