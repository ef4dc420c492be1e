import { EVENT_VERSION } from '../config';
import * as z from '../zod';
import { ListQuery, pageSchema } from '../pagination';
import { DatetimeSchema } from '../time';
import { EVENT_REGISTRY, EVENT_TYPES, type EventType } from './event-types';
import type { AttemptRecord } from './webhook-delivery';
import { isEventPattern } from './webhooks';

/**
 * The events API (issue: developer experience): the outbox events of a scope as the envelope
 * webhooks carry, their delivery attempts, and replays.
 */

/** `transactions.payment_link.checkout.denied` → `PaymentLinkCheckoutDeniedEvent`: the envelope's component name. */
const componentName = (type: string) =>
  `${type
    .split('.')
    .slice(1)
    .flatMap((segment) => segment.split('_'))
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}Event`;

/** The envelope of one event type: `type` a constant, `data` that type's schema. */
const envelopeOf = <T extends EventType>(type: T) =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'The event (`evt_…`): also the `webhook-id` of its deliveries, to drop duplicates by.', example: 'evt_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
      object: z.literal('event'),
      type: z.literal(type),
      triggered_at: DatetimeSchema,
      version: z.withMeta(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), { description: 'The envelope version, a date.', example: EVENT_VERSION }),
      mode: z.enum(['test', 'live']),
      data: EVENT_REGISTRY[type].data,
    }),
    { id: componentName(type), description: EVENT_REGISTRY[type].description },
  );

/** Each event type's envelope, exactly as webhooks deliver it and the events API returns it. */
export const EVENT_ENVELOPES = /* @__PURE__ */ (() =>
  Object.fromEntries(EVENT_TYPES.map((type) => [type, envelopeOf(type)])) as {
    [T in EventType]: ReturnType<typeof envelopeOf<T>>;
  })();

export const EventSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.discriminatedUnion('type', Object.values(EVENT_ENVELOPES) as [ReturnType<typeof envelopeOf>, ...ReturnType<typeof envelopeOf>[]]),
    { id: 'Event', description: 'An event envelope, exactly as webhooks deliver it: one schema per `type`.' },
  ))();

export const EventListSchema = /* @__PURE__ */ (() => pageSchema(EventSchema, 'EventList', 'A page of events, newest first.'))();

export const listEventsQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.extend(ListQuery, {
      type: z.withMeta(z.optional(z.string().check(z.refine(isEventPattern, 'must be an event type, a `prefix.*` wildcard or `*`'))), {
        description: 'An exact type, a `prefix.*` wildcard (e.g. `transactions.payment_link.*`) or `*`.',
      }),
    }),
    { id: 'ListEventsQuery' },
  ))();

export const resendEventBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      subscription_id: z.withMeta(z.optional(z.string()), {
        description: 'Replay to this subscription only; omitted: to every matching subscription and per-object URL.',
      }),
    }),
    { id: 'ResendEventRequest' },
  ))();

export const EventResendSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('event_resend'),
      id: z.withMeta(z.string(), { description: 'The replay request.' }),
      event_id: z.string(),
      subscription_id: z.nullable(z.string()),
    }),
    { id: 'EventResend', description: 'A replay request: delivered asynchronously, like the original.' },
  ))();

export const DeliveryAttemptSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('delivery_attempt'),
      id: z.withMeta(z.string(), { description: 'The attempt, as a cursor of this list (`dla_…`).' }),
      attempt: z.withMeta(z.int().check(z.gte(1)), { description: 'Which attempt of the delivery, from 1.' }),
      attempted_at: DatetimeSchema,
      endpoint: z.url(),
      subscription_id: z.nullable(z.string()),
      status_code: z.withMeta(z.nullable(z.int().check(z.gte(100), z.lte(599))), { description: 'Null when no answer came (timeout, refused connection).' }),
      duration_ms: z.number().check(z.gte(0)),
      error: z.nullable(z.string()),
      succeeded: z.boolean(),
      resend_id: z.nullable(z.string()),
    }),
    { id: 'DeliveryAttempt' },
  ))();

export const DeliveryAttemptListSchema = /* @__PURE__ */ (() => pageSchema(DeliveryAttemptSchema, 'DeliveryAttemptList', 'Every delivery attempt of the event, oldest first.'))();

export type StoredAttempt = AttemptRecord & { targetKey: string; subscriptionId?: string; resendId?: string };

/** What names one attempt of an event: when it was made, which attempt of its delivery, to which target. */
export type AttemptName = Pick<StoredAttempt, 'at' | 'attempt' | 'targetKey'>;

const ATTEMPT_NAME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)#(\d{1,3})#(\w{1,64})$/;

/** An attempt's id, opaque to clients: its name, which is also its place in the event's list. */
export const attemptId = (attempt: AttemptName) => `dla_${Buffer.from(`${attempt.at}#${attempt.attempt}#${attempt.targetKey}`).toString('base64url')}`;
export const isAttemptId = (value: string) => /^dla_[A-Za-z0-9_-]{1,200}$/.test(value);

/** The attempt an id names, or undefined when it names none (a cursor of no attempt: 422). */
export function attemptNamed(id: string): AttemptName | undefined {
  const match = ATTEMPT_NAME.exec(Buffer.from(id.slice('dla_'.length), 'base64url').toString('utf8'));
  return match ? { at: match[1], attempt: Number(match[2]), targetKey: match[3] } : undefined;
}

export function deliveryAttemptResource(attempt: StoredAttempt): z.infer<typeof DeliveryAttemptSchema> {
  return {
    object: 'delivery_attempt',
    id: attemptId(attempt),
    attempt: attempt.attempt,
    attempted_at: attempt.at,
    endpoint: attempt.url,
    subscription_id: attempt.subscriptionId ?? null,
    status_code: attempt.statusCode ?? null,
    duration_ms: attempt.durationMs,
    error: attempt.error ?? null,
    succeeded: attempt.statusCode !== undefined && attempt.statusCode >= 200 && attempt.statusCode < 300,
    resend_id: attempt.resendId ?? null,
  };
}

/** What a `type` filter asks for: every event, one exact type, or the types below a prefix (`a.b.`). */
export function typeFilter(pattern: string | undefined): { exact?: string; prefix?: string } {
  if (!pattern || pattern === '*') return {};
  if (pattern.endsWith('.*')) return { prefix: pattern.slice(0, -1) };
  return { exact: pattern };
}
