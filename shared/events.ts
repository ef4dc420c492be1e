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
