import { exponentialSchedule, type RetryPolicy } from '../domain/retry-policy';

/** How deliveries behave where they run; read from the environment once per process. */
export interface WebhookSettings {
  policy: RetryPolicy;
  /** Per attempt: connect, send, and the receiver's answer. */
  timeoutMs: number;
  /** Private, loopback and link-local endpoints: refused in AWS, allowed locally. */
  allowPrivateUrls: boolean;
  /**
   * Batches of the queue attempting deliveries of one organization + mode at once, across every
   * process (its attempts in one batch share one slot): a dead endpoint holds at most this many
   * pollers. A delivery over it waits `busyRetryMs` (up to twice that, jittered) without counting
   * as an attempt.
   */
  inFlight: { perTenant: number; busyRetryMs: number };
}

const HOUR = 3_600_000;
const JITTER = 0.2;

/**
 * AWS: delays doubling from 30 s, capped at 12 hours (the longest an SQS message can stay
 * invisible), until even the shortest jittered window covers 3 days: 19 attempts over ~3.4 to
 * ~4.2 days.
 */
export const AWS_WEBHOOK_SETTINGS: WebhookSettings = {
  policy: { scheduleMs: exponentialSchedule({ firstMs: 30_000, capMs: 12 * HOUR, windowMs: 72 * HOUR, jitter: JITTER }), jitter: JITTER },
  timeoutMs: 10_000,
  allowPrivateUrls: false,
  // Lambda starts an SQS mapping with five concurrent batches: two dead tenants still leave one.
  inFlight: { perTenant: 2, busyRetryMs: 1_000 },
};

/** Local stack: seconds apart (1, 2, 4, 8, 16 s: six attempts), any address. */
export const LOCAL_WEBHOOK_SETTINGS: WebhookSettings = {
  policy: { scheduleMs: [1_000, 2_000, 4_000, 8_000, 16_000], jitter: JITTER },
  timeoutMs: 5_000,
  allowPrivateUrls: true,
  inFlight: { perTenant: 4, busyRetryMs: 200 },
};

/**
 * Where it runs: the local stack and `ops` against it name a DynamoDB endpoint; deployed
 * functions do not.
 */
export const webhookSettingsHere = (env: NodeJS.ProcessEnv = process.env): WebhookSettings =>
  loadWebhookSettings(env, env.DYNAMODB_ENDPOINT ? LOCAL_WEBHOOK_SETTINGS : AWS_WEBHOOK_SETTINGS);

/**
 * The variables that make `loadWebhookSettings` read `policy`: artifact mode gives them to the
 * bundled functions, whose defaults are AWS's, so that they retry as the local stack does while
 * the template keeps AWS's schedule.
 */
export function retryPolicyVariables(policy: RetryPolicy): { WEBHOOK_RETRY_SCHEDULE: string; WEBHOOK_RETRY_JITTER: string } {
  return { WEBHOOK_RETRY_SCHEDULE: policy.scheduleMs.map((ms) => ms / 1000).join(','), WEBHOOK_RETRY_JITTER: String(policy.jitter) };
}

function number(name: string, value: string, min: number, max: number): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name} must be a number from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

/**
 * The defaults of the place it runs, overridden by:
 * - `WEBHOOK_RETRY_SCHEDULE`: seconds between attempts, comma-separated (`0.5,1,2`);
 * - `WEBHOOK_RETRY_JITTER`: 0..1, the share of each delay that jitter may take off;
 * - `WEBHOOK_TIMEOUT_MS`: per attempt;
 * - `WEBHOOK_ALLOW_PRIVATE_URLS`: `true` or `false`;
 * - `WEBHOOK_TENANT_IN_FLIGHT`: attempts of one organization + mode at once.
 */
export function loadWebhookSettings(env: NodeJS.ProcessEnv, defaults: WebhookSettings): WebhookSettings {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE;
  const jitter = env.WEBHOOK_RETRY_JITTER;
  const timeout = env.WEBHOOK_TIMEOUT_MS;
  const allow = env.WEBHOOK_ALLOW_PRIVATE_URLS;
  const inFlight = env.WEBHOOK_TENANT_IN_FLIGHT;
  if (allow !== undefined && allow !== 'true' && allow !== 'false') {
    throw new Error(`WEBHOOK_ALLOW_PRIVATE_URLS must be true or false, got "${allow}"`);
  }
  return {
    policy: {
      scheduleMs:
        schedule === undefined
          ? defaults.policy.scheduleMs
          : schedule
              .split(',')
              .filter((part) => part.trim() !== '')
              .map((part) => Math.round(number('WEBHOOK_RETRY_SCHEDULE', part, 0, 43_200) * 1000)),
      jitter: jitter === undefined ? defaults.policy.jitter : number('WEBHOOK_RETRY_JITTER', jitter, 0, 1),
    },
    timeoutMs: timeout === undefined ? defaults.timeoutMs : number('WEBHOOK_TIMEOUT_MS', timeout, 1, 900_000),
    allowPrivateUrls: allow === undefined ? defaults.allowPrivateUrls : allow === 'true',
    inFlight: {
      perTenant: inFlight === undefined ? defaults.inFlight.perTenant : Math.floor(number('WEBHOOK_TENANT_IN_FLIGHT', inFlight, 1, 1_000)),
      busyRetryMs: defaults.inFlight.busyRetryMs,
    },
  };
}
