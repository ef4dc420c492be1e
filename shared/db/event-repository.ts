import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { typeFilter } from '../domain/event-resources';
import { isOwned } from '../domain/scope';
import type { EventEnvelope } from '../events';
import { isId } from '../ids';
import { type PageRequest } from '../pagination';
import { cursorById, listPage } from './list-page';
import { keys, scopeOf } from './keys';

interface StoredEvent {
  orgId: string;
  mode: string;
  type: string;
  envelope: EventEnvelope;
}

/** The outbox events as the events API reads them. */
export function createEventRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<StoredEvent | undefined> {
    if (!isId('event', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.event(id), ConsistentRead: true }));
    return result.Item as StoredEvent | undefined;
  }

  return {
    get,

    /**
     * Newest first. An exact type reads its own partition (GSI2); a `prefix.*` wildcard reads the
     * scope's events with a filter, so its cost follows the events scanned past, not the page.
     */
    async list(principal: Principal, page: PageRequest, pattern?: string) {
      const scope = scopeOf(principal.orgId, principal.mode);
      const { exact, prefix } = typeFilter(pattern);
      const result = await listPage<StoredEvent>(
        db,
        tableName,
        {
          index: exact ? 'gsi2' : 'gsi1',
          partition: exact ? keys.eventTypeList(scope, exact) : keys.eventList(scope),
          resolveCursor: cursorById(get, (event) => isOwned(event, principal)),
          ...(prefix
            ? { filter: { expression: 'begins_with(#type, :prefix)', names: { '#type': 'type' }, values: { ':prefix': prefix } } }
            : {}),
        },
        page,
      );
      return { items: result.items.map((item) => item.envelope), hasMore: result.hasMore };
    },
  };
}
export type EventRepository = ReturnType<typeof createEventRepository>;
