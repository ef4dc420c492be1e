import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { isOwned, type Owner } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import { adjacentId, firstIdAt, lastIdBefore, type IdKind } from '../ids';
import type { CreatedRange, PageRequest } from '../pagination';
import { scopeOf } from './entities';
import { stripKeys, type defineEntity } from './entity';
import { queryMerged } from './query-all';
import { KEY, INDEXES, type IndexName } from './table';

/**
 * One page of a list (product-decisions §2): newest first (or oldest first, when the source says
 * so), one Query of at most limit+1 items per partition of the list (its sub-partitions, read at
 * once and merged, when it is split: entities.ts), the cursor and the creation range mapped onto
 * the list's sort key. A report reads the same lists whole (`readList`), with the same Queries.
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
   * The list's sort keys are ids of this kind, so a creation range (product-decisions §18) is a
   * range of them: the Query's key condition, never a filter.
   */
  createdIds?: IdKind;
  /**
   * Keeps only the partition's items that match (a second filter on a small partition: a
   * source's few ledger entries of one type); the page still reads on until it is full.
   */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  /**
   * The partition holds one scope's items only, which need not be the caller's (a link's
   * payments, by the link's id): when its items are another scope's, the list is empty. At most
   * the page's Query is read to tell.
   */
  scopedTo?: Owner;
  /** Maps a cursor id to its sort key in this list, or undefined when it is not an item of it. */
  resolveCursor: (id: string) => Promise<string | undefined>;
}

/** What reading a list takes, cursors aside: where it is and how it is sorted (a report reads it whole). */
export type ListRead = Omit<ListSource, 'resolveCursor'>;

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

interface Bound {
  key: string;
  inclusive: boolean;
}

/** The sort keys a read may return: at or past each bound; `empty` when none can. */
type SortKeyRange = { lower?: Bound; upper?: Bound } | 'empty';

/**
 * The sort keys of a read of `source`: the creation range as ids (inclusive), narrowed by the
 * cursor (exclusive, in the direction of travel). DynamoDB takes one sort-key condition, so two
 * bounds are a BETWEEN of inclusive ones: an exclusive bound is then the id next to it, as every
 * sort key of a list with a creation range is an id.
 */
function sortKeyRange(source: ListRead, created: CreatedRange | undefined, cursorKey: string | undefined, ascending: boolean): SortKeyRange {
  const range: { lower?: Bound; upper?: Bound } = {};
  if (created) {
    if (!source.createdIds) throw new Error('This list has no creation range');
    if (created.gte !== undefined) range.lower = { key: firstIdAt(source.createdIds, created.gte), inclusive: true };
    if (created.lt !== undefined) range.upper = { key: lastIdBefore(source.createdIds, created.lt), inclusive: true };
  }
  if (cursorKey !== undefined) {
    const side = ascending ? 'lower' : 'upper';
    const present = range[side];
    const cursor = { key: cursorKey, inclusive: false };
    const tighter = present === undefined || (ascending ? cursorKey >= present.key : cursorKey <= present.key);
    if (tighter) range[side] = cursor;
  }
  const { lower, upper } = range;
  if (!lower || !upper) return range;
  const inclusiveLower = lower.inclusive ? lower.key : adjacentId(lower.key, 1);
  const inclusiveUpper = upper.inclusive ? upper.key : adjacentId(upper.key, -1);
  if (inclusiveLower > inclusiveUpper) return 'empty';
  return { lower: { key: inclusiveLower, inclusive: true }, upper: { key: inclusiveUpper, inclusive: true } };
}

/**
 * One partition's Query of a list: its key condition (the partition and its sort-key range, or
 * under the sort-key prefix, the cursor then being the Query's ExclusiveStartKey), the list's
 * filter and the direction. Unbounded: a page's read asks for `limit + 1` (`queryMerged`), a
 * report's reads on to the end.
 */
