/**
 * Webhook delivery (product-decisions §9), the same in AWS and in the local stack: fan-out of
 * an event to its targets, one signed POST per attempt, retries with exponential backoff and
 * jitter, and the dead-letter queue after the last attempt. The ports below are implemented
 * by DynamoDB, HTTP, SQS and in-process adapters; nothing here knows which.
 */
import { Webhook } from 'standardwebhooks';
import * as z from 'zod';
import type { Mode } from '../auth/principal';
import type { EventEnvelope, OutboxEvent } from '../events';
import { isoMillis } from '../time';
import { deliveryTargets, type DeliveryTarget, type WebhookSubscription } from './webhooks';

/** What the publisher hands on: the stored outbox event, marked when it is an `ops event resend`. */
export interface PublishedEvent extends OutboxEvent {
  /** Set on a replay: the deliveries of a replay are new deliveries, not duplicates. */
  resendId?: string;
  /** A replay to this one subscription only (`POST /v1/events/:id/resend` with `subscription_id`). */
  subscriptionId?: string;
}

export interface AttemptRecord {
  attempt: number;
  at: string;
  url: string;
  statusCode?: number;
  durationMs: number;
  error?: string;
}

/** One event on its way to one target: the unit that is queued, retried and dead-lettered. */
export interface DeliveryTask {
  kind: 'webhook_delivery';
  event: { envelope: EventEnvelope; orgId: string };
  target: DeliveryTarget;
  resendId?: string;
  /** The number of the next attempt, from 1. */
  attempt: number;
  history: AttemptRecord[];
  /**
   * An attempt already made (it may have reached the receiver) whose record the table did not
   * take: the next run records it and goes on from there, without sending it again.
   */
  made?: { record: AttemptRecord; tries: number };
}

/** How often an attempt's record is tried (then it goes to the dead-letter queue, or is given up). */
export const RECORD_TRIES = 5;

/** The wait before recording an attempt again: 1, 2, 4, 8 s. */
export const recordRetryDelayMs = (tries: number) => 1_000 * 2 ** (tries - 1);

/**
 * What a dead letter keeps: a reference to the event (it stays in the table for 35 days and
 * `ops event resend` replays it), the target and every attempt; never a copy of the event.
 */
export interface DeadLetter {
  eventId: string;
  orgId: string;
  mode: EventEnvelope['mode'];
  type: string;
  target: DeliveryTarget;
  resendId?: string;
  attempts: AttemptRecord[];
  parkedAt: string;
}

export const deadLetterOf = (task: DeliveryTask, parkedAt: string): DeadLetter => ({
  eventId: task.event.envelope.id,
  orgId: task.event.orgId,
  mode: task.event.envelope.mode,
  type: task.event.envelope.type,
  target: task.target,
  ...(task.resendId ? { resendId: task.resendId } : {}),
  attempts: task.history,
  parkedAt,
});

/** Identifies one delivery of an event: its target, and for a replay the replay request. */
export const deliveryKey = (task: Pick<DeliveryTask, 'target' | 'resendId'>) =>
  task.resendId ? `${task.target.key}#${task.resendId}` : task.target.key;

export function isDeliveryTask(value: unknown): value is DeliveryTask {
  const task = value as DeliveryTask;
  return task?.kind === 'webhook_delivery' && typeof task.event?.envelope?.id === 'string' && typeof task.target?.url === 'string';
}

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

/** The Standard Webhooks headers of every attempt, as the reference documents each webhook. */
export const WebhookHeadersSchema = z.object({
  'webhook-id': z.string().meta({ description: 'The event id (`evt_…`), the same on every attempt and every target: drop duplicates by it.' }),
  'webhook-timestamp': z.string().regex(/^[0-9]+$/).meta({ description: 'Unix seconds of this attempt; reject one more than five minutes away (replays).' }),
  'webhook-signature': z
    .string()
    .regex(/^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$/)
    .meta({
      description:
        '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded secret after `whsec_`; space-separated when several.',
    }),
});

/** The headers of one attempt, signed per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signedHeaders(secret: string, eventId: string, at: Date, body: string): Record<string, string> {
  const signed: z.infer<typeof WebhookHeadersSchema> = {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
  return { 'content-type': 'application/json', 'user-agent': 'payment-operations-webhooks/1', ...signed };
}

export interface SendResult {
  statusCode?: number;
  durationMs: number;
  /** Why no HTTP status came back (timeout, refused address, connection error). */
  error?: string;
}

