import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../../shared/auth/principal';
import { keys, scopeOf } from '../../shared/db/keys';
import { INDEXES } from '../../shared/db/table';
import type { EventEnvelope } from '../../shared/events';
import type { TestStack } from './stack';

/** The outbox events of one organization and mode, oldest first (read straight from the table). */
export async function outboxEvents(stack: TestStack, orgId: string, mode: Mode = 'test'): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await stack.db.send(
      new QueryCommand({
        TableName: stack.tableName,
        IndexName: INDEXES.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
        ExpressionAttributeValues: { ':pk': keys.eventList(scopeOf(orgId, mode)) },
        ExclusiveStartKey: startKey,
      }),
    );
    events.push(...(page.Items ?? []).map((item) => item.envelope as EventEnvelope));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return events;
}

/** Events of one type about one object (`data.id`). */
export const eventsFor = (events: EventEnvelope[], type: string, id?: string) =>
  events.filter((event) => event.type === type && (id === undefined || event.data.id === id));
