import { isoMillis } from '../time';
import * as z from '../zod';
import { retryDelayMs } from './retry-policy';
import { receives, webhookSignature } from './webhooks';
import {
  RECORD_TRIES,
  recordRetryDelayMs,
  SLOT_LEASE_MARGIN_MS,
  tenantOf,
  type AttemptRecord,
  type DeliveryOutcome,
  type DeliveryPorts,
  type DeliveryTask,
} from './webhook-delivery';

/*
 * One attempt of a webhook delivery (shared/domain/webhook-delivery.ts): the one step that signs
 * and posts; the events API reads deliveries without it.
 */

/** The Standard Webhooks headers of every attempt, as the reference documents each webhook. */
export const WebhookHeadersSchema = /* @__PURE__ */ (() =>
  z.object({
    'webhook-id': z.withMeta(z.string(), { description: 'The event id (`evt_…`), the same on every attempt and every target: drop duplicates by it.' }),
    'webhook-timestamp': z.withMeta(z.string().check(z.regex(/^[0-9]+$/)), { description: 'Unix seconds of this attempt; reject one more than five minutes away (replays).' }),
    'webhook-signature': z.withMeta(z.string().check(z.regex(/^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$/)), {
      description:
        '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded secret after `whsec_`; space-separated when several.',
    }),
  }))();

/**
 * The headers of one attempt, signed per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, once per secret, space-separated (a rolled secret's overlap).
 */
export function signedHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  const unixSeconds = Math.floor(at.getTime() / 1000);
  const signed: z.infer<typeof WebhookHeadersSchema> = {
    'webhook-id': eventId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, eventId, unixSeconds, body)).join(' '),
  };
  return { 'content-type': 'application/json', 'user-agent': 'payment-operations-webhooks/1', ...signed };
}

/**
 * Where this attempt goes and the secrets that sign it, read now: a subscription's current URL
 * and secrets (with a rolled secret's predecessor while it lasts), or undefined when the
 * subscription was deleted, disabled or narrowed since the fan-out; a per-object URL's org+mode
 * secret.
 */
async function destinationOf(task: DeliveryTask, ports: DeliveryPorts): Promise<{ url: string; secrets: string[] } | undefined> {
  const { envelope, orgId } = task.event;
  if (!task.target.subscriptionId) return { url: task.target.url, secrets: [await ports.endpoints.urlSecret(orgId, envelope.mode)] };
  const subscription = await ports.endpoints.subscription(orgId, envelope.mode, task.target.subscriptionId);
  if (!subscription || !receives(subscription, envelope.type)) return undefined;
  return { url: subscription.url, secrets: await ports.endpoints.signingSecrets(subscription, ports.now()) };
}

/**
 * One attempt of one delivery.
 * 1. skip it when this delivery already ended (a duplicate publish, a twin message);
 * 2. read its destination now (with step 1's read): a subscription deleted, disabled or no
 *    longer matching the type cancels the delivery, so what was queued to it stops;
 * 3. take one of its tenant's attempt slots, or come back later (`busy`): one tenant's slow
 *    endpoint never holds more than its slots;
 * 4. POST the envelope, signed, with the attempt's timeout;
 * 5. give the slot back and, meanwhile, record the attempt and what follows from it
 *    (`concludeAttempt`).
 * A task whose attempt was made but not recorded (`made`) starts at 5: once a POST may have
 * reached the receiver it is never sent again for the same attempt.
 */
export async function attemptDelivery(task: DeliveryTask, ports: DeliveryPorts): Promise<DeliveryOutcome> {
  if (task.made) return concludeAttempt(task, task.made.record, task.made.tries + 1, ports);
  const { envelope } = task.event;
  // Both reads at once: a settled duplicate is rare, and reading its destination for nothing costs less than a round trip on every attempt.
  const [settled, destination] = await Promise.all([ports.journal.isSettled(task), destinationOf(task, ports)]);
  if (settled) return { kind: 'skipped', reason: 'already settled' };
  if (!destination) {
    await ports.journal.settle(task, 'canceled');
    return { kind: 'skipped', reason: 'subscription stopped' };
  }
  const release = await ports.slots.take(tenantOf(task), ports.timeoutMs + SLOT_LEASE_MARGIN_MS);
  if (!release) return { kind: 'busy', task, delayMs: Math.round(ports.busyRetryMs * (1 + (ports.random ?? Math.random)())) };

  let record: AttemptRecord;
  try {
    const at = ports.now();
    const body = JSON.stringify(envelope);
    const result = await ports.sender.post(destination.url, signedHeaders(destination.secrets, envelope.id, at, body), body, ports.timeoutMs);
    record = {
      attempt: task.attempt,
      at: isoMillis(at),
      url: destination.url,
      durationMs: result.durationMs,
      ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
      ...(result.error ? { error: result.error } : {}),
    };
  } catch (error) {
    await release();
    throw error;
  }
  // The slot guards the POST: it is given back while the attempt is recorded.
  const [outcome] = await Promise.all([concludeAttempt(task, record, 1, ports), release()]);
  return outcome;
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
    // A 2xx attempt, recorded, ends its delivery: no outcome of its own to write.
    if (record.statusCode !== undefined && record.statusCode >= 200 && record.statusCode < 300) return { kind: 'delivered', task: done };
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