/** The HTTP adapter: one POST, bounded by a timeout, never throwing for a failed endpoint. */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult>;
}

export type DeliveryStatus = 'delivered' | 'dead' | 'canceled';

/** The delivery records in the table: attempts (for the events API) and each delivery's outcome. */
export interface DeliveryJournal {
  /** True when this delivery already ended (delivered, dead or canceled) in another run. */
  isSettled(eventId: string, deliveryKey: string): Promise<boolean>;
  recordAttempt(task: DeliveryTask, record: AttemptRecord): Promise<void>;
  settle(task: DeliveryTask, status: DeliveryStatus): Promise<void>;
}

/** Secrets that sign: a subscription's own, or the org+mode secret for per-object URLs. */
export interface SigningSecrets {
  /** Undefined when the subscription was deleted since the event was fanned out. */
  subscriptionSecret(orgId: string, mode: Mode, subscriptionId: string): Promise<string | undefined>;
  urlSecret(orgId: string, mode: Mode): Promise<string>;
}

/** The dead-letter queue: in AWS the SQS DLQ, locally a table partition. */
export interface DeadLetters {
  park(task: DeliveryTask): Promise<void>;
}

/**
 * Attempts in flight per tenant (organization + mode), shared by every process that delivers:
 * `take` answers how to give the slot back, or undefined when every slot is held. A slot whose
 * holder died frees itself when its lease ends.
 */
export interface AttemptSlots {
  take(tenant: string, leaseMs: number): Promise<(() => Promise<void>) | undefined>;
}

/** A slot outlives its attempt's timeout by this much: signing and the table writes around the POST. */
export const SLOT_LEASE_MARGIN_MS = 5_000;

export interface DeliveryPorts {
  journal: DeliveryJournal;
  slots: AttemptSlots;
  /** A delivery whose tenant has every slot taken is tried again after this (up to twice, jittered). */
  busyRetryMs: number;
  secrets: SigningSecrets;
  sender: WebhookSender;
  deadLetters: DeadLetters;
  policy: RetryPolicy;
  timeoutMs: number;
  now: () => Date;
  random?: () => number;
}

export type DeliveryOutcome =
  | { kind: 'delivered'; task: DeliveryTask }
  | { kind: 'skipped'; reason: 'already settled' | 'subscription deleted' }
  | { kind: 'retry'; task: DeliveryTask; delayMs: number }
  | { kind: 'dead'; task: DeliveryTask }
  /** The attempt was made but not recorded: run `task` (record only) after `delayMs`. */
  | { kind: 'unrecorded'; task: DeliveryTask; delayMs: number; error: string }
  /** Neither recorded nor parked after RECORD_TRIES: given up (logged, counted, alarmed). */
  | { kind: 'abandoned'; task: DeliveryTask; error: string }
  /** Its tenant had every attempt slot taken: the same attempt, not yet made, after `delayMs`. */
  | { kind: 'busy'; task: DeliveryTask; delayMs: number };

/** The outcomes that put their task back on the queue after `delayMs`. */
export const isRequeued = (outcome: DeliveryOutcome): outcome is Extract<DeliveryOutcome, { delayMs: number }> => 'delayMs' in outcome;

/** The first attempt of every target of an event. */
export function firstAttempts(event: PublishedEvent, subscriptions: WebhookSubscription[]): DeliveryTask[] {
  const targets = event.subscriptionId
    ? deliveryTargets(event.envelope.type, subscriptions.filter((subscription) => subscription.id === event.subscriptionId))
    : deliveryTargets(event.envelope.type, subscriptions, event.targetUrls);
  return targets.map((target) => ({
    kind: 'webhook_delivery',
    event: { envelope: event.envelope, orgId: event.orgId },
    target,
    ...(event.resendId ? { resendId: event.resendId } : {}),
    attempt: 1,
    history: [],
  }));
}

/**
 * Fan-out: the deliveries of one event.
 * 1. read the subscriptions of the event's organization and mode;
 * 2. keep those whose patterns match the type, add the per-object URLs;
 * 3. one task per target, so that each is delivered and retried on its own.
 */
export async function planDeliveries(
  event: PublishedEvent,
  subscriptionsOf: (orgId: string, mode: Mode) => Promise<WebhookSubscription[]>,
): Promise<DeliveryTask[]> {
  return firstAttempts(event, await subscriptionsOf(event.orgId, event.envelope.mode));
}

