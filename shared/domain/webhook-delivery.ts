/**
 * Webhook delivery (product-decisions §9), the same in AWS and in the local stack: fan-out of
 * an event to its targets, one signed POST per attempt, retries with exponential backoff and
 * jitter, and the dead-letter queue after the last attempt. The ports below are implemented
 * by DynamoDB, HTTP, SQS and in-process adapters; nothing here knows which.
 */
import type { Mode } from '../auth/principal';
import type { EventEnvelope, OutboxEvent } from '../events';
import type { RetryPolicy } from './retry-policy';
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

/** How a delivery ended without a 2xx (a 2xx attempt, recorded, is a delivery's outcome itself). */
export type DeliveryStatus = 'dead' | 'canceled';

/** The delivery records in the table: attempts (for the events API) and each delivery's outcome. */
export interface DeliveryJournal {
  /** True when this delivery already ended in another run: an attempt of it answered 2xx, or it is dead or canceled. */
  isSettled(task: Pick<DeliveryTask, 'event' | 'target' | 'resendId'>): Promise<boolean>;
  recordAttempt(task: DeliveryTask, record: AttemptRecord): Promise<void>;
  settle(task: DeliveryTask, status: DeliveryStatus): Promise<void>;
}

/** Where an attempt goes and what signs it: the subscription as it is now, or the org+mode secret of per-object URLs. */
export interface DeliveryEndpoints {
  /** Read at each attempt; undefined when the subscription was deleted since the event was fanned out. */
  subscription(orgId: string, mode: Mode, subscriptionId: string): Promise<WebhookSubscription | undefined>;
  /** The subscription's secrets in force at `at`, opened (`secretsInForce`). */
  signingSecrets(subscription: WebhookSubscription, at: Date): Promise<string[]>;
  /** The org+mode secret of per-object URLs, opened (created on first use). */
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

/**
 * The slots of one batch of the queue (one poller's invocation): its attempts of one tenant
 * share one slot, taken by the first and given back by the last. What a tenant's slots bound is
 * the pollers its endpoints hold (a dead endpoint's batch holds its poller until its attempts
 * time out, however many of them it carries), so sharing within a batch keeps that bound while a
 * healthy endpoint's deliveries in a batch go out together instead of waiting for a slot each.
 */
export function sharedPerBatch(slots: AttemptSlots): AttemptSlots {
  const leases = new Map<string, { taken: Promise<(() => Promise<void>) | undefined>; holders: number }>();
  return {
    async take(tenant, leaseMs) {
      let lease = leases.get(tenant);
      if (!lease) {
        lease = { taken: slots.take(tenant, leaseMs), holders: 0 };
        leases.set(tenant, lease);
      }
      const shared = lease;
      shared.holders++;
      const release = await shared.taken;
      const leave = () => {
        shared.holders--;
        if (shared.holders === 0) leases.delete(tenant);
        return shared.holders === 0;
      };
      if (!release) {
        leave();
        return undefined;
      }
      return async () => {
        if (leave()) await release();
      };
    },
  };
}

/** A slot outlives its attempt's timeout by this much: signing and the table writes around the POST. */
export const SLOT_LEASE_MARGIN_MS = 5_000;

export interface DeliveryPorts {
  journal: DeliveryJournal;
  slots: AttemptSlots;
  /** A delivery whose tenant has every slot taken is tried again after this (up to twice, jittered). */
  busyRetryMs: number;
  endpoints: DeliveryEndpoints;
  sender: WebhookSender;
  deadLetters: DeadLetters;
  policy: RetryPolicy;
  timeoutMs: number;
  now: () => Date;
  random?: () => number;
}

export type DeliveryOutcome =
  | { kind: 'delivered'; task: DeliveryTask }
  /** `subscription stopped`: deleted, disabled, or no longer matching the event's type since the fan-out (the delivery is canceled). */
  | { kind: 'skipped'; reason: 'already settled' | 'subscription stopped' }
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

/** Whose delivery it is: the unit of fairness (an SQS fair queue's message group). */
export const tenantOf = (task: Pick<DeliveryTask, 'event'>) => `${task.event.orgId}#${task.event.envelope.mode}`;
