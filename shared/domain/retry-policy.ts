// The webhook retry policy, apart from the delivery code that signs and posts: the refund,
// chargeback and checkout functions read the webhook settings, never deliver.

/**
 * Delays between attempts: `scheduleMs[n - 1]` separates attempt n from attempt n + 1, so a
 * delivery makes `scheduleMs.length + 1` attempts. Each delay is shortened by a random part of
 * up to `jitter` of itself (0..1), so the whole window is at least `sum × (1 - jitter)`.
 */
export interface RetryPolicy {
  scheduleMs: number[];
  jitter: number;
}

export const maxAttempts = (policy: RetryPolicy) => policy.scheduleMs.length + 1;

/** The shortest time from the first to the last attempt that the policy allows. */
export const minimumRetryWindowMs = (policy: RetryPolicy) =>
  policy.scheduleMs.reduce((sum, delay) => sum + delay, 0) * (1 - policy.jitter);

/** Doubling delays from `firstMs`, capped at `capMs`, until the window is at least `windowMs`. */
export function exponentialSchedule(options: { firstMs: number; capMs: number; windowMs: number; jitter: number }): number[] {
  const schedule: number[] = [];
  let delay = options.firstMs;
  while (minimumRetryWindowMs({ scheduleMs: schedule, jitter: options.jitter }) < options.windowMs) {
    schedule.push(Math.min(delay, options.capMs));
    delay *= 2;
  }
  return schedule;
}

/** The wait before the attempt after `failedAttempt`, or undefined after the last one. */
export function retryDelayMs(policy: RetryPolicy, failedAttempt: number, random: () => number = Math.random): number | undefined {
  const base = policy.scheduleMs[failedAttempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - policy.jitter * random()));
}