/**
 * One attempt of one delivery.
 * 1. skip it when this delivery already ended (a duplicate publish, a twin message);
 * 2. take one of its tenant's attempt slots, or come back later (`busy`): one tenant's slow
 *    endpoint never holds more than its slots;
 * 3. find the signing secret (a deleted subscription cancels the delivery);
 * 4. POST the envelope, signed, with the attempt's timeout, then give the slot back;
 * 5. record the attempt and what follows from it (`concludeAttempt`).
 * A task whose attempt was made but not recorded (`made`) starts at 5: once a POST may have
 * reached the receiver it is never sent again for the same attempt.
 */
export async function attemptDelivery(task: DeliveryTask, ports: DeliveryPorts): Promise<DeliveryOutcome> {
  if (task.made) return concludeAttempt(task, task.made.record, task.made.tries + 1, ports);
  const { envelope, orgId } = task.event;
  if (await ports.journal.isSettled(envelope.id, deliveryKey(task))) return { kind: 'skipped', reason: 'already settled' };
  const release = await ports.slots.take(tenantOf(task), ports.timeoutMs + SLOT_LEASE_MARGIN_MS);
  if (!release) return { kind: 'busy', task, delayMs: Math.round(ports.busyRetryMs * (1 + (ports.random ?? Math.random)())) };

  let record: AttemptRecord;
  try {
    const secret = task.target.subscriptionId
      ? await ports.secrets.subscriptionSecret(orgId, envelope.mode, task.target.subscriptionId)
      : await ports.secrets.urlSecret(orgId, envelope.mode);
    if (!secret) {
      await ports.journal.settle(task, 'canceled');
      return { kind: 'skipped', reason: 'subscription deleted' };
    }
    const at = ports.now();
    const body = JSON.stringify(envelope);
    const result = await ports.sender.post(task.target.url, signedHeaders(secret, envelope.id, at, body), body, ports.timeoutMs);
    record = {
      attempt: task.attempt,
      at: isoMillis(at),
      url: task.target.url,
      durationMs: result.durationMs,
      ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
      ...(result.error ? { error: result.error } : {}),
    };
  } finally {
    await release();
  }
  return concludeAttempt(task, record, 1, ports);
}

/**
 * After an attempt: record it (time, endpoint, status code, duration, error); a 2xx ends the
 * delivery; otherwise the next attempt after the schedule's delay, or, after the last attempt,
 * the dead-letter queue with the attempt history (parked before it is marked dead, so a crash
 * in between parks it again rather than never). When the table refuses, the same conclusion is
 * tried again later (`unrecorded`), RECORD_TRIES times in all; then the delivery is parked as
 * it stands, or, when that fails too, abandoned. Every write here is idempotent.
 */
async function concludeAttempt(task: DeliveryTask, record: AttemptRecord, tries: number, ports: DeliveryPorts): Promise<DeliveryOutcome> {
  const { made: _made, ...attempted } = task;
  const done = { ...attempted, history: [...task.history, record] };
  try {
    await ports.journal.recordAttempt(attempted, record);
    if (record.statusCode !== undefined && record.statusCode >= 200 && record.statusCode < 300) {
      await ports.journal.settle(done, 'delivered');
      return { kind: 'delivered', task: done };
    }
    const delayMs = retryDelayMs(ports.policy, task.attempt, ports.random);
    if (delayMs === undefined) {
      await ports.deadLetters.park(done);
      await ports.journal.settle(done, 'dead');
      return { kind: 'dead', task: done };
    }
    return { kind: 'retry', task: { ...done, attempt: task.attempt + 1 }, delayMs };
  } catch (error) {
    const message = (error as Error).message;
    if (tries < RECORD_TRIES) return { kind: 'unrecorded', task: { ...attempted, made: { record, tries } }, delayMs: recordRetryDelayMs(tries), error: message };
    try {
      await ports.deadLetters.park(done);
      return { kind: 'dead', task: done };
    } catch {
      return { kind: 'abandoned', task: done, error: message };
    }
  }
}

/** Whose delivery it is: the unit of fairness (an SQS fair queue's message group). */
export const tenantOf = (task: Pick<DeliveryTask, 'event'>) => `${task.event.orgId}#${task.event.envelope.mode}`;
