import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { stripKeys } from './db/items';
import { KEY, INDEXES, type IndexName } from './db/table';
import { BusinessRuleError } from './errors';

/**
 * List conventions for every list endpoint (product-decisions §2): `limit` 1..100 (default
 * 10), `starting_after` / `ending_before` cursors that are ids, newest first, one Query of at
 * most limit+1 items per page.
 */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** Query-string fields every list accepts; lists extend this with their own filters. */
export const listQueryFields = {
  limit: z
    .string()
    .optional()
    .meta({
      description: `Page size, an integer from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); anything else is a 422 with attribute \`limit\`.`,
      override: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    }),
  starting_after: z
    .string()
    .optional()
    .meta({ description: 'Cursor: the id of an item of this list (the last of the previous page); returns the items after it.' }),
  ending_before: z
    .string()
    .optional()
    .meta({ description: 'Cursor: the id of an item of this list (the first of the current page); returns the newer items before it. Not together with `starting_after`.' }),
};

/** The standard list query (`limit` and both cursors); unknown query fields are 400. */
export const ListQuery = z.strictObject(listQueryFields).meta({ id: 'ListQuery' });

/** `{has_more, data}`: the list answer of chargebacks, refunds, settlements, records and payments. */
export const pageSchema = <T extends z.ZodType>(item: T, id: string, description: string) =>
  z
    .strictObject({
      has_more: z.boolean().meta({ description: 'Whether more items lie beyond this page in the direction of travel.' }),
      data: z.array(item),
    })
    .meta({ id, description });

/** `{object: "list", data, has_more}`: the list answer of payment links and a link's payments. */
export const objectListSchema = <T extends z.ZodType>(item: T, id: string, description: string) =>
  z
    .strictObject({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.boolean().meta({ description: 'Whether more items lie beyond this page.' }),
    })
    .meta({ id, description });

export interface PageRequest {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

/**
 * Validates the list parameters (all 422, with the offending attribute). `isCursor` tells a
 * well-formed cursor of this list; whether it names an item is checked by `listPage`.
 */
export function pageRequest(
  raw: { limit?: string; starting_after?: string; ending_before?: string },
  isCursor: (value: string) => boolean,
): PageRequest {
  let limit = DEFAULT_LIMIT;
  if (raw.limit !== undefined) {
    if (!/^[0-9]+$/.test(raw.limit) || Number(raw.limit) < 1 || Number(raw.limit) > MAX_LIMIT) {
      throw new BusinessRuleError(`limit must be an integer between 1 and ${MAX_LIMIT}`, 'limit');
    }
    limit = Number(raw.limit);
  }
  if (raw.starting_after !== undefined && raw.ending_before !== undefined) {
    throw new BusinessRuleError('Only one of starting_after and ending_before may be given', 'ending_before');
  }
  for (const [attribute, value] of [
    ['starting_after', raw.starting_after],
    ['ending_before', raw.ending_before],
  ] as const) {
    if (value !== undefined && !isCursor(value)) throw new BusinessRuleError(`${attribute} is not a valid cursor`, attribute);
  }
  return { limit, startingAfter: raw.starting_after, endingBefore: raw.ending_before };
}

export interface ListSource {
  /** `table` for the base table's PK/SK, or one of the global secondary indexes. */
  index: IndexName | 'table';
  partition: string;
  /** Maps a cursor id to its sort key in this list, or undefined when it is not an item of it. */
  resolveCursor: (id: string) => Promise<string | undefined>;
  /**
   * Only for lists whose filter no index partition can serve (event-type wildcards): a
   * FilterExpression, with Queries repeated until the page is full or the partition ends.
   */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
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

/** One page of a list, newest first, with the table's key attributes stripped. */
export async function listPage<T>(
  db: DynamoDBDocumentClient,
  tableName: string,
  source: ListSource,
  request: PageRequest,
): Promise<Page<T>> {
  const attributes = source.index === 'table' ? { pk: KEY.pk, sk: KEY.sk } : INDEXES[source.index];
  const cursor = request.startingAfter ?? request.endingBefore;
  const attribute = request.startingAfter !== undefined ? 'starting_after' : 'ending_before';
  let cursorKey: string | undefined;
  if (cursor !== undefined) {
    cursorKey = await source.resolveCursor(cursor);
    if (cursorKey === undefined) throw new BusinessRuleError(`${attribute} does not name an item of this list`, attribute);
  }
  const backwards = request.endingBefore !== undefined;
  const { filter } = source;
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        ...(source.index === 'table' ? {} : { IndexName: INDEXES[source.index].name }),
        KeyConditionExpression: cursorKey === undefined ? '#pk = :pk' : `#pk = :pk AND #sk ${backwards ? '>' : '<'} :cursor`,
        ...(filter ? { FilterExpression: filter.expression } : {}),
        ExpressionAttributeNames: { '#pk': attributes.pk, ...(cursorKey === undefined ? {} : { '#sk': attributes.sk }), ...filter?.names },
        ExpressionAttributeValues: { ':pk': source.partition, ...(cursorKey === undefined ? {} : { ':cursor': cursorKey }), ...filter?.values },
        ScanIndexForward: backwards,
        Limit: request.limit + 1,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(result.Items ?? []).map((item) => stripKeys<T>(item)!));
    startKey = filter ? result.LastEvaluatedKey : undefined;
  } while (startKey && found.length <= request.limit);
  const items = found.slice(0, request.limit);
  return { items: backwards ? items.reverse() : items, hasMore: found.length > request.limit };
}
