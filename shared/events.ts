import type * as z from './zod';
import type { Mode } from './auth/principal';
import { EVENT_VERSION } from './config';
import { newId } from './ids';
import { isoMillis } from './time';

/** The contract's event envelope. */
export interface EventEnvelope<D = Record<string, unknown>> {
  id: string;
  object: 'event';
  type: string;
  triggered_at: string;
  version: string;
  mode: Mode;
  data: D;
}

/** An event as the outbox stores it: the envelope plus routing facts that never leave the service. */
export interface OutboxEvent {
  envelope: EventEnvelope;
  orgId: string;
  /** Per-object endpoints the contract names (a refund's webhook_url, a parent payment's). */
  targetUrls?: string[];
}

/** Events stay readable (events API, resend) this long; DynamoDB TTL removes them after. */
export const EVENT_RETENTION_DAYS = 35;

/**
 * One event type: the schema of its `data` (what its builder is typed by, what the reference
 * and the webhooks section document) and when it is emitted. Each domain module declares the
 * types it emits as a family (type → spec); shared/domain/event-types.ts collects them.
 */
export interface EventSpec<D extends z.ZodMiniType = z.ZodMiniType> {
  data: D;
  /** When the event is emitted, for the reference. */
  description: string;
  /** Declared for subscriptions and the reference, but nothing emits it yet (the email family, product-decisions §4). */
  reserved?: true;
}

export type EventFamily = Readonly<Record<string, EventSpec>>;

/** What the `data` of an event of `type` in `family` is: its schema's output. */
export type EventDataOf<F extends EventFamily, T extends keyof F> = z.output<F[T]['data']>;

/** A family of one type per status (`{prefix}{status}`), all with the same `data` schema. */
export function statusFamily<P extends string, S extends string, D extends z.ZodMiniType>(
  prefix: P,
  statuses: readonly S[],
  data: D,
  description: (status: S) => string,
): Record<`${P}${S}`, EventSpec<D>> {
  return Object.fromEntries(statuses.map((status) => [`${prefix}${status}`, { data, description: description(status) }])) as Record<`${P}${S}`, EventSpec<D>>;
}

export function newEvent(input: {
  type: string;
  orgId: string;
  mode: Mode;
  data: Record<string, unknown>;
  targetUrls?: string[];
  at?: Date;
}): OutboxEvent {
  return {
    orgId: input.orgId,
    ...(input.targetUrls?.length ? { targetUrls: input.targetUrls } : {}),
    envelope: {
      id: newId('event'),
      object: 'event',
      type: input.type,
      triggered_at: isoMillis(input.at ?? new Date()),
      version: EVENT_VERSION,
      mode: input.mode,
      data: input.data,
    },
  };
}

/** An event about one resource (its organization and mode), also sent to the per-object URL it names, if any. */
export function resourceEvent(
  type: string,
  resource: { orgId: string; mode: Mode },
  data: Record<string, unknown>,
  options: { targetUrl?: string; at?: Date } = {},
): OutboxEvent {
  return newEvent({ type, orgId: resource.orgId, mode: resource.mode, data, targetUrls: options.targetUrl ? [options.targetUrl] : undefined, at: options.at });
}