function partitionQuery(tableName: string, source: ListRead, partition: string, range: Exclude<SortKeyRange, 'empty'>, cursorKey: string | undefined, ascending: boolean): QueryCommandInput {
  const attributes = keyAttributes(source.index);
  let keyed: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'ExclusiveStartKey'>;
  const names = { '#pk': attributes.pk, '#sk': attributes.sk };
  const { lower, upper } = range;
  if (source.sortKeyPrefix !== undefined) {
    if (source.index !== 'table') throw new Error('A sort-key prefix lists the base table only');
    keyed = {
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': partition, ':prefix': source.sortKeyPrefix },
      ...(cursorKey !== undefined ? { ExclusiveStartKey: { [KEY.pk]: partition, [KEY.sk]: cursorKey } } : {}),
    };
  } else if (lower && upper) {
    keyed = {
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': partition, ':lower': lower.key, ':upper': upper.key },
    };
  } else if (lower || upper) {
    const bound = (lower ?? upper)!;
    const operator = `${lower ? '>' : '<'}${bound.inclusive ? '=' : ''}`;
    keyed = {
      KeyConditionExpression: `#pk = :pk AND #sk ${operator} :bound`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': partition, ':bound': bound.key },
    };
  } else {
    keyed = { KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': attributes.pk }, ExpressionAttributeValues: { ':pk': partition } };
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

/** Whether items read from a `scopedTo` partition belong to its caller (the first tells for all). */
const ownsPartition = (source: ListRead, items: Record<string, unknown>[]) =>
  !source.scopedTo || items.length === 0 || isOwned(items[0] as unknown as Owner, source.scopedTo);

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
  const range = sortKeyRange(source, request.created, cursorKey, ascending);
  if (range === 'empty') return { items: [], hasMore: false };
  // Each partition read on past DynamoDB's 1 MB page until it holds the page plus one (for
  // `has_more`), or ends; merged, the first limit + 1 of them are the page's.
  const found = await queryMerged(db, source.partitions, (partition) => partitionQuery(tableName, source, partition, range, cursorKey, ascending), {
    sortKey: keyAttributes(source.index).sk,
    max: request.limit + 1,
  });
  if (!ownsPartition(source, found)) return { items: [], hasMore: false };
  const items = found.slice(0, request.limit).map((item) => stripKeys<T>(item)!);
  return { items: backwards ? items.reverse() : items, hasMore: found.length > request.limit };
}

/**
 * Every item of a list in a creation range, in the list's order (a report's rows), with the
 * page's Queries but without a limit: each partition read one DynamoDB page (at most 1 MB) at a
 * time, the next one asked for while this one is taken, and merged by sort key as they come.
 * What it holds at once is two pages a partition, however long the list.
 */
export async function* readList<T>(db: DynamoDBDocumentClient, tableName: string, source: ListRead, created: CreatedRange | undefined): AsyncGenerator<T> {
  const ascending = Boolean(source.oldestFirst);
  const range = sortKeyRange(source, created, undefined, ascending);
  if (range === 'empty') return;
  const sortKey = keyAttributes(source.index).sk;
  const readers = source.partitions.map((partition) => partitionPages(db, partitionQuery(tableName, source, partition, range, undefined, ascending)));
  try {
    const heads = await Promise.all(readers.map((reader) => reader.next()));
    const pages = heads.map((head) => (head.done ? [] : head.value));
    if (!ownsPartition(source, pages.flat())) return;
    const positions = pages.map(() => 0);
    for (;;) {
      let next = -1;
      for (let i = 0; i < pages.length; i++) {
        if (positions[i] >= pages[i].length) continue;
        const key = String(pages[i][positions[i]][sortKey]);
        const best = next === -1 ? undefined : String(pages[next][positions[next]][sortKey]);
        if (best === undefined || (ascending ? key < best : key > best)) next = i;
      }
      if (next === -1) return;
      yield stripKeys<T>(pages[next][positions[next]])!;
      positions[next]++;
      if (positions[next] === pages[next].length) {
        const following = await readers[next].next();
        pages[next] = following.done ? [] : following.value;
        positions[next] = 0;
      }
    }
  } finally {
    // A reader left early (a failed upload) drops the reads it asked for ahead.
    await Promise.allSettled(readers.map((reader) => reader.return(undefined)));
  }
}

/** A partition's Query, page by page, the next page asked for as soon as one is handed over. */
async function* partitionPages(db: DynamoDBDocumentClient, input: QueryCommandInput): AsyncGenerator<Record<string, unknown>[]> {
  type Read = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };
  let pending: Promise<Read> | undefined = db.send(new QueryCommand(input));
  while (pending) {
    const page: Read = await pending;
    pending = page.LastEvaluatedKey ? db.send(new QueryCommand({ ...input, ExclusiveStartKey: page.LastEvaluatedKey })) : undefined;
    // Awaited on the next turn, unless the reader is left before: then nobody waits for its failure.
    pending?.catch(() => undefined);
    if (page.Items?.length) yield page.Items;
  }
}

type Owned = { orgId: string; mode: Mode; status?: string };

/** How a scope's list is laid out beyond GSI1 (all of it, newest first). */
export interface ScopeListLayout {
  /** The index of its one-status lists (GSI2 unless the entity's GSI2 is taken). */
  statusIndex?: IndexName;
  /** Its sort keys are ids of this kind: the list takes a creation range (product-decisions §18). */
  createdIds?: IdKind;
}

/**
 * A scope's list of `entity`, newest first: all of it on GSI1, or one status on its status index
 * (a cursor must be an item the caller owns, of that status).
 */
export function scopeListPage<T extends Owned>(
  db: DynamoDBDocumentClient,
  tableName: string,
  entity: Pick<ReturnType<typeof defineEntity<T>>, 'partitions'>,
  get: (id: string) => Promise<T | undefined>,
  caller: Principal,
  request: PageRequest,
  status?: string,
  layout: ScopeListLayout = {},
): Promise<Page<T>> {
  return listPage<T>(
    db,
    tableName,
    { ...scopeListSource(entity, caller, status, layout), resolveCursor: cursorById(get, (item) => isOwned(item, caller) && (!status || item.status === status)) },
    request,
  );
}

/** Where a scope's list of `entity` (all, or one status) is read: what its pages and its report read. */
export function scopeListSource<T extends Owned>(
  entity: Pick<ReturnType<typeof defineEntity<T>>, 'partitions'>,
  owner: Owner,
  status?: string,
  layout: ScopeListLayout = {},
): ListRead {
  const index = status ? (layout.statusIndex ?? 'gsi2') : 'gsi1';
  return {
    index,
    partitions: entity.partitions(index, { scope: scopeOf(owner.orgId, owner.mode), status: status ?? '' }),
    ...(layout.createdIds ? { createdIds: layout.createdIds } : {}),
  };
}
