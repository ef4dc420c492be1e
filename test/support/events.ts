import type { Mode } from '../../shared/auth/principal';
import * as keys from '../../shared/db/keys';
import { scopeOf } from '../../shared/db/entities';
import { withStoredEnvelope } from '../../shared/db/outbox';
import { queryMerged } from '../../shared/db/query-all';
import { INDEXES } from '../../shared/db/table';
import type { EventEnvelope } from '../../shared/events';
import type { TestStack } from './stack';

/** The outbox items of one organization and mode, oldest first (read straight from the table), their envelopes unpacked. */
export async function outboxItems(stack: TestStack, orgId: string, mode: Mode = 'test'): Promise<Record<string, any>[]> {
  const items = await queryMerged(
    stack.db,
    keys.eventList(scopeOf(orgId, mode)),
    (partition) => ({
      TableName: stack.tableName,
      IndexName: INDEXES.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
      ExpressionAttributeValues: { ':pk': partition },
    }),
    { sortKey: INDEXES.gsi1.sk },
  );
  return items.map(withStoredEnvelope);
}

/** The envelopes of those outbox items. */
export async function outboxEvents(stack: TestStack, orgId: string, mode: Mode = 'test'): Promise<EventEnvelope[]> {
  return (await outboxItems(stack, orgId, mode)).map((item) => item.envelope as EventEnvelope);
}

/** Events of one type about one object (`data.id`). */
export const eventsFor = (events: EventEnvelope[], type: string, id?: string) =>
  events.filter((event) => event.type === type && (id === undefined || event.data.id === id));
