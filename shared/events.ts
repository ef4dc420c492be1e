import type { Mode } from './auth/principal';
import { EVENT_VERSION } from './config';
import { keys, scopeOf } from './db/keys';
import { TTL_ATTRIBUTE } from './db/table';
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

/** The outbox item; put it in the same TransactWriteItems as the change it reports. */
export function outboxItem(event: OutboxEvent): Record<string, unknown> {
  const { envelope } = event;
  return {
    ...keys.event(envelope.id),
    GSI1PK: keys.eventList(scopeOf(event.orgId, envelope.mode)),
    GSI1SK: envelope.id,
    GSI2PK: keys.eventTypeList(scopeOf(event.orgId, envelope.mode), envelope.type),
    GSI2SK: envelope.id,
    entity: 'event',
    orgId: event.orgId,
    mode: envelope.mode,
    type: envelope.type,
    envelope,
    ...(event.targetUrls ? { targetUrls: event.targetUrls } : {}),
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(envelope.triggered_at) / 1000) + EVENT_RETENTION_DAYS * 86_400,
  };
}

/** A TransactWriteItems action writing the event to the outbox. */
export function outboxPut(tableName: string, event: OutboxEvent) {
  return {
    Put: {
      TableName: tableName,
      Item: outboxItem(event),
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': 'PK' },
    },
  };
}
