import type { DynamoDBDocumentClient, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { LIMITS } from '../limits';
import { EVENT_RETENTION_DAYS, type OutboxEvent } from '../events';
import { transactRetried } from './conditional';
import { eventEntity } from './entities';
import { TTL_ATTRIBUTE } from './table';
import { IF_NEW } from './entity';

/** The outbox item; put it in the same TransactWriteItems as the change it reports. */
export function outboxItem(event: OutboxEvent): Record<string, unknown> {
  const { envelope } = event;
  // Inputs are bounded so that this never happens; if it did, nothing would be written rather
  // than an event EventBridge refuses (256 KB) holding up the stream behind it.
  const bytes = Buffer.byteLength(JSON.stringify(envelope));
  if (bytes > LIMITS.eventBytes) throw new Error(`event ${envelope.type} is ${bytes} bytes, above ${LIMITS.eventBytes}`);
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
      ...IF_NEW,
    },
  };
}

/** One action of a TransactWriteItems. */
export type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The actions, then their events' outbox puts, for one TransactWriteItems (a cancellation reason's index is its action's). */
export const withEvents = (tableName: string, actions: TransactAction[], events: OutboxEvent[]): TransactAction[] => [...actions, ...events.map((event) => outboxPut(tableName, event))];

/** The actions and their events in one TransactWriteItems, retried on writes lost to contention (`transactRetried`). */
export async function transactWithEvents(db: DynamoDBDocumentClient, tableName: string, actions: TransactAction[], events: OutboxEvent[]): Promise<void> {
  await transactRetried(db, withEvents(tableName, actions, events));
}
