import { EVENT_RETENTION_DAYS, type OutboxEvent } from '../events';
import { eventEntity } from './entities';
import { TTL_ATTRIBUTE } from './table';

/** The outbox item; put it in the same TransactWriteItems as the change it reports. */
export function outboxItem(event: OutboxEvent): Record<string, unknown> {
  const { envelope } = event;
  return eventEntity.item({
    orgId: event.orgId,
    mode: envelope.mode,
    type: envelope.type,
    envelope,
    ...(event.targetUrls ? { targetUrls: event.targetUrls } : {}),
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(envelope.triggered_at) / 1000) + EVENT_RETENTION_DAYS * 86_400,
  });
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
