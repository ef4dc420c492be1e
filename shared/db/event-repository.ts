import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { typeFilter } from '../domain/event-resources';
import { EVENT_TYPES } from '../domain/event-types';
import { isOwned } from '../domain/scope';
import { matchesPattern } from '../domain/webhooks';
import type { EventEnvelope } from '../events';
import { isId } from '../ids';
import { type PageRequest } from '../pagination';
import { cursorById, listPage } from './list-page';
import * as keys from './keys';
import { scopeOf } from './entities';
import { storedEnvelope, withStoredEnvelope } from './outbox';

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
    return result.Item ? (withStoredEnvelope(result.Item) as StoredEvent) : undefined;
  }

  return {
    get,

    /**
     * Newest first, one Query a page of each partition of the list the filter reads: the scope's
     * events (GSI1), one exact type's (GSI2), or the types' below a prefix (`keys.eventPrefixList`:
     * its own list, or the lists it is made of). A cursor must be an event of the list asked for.
     */
    async list(principal: Principal, page: PageRequest, pattern?: string) {
      const scope = scopeOf(principal.orgId, principal.mode);
      const { exact, prefix } = typeFilter(pattern);
      const source = exact
        ? { index: 'gsi2' as const, partitions: keys.eventTypeList(scope, exact) }
        : prefix
          ? keys.eventPrefixList(scope, prefix, EVENT_TYPES)
          : { index: 'gsi1' as const, partitions: keys.eventList(scope) };
      if (source === undefined) return { items: [], hasMore: false };
      const result = await listPage<Omit<StoredEvent, 'envelope'> & { envelope: unknown }>(
        db,
        tableName,
        {
          ...source,
          resolveCursor: cursorById(get, (event) => isOwned(event, principal) && (pattern === undefined || matchesPattern(pattern, event.type))),
        },
        page,
      );
      return { items: result.items.map((item) => storedEnvelope(item.envelope)), hasMore: result.hasMore };
    },
  };
}
export type EventRepository = ReturnType<typeof createEventRepository>;
