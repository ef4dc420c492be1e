import * as z from './zod';
import { BusinessRuleError } from './errors';
import { datetimeInput } from './domain/inputs';
import { ceilMillis, instantNanos } from './time';

/**
 * List conventions for every list endpoint (product-decisions §2): `limit` 1..100 (default
 * 10), `starting_after` / `ending_before` cursors that are ids, newest first, one Query of at
 * most limit+1 items per page.
 */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** Query-string fields every list accepts; lists extend this with their own filters. */
export const listQueryFields = /* @__PURE__ */ (() => ({
    limit: z.withMeta(z.optional(z.string()), {
      description: `Page size, an integer from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); anything else is a 422 with attribute \`limit\`.`,
      override: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    }),
    starting_after: z.withMeta(z.optional(z.string()), {
      description: 'Cursor: the id of an item of this list (the last of the previous page); returns the items after it.',
    }),
    ending_before: z.withMeta(z.optional(z.string()), {
      description:
        'Cursor: the id of an item of this list (the first of the current page); returns the newer items before it. Not together with `starting_after`.',
    }),
  }))();

/**
 * The creation range of the lists that filter by it (product-decisions §18): ids are
 * time-ordered, so the range is a range of the list's sort key, read as a key condition.
 */
export const createdQueryFields = /* @__PURE__ */ (() => ({
  'created[gte]': z.withMeta(z.optional(datetimeInput), {
    description: 'Only the items created at or after this datetime (ISO 8601 with a time zone; in a query string, the `+` of an offset is written `%2B`).',
  }),
  'created[lt]': z.withMeta(z.optional(datetimeInput), { description: 'Only the items created before this datetime; later than `created[gte]` when both are given.' }),
}))();

/** The query of a list filtered by `status` (one of `statuses`) and the creation range (product-decisions §18). */
export const statusListQuery = <S extends readonly [string, ...string[]]>(statuses: S, id: string) =>
  z.withMeta(
    z.strictObject({
      ...listQueryFields,
      status: z.withMeta(z.optional(z.enum(statuses)), { description: 'Only the items in this status.' }),
      ...createdQueryFields,
    }),
    { id },
  );

/** The standard list query (`limit` and both cursors); unknown query fields are 400. */
export const ListQuery = /* @__PURE__ */ (() => z.withMeta(z.strictObject(listQueryFields), { id: 'ListQuery' }))();

/** `{has_more, data}`: the list answer of chargebacks, refunds, settlements, records and payments. */
export const pageSchema = <T extends z.ZodMiniType>(item: T, id: string, description: string) =>
  z.withMeta(
    z.strictObject({
      has_more: z.withMeta(z.boolean(), { description: 'Whether more items lie beyond this page in the direction of travel.' }),
      data: z.array(item),
    }),
    { id, description },
  );

/** `{object: "list", data, has_more}`: the list answer of payment links and a link's payments. */
export const objectListSchema = <T extends z.ZodMiniType>(item: T, id: string, description: string) =>
  z.withMeta(
    z.strictObject({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.withMeta(z.boolean(), { description: 'Whether more items lie beyond this page.' }),
    }),
    { id, description },
  );

/** A creation range in epoch milliseconds: from `gte` on (inclusive), before `lt`. */
export interface CreatedRange {
  gte?: number;
  lt?: number;
}

export interface PageRequest {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
  /** Only the items created in this range (`createdQueryFields`). */
  created?: CreatedRange;
}

/** The raw `created[gte]` / `created[lt]` of a query, valid datetimes each: the range, or a 422 at `created[lt]` when it is not after `created[gte]`. */
export function createdRange(raw: { 'created[gte]'?: string; 'created[lt]'?: string }): CreatedRange | undefined {
  const gte = raw['created[gte]'];
  const lt = raw['created[lt]'];
  if (gte === undefined && lt === undefined) return undefined;
  if (gte !== undefined && lt !== undefined && instantNanos(lt) <= instantNanos(gte)) {
    throw new BusinessRuleError('created[lt] must be later than created[gte]', 'created[lt]');
  }
  return { ...(gte !== undefined ? { gte: ceilMillis(gte) } : {}), ...(lt !== undefined ? { lt: ceilMillis(lt) } : {}) };
}

/**
 * Validates the list parameters (all 422, with the offending attribute). `isCursor` tells a
 * well-formed cursor of this list; whether it names an item is checked by `listPage` (shared/db/list-page.ts).
 */
export function pageRequest(
  raw: { limit?: string; starting_after?: string; ending_before?: string; 'created[gte]'?: string; 'created[lt]'?: string },
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
  const created = createdRange(raw);
  return { limit, startingAfter: raw.starting_after, endingBefore: raw.ending_before, ...(created ? { created } : {}) };
}
