import type { DynamoDBDocumentClient, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { isOwned } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import type { PageRequest } from '../pagination';
import { scopeOf } from './entities';
import { stripKeys, type defineEntity } from './entity';
import { queryMerged } from './query-all';
import { KEY, INDEXES, type IndexName } from './table';

/**
 * One page of a list (product-decisions §2): newest first (or oldest first, when the source says
 * so), one Query of at most limit+1 items per partition of the list (its sub-partitions, read at
 * once and merged, when it is split: entities.ts), the cursor mapped onto the list's sort key.
 */

export interface ListSource {
  /** `table` for the base table's PK/SK, or one of the global secondary indexes. */
  index: IndexName | 'table';
  /** The list's partition, or its sub-partitions (`entity.partitions`). */
  partitions: readonly string[];
  /**
   * The list is the partition's items whose sort key begins with this (one kind of item among
   * others: an event's delivery attempts). Base table only: a cursor then starts the Query as its
   * ExclusiveStartKey, which keeps it inside the prefix.
   */
  sortKeyPrefix?: string;
  /** Ascending sort keys (an event's attempts, oldest first); lists are newest first otherwise. */
  oldestFirst?: boolean;
  /**
   * Keeps only the partition's items that match (a second filter on a small partition: a
   * source's few ledger entries of one type); the page still reads on until it is full.
   */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  /** Maps a cursor id to its sort key in this list, or undefined when it is not an item of it. */
  resolveCursor: (id: string) => Promise<string | undefined>;
}

/**
 * The usual `resolveCursor` of a list sorted by id: the cursor is an item this list `accepts`
 * (owned by the caller, of the filtered status, of the parent…), read with `get`.
 */
export function cursorById<T>(get: (id: string) => Promise<T | undefined>, accepts: (item: T) => boolean) {
  return async (id: string): Promise<string | undefined> => {
    const item = await get(id);
    return item !== undefined && accepts(item) ? id : undefined;
  };
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

const keyAttributes = (index: ListSource['index']) => (index === 'table' ? { pk: KEY.pk, sk: KEY.sk } : INDEXES[index]);

/**
 * One partition's Query for a page: its key condition (the items past the cursor, or under the
 * sort-key prefix, the cursor then being the Query's ExclusiveStartKey), the list's filter and
 * the direction (`queryMerged` asks for the page's `limit + 1`).
 */
function pageQuery(tableName: string, source: ListSource, partition: string, cursorKey: string | undefined, ascending: boolean): QueryCommandInput {
  const attributes = keyAttributes(source.index);
  let keyed: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'ExclusiveStartKey'>;
  if (source.sortKeyPrefix !== undefined) {
    if (source.index !== 'table') throw new Error('A sort-key prefix lists the base table only');
    keyed = {
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
      ExpressionAttributeValues: { ':pk': partition, ':prefix': source.sortKeyPrefix },
      ...(cursorKey !== undefined ? { ExclusiveStartKey: { [KEY.pk]: partition, [KEY.sk]: cursorKey } } : {}),
    };
  } else if (cursorKey === undefined) {
    keyed = { KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': attributes.pk }, ExpressionAttributeValues: { ':pk': partition } };
  } else {
    keyed = {
      KeyConditionExpression: `#pk = :pk AND #sk ${ascending ? '>' : '<'} :cursor`,
      ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
      ExpressionAttributeValues: { ':pk': partition, ':cursor': cursorKey },
    };
  }
  const { filter } = source;
  return {
    TableName: tableName,
    ...(source.index === 'table' ? {} : { IndexName: INDEXES[source.index].name }),
    ...keyed,
    ...(filter
      ? {
          FilterExpression: filter.expression,
          ExpressionAttributeNames: { ...keyed.ExpressionAttributeNames, ...filter.names },
          ExpressionAttributeValues: { ...keyed.ExpressionAttributeValues, ...filter.values },
        }
      : {}),
    ScanIndexForward: ascending,
  };
}

/** One page of a list, in the list's order, with the table's key attributes stripped. */
export async function listPage<T>(
  db: DynamoDBDocumentClient,
  tableName: string,
  source: ListSource,
  request: PageRequest,
): Promise<Page<T>> {
  const cursor = request.startingAfter ?? request.endingBefore;
  const attribute = request.startingAfter !== undefined ? 'starting_after' : 'ending_before';
  let cursorKey: string | undefined;
  if (cursor !== undefined) {
    cursorKey = await source.resolveCursor(cursor);
    if (cursorKey === undefined) throw new BusinessRuleError(`${attribute} does not name an item of this list`, attribute);
  }
  const backwards = request.endingBefore !== undefined;
  // Sort keys ascend when reading an oldest-first list forwards, or a newest-first one backwards.
  const ascending = backwards !== Boolean(source.oldestFirst);
  // Each partition read on past DynamoDB's 1 MB page until it holds the page plus one (for
  // `has_more`), or ends; merged, the first limit + 1 of them are the page's.
  const found = await queryMerged(db, source.partitions, (partition) => pageQuery(tableName, source, partition, cursorKey, ascending), {
    sortKey: keyAttributes(source.index).sk,
    max: request.limit + 1,
  });
  const items = found.slice(0, request.limit).map((item) => stripKeys<T>(item)!);
  return { items: backwards ? items.reverse() : items, hasMore: found.length > request.limit };
}

type Owned = { orgId: string; mode: Mode; status?: string };

/**
 * A scope's list of `entity`, newest first: all of it on GSI1, or one status on GSI2 (a cursor
 * must be an item the caller owns, of that status).
 */
export function scopeListPage<T extends Owned>(
  db: DynamoDBDocumentClient,
  tableName: string,
  entity: Pick<ReturnType<typeof defineEntity<T>>, 'partitions'>,
  get: (id: string) => Promise<T | undefined>,
  caller: Principal,
  request: PageRequest,
  status?: string,
): Promise<Page<T>> {
  const index = status ? 'gsi2' : 'gsi1';
  return listPage<T>(
    db,
    tableName,
    {
      index,
      partitions: entity.partitions(index, { scope: scopeOf(caller.orgId, caller.mode), status: status ?? '' }),
      resolveCursor: cursorById(get, (item) => isOwned(item, caller) && (!status || item.status === status)),
    },
    request,
  );
}
