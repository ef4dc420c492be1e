import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { isOwned } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import type { PageRequest } from '../pagination';
import { scopeOf } from './entities';
import { stripKeys, type defineEntity } from './entity';
import { KEY, INDEXES, type IndexName } from './table';

/**
 * One page of a list (product-decisions §2): newest first (or oldest first, when the source says
 * so), one Query of at most limit+1 items, the cursor mapped onto the list's sort key.
 */

export interface ListSource {
  /** `table` for the base table's PK/SK, or one of the global secondary indexes. */
  index: IndexName | 'table';
  partition: string;
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

/**
 * The Query's key condition: the partition, and the items past the cursor, or under the sort-key
 * prefix (the cursor is then the Query's ExclusiveStartKey).
 */
function keyCondition(
  source: ListSource,
  cursorKey: string | undefined,
  ascending: boolean,
): Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const attributes = source.index === 'table' ? { pk: KEY.pk, sk: KEY.sk } : INDEXES[source.index];
  if (source.sortKeyPrefix !== undefined) {
    if (source.index !== 'table') throw new Error('A sort-key prefix lists the base table only');
    return {
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
      ExpressionAttributeValues: { ':pk': source.partition, ':prefix': source.sortKeyPrefix },
    };
  }
  if (cursorKey === undefined) {
    return { KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': attributes.pk }, ExpressionAttributeValues: { ':pk': source.partition } };
  }
  return {
    KeyConditionExpression: `#pk = :pk AND #sk ${ascending ? '>' : '<'} :cursor`,
    ExpressionAttributeNames: { '#pk': attributes.pk, '#sk': attributes.sk },
    ExpressionAttributeValues: { ':pk': source.partition, ':cursor': cursorKey },
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
  const keyed = keyCondition(source, cursorKey, ascending);
  const condition = source.filter
    ? {
        ...keyed,
        FilterExpression: source.filter.expression,
        ExpressionAttributeNames: { ...keyed.ExpressionAttributeNames, ...source.filter.names },
        ExpressionAttributeValues: { ...keyed.ExpressionAttributeValues, ...source.filter.values },
      }
    : keyed;
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined =
    source.sortKeyPrefix !== undefined && cursorKey !== undefined ? { [KEY.pk]: source.partition, [KEY.sk]: cursorKey } : undefined;
  // A Query stops at 1 MB read: read on until the page (plus one, for `has_more`) is full.
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        ...(source.index === 'table' ? {} : { IndexName: INDEXES[source.index].name }),
        ...condition,
        ScanIndexForward: ascending,
        Limit: request.limit + 1 - found.length,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(result.Items ?? []).map((item) => stripKeys<T>(item)!));
    startKey = result.LastEvaluatedKey;
  } while (startKey && found.length <= request.limit);
  const items = found.slice(0, request.limit);
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
  entity: Pick<ReturnType<typeof defineEntity<T>>, 'partition'>,
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
      partition: entity.partition(index, { scope: scopeOf(caller.orgId, caller.mode), status: status ?? '' }),
      resolveCursor: cursorById(get, (item) => isOwned(item, caller) && (!status || item.status === status)),
    },
    request,
  );
}
