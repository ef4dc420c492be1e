import { ID_RANDOM_LENGTH } from '../ids';
import type { AuditObject } from '../domain/audit';
import { INDEXES, KEY, type IndexName } from './table';

/**
 * `defineEntity`: one declaration per kind of item (its `entity` tag, its key and index key
 * formats, when it belongs to a sparse index), from which its keys, its table item and the
 * record read back are derived. Formats are templates (`PL#{pl}`) over named values, so that
 * docs/architecture.md's item table can be checked against them word for word.
 *
 * Why not ElectroDB or dynamodb-toolbox: the service's writes are TransactWriteItems built by
 * hand, with named conditions and `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` read back per
 * action; both libraries wrap transactions in their own builders and item formats. What we need
 * from them, one declaration per entity, is these few lines (docs/decisions.md).
 */

type Values = Record<string, string | number>;

interface KeyFormat {
  pk: string;
  sk: string;
}

interface IndexFormat<T, C> extends KeyFormat {
  /** A sparse index: the item is in it only while this holds. */
  when?: (record: T, context: C) => boolean;
  /**
   * A list whose writes one partition cannot carry (product-decisions §2, docs/architecture.md
   * Capacity): its items are spread over this many sub-partitions by the id their sort key ends
   * with, and a page reads each of them (`partitions`). Sub-partition 0 is the list's key as it
   * is without them (so items written before a list was split, or with fewer, stay where they
   * are read); sub-partition n is that key followed by `#n`. The count only ever grows.
   */
  subPartitions?: number;
}

export interface EntityDefinition<T, C = void> {
  /** The `entity` attribute of every item. */
  name: string;
  /** The row of docs/architecture.md's item table. */
  label: string;
  key: KeyFormat;
  indexes?: Partial<Record<IndexName, IndexFormat<T, C>>>;
  /** The named values the formats use, taken from a record (and the write's context). */
  values?: (record: T, context: C) => Values;
  /**
   * The API object an item of this kind is, as an audit record names it (its kind and id): a
   * creation's record names the object its transaction puts (shared/db/audit-trail.ts).
   */
  object?: { type: AuditObject; id: (record: T) => string };
}

const TEMPLATE_VALUE = /\{(\w+)\}/g;

/** Fills a format's `{name}` slots; a missing value is a programming error. */
export function render(template: string, values: Values): string {
  return template.replace(TEMPLATE_VALUE, (_match, name: string) => {
    if (!(name in values)) throw new Error(`No value for {${name}} in ${template}`);
    return String(values[name]);
  });
}

/** The fixed start of a format, up to its first value: a `begins_with` prefix or a stream filter. */
export function literalPrefix(template: string): string {
  const slot = template.indexOf('{');
  return slot === -1 ? template : template.slice(0, slot);
}

/**
 * The sub-partition of `count` an item of a split list lives in: from the random end of the id
 * its sort key ends with, so it is stable, known without a read, and spread evenly (the ids made
 * in one millisecond count up by one, so they go round the sub-partitions in turn).
 */
export function subPartitionOf(sortKey: string, count: number): number {
  let sum = 0;
  for (const character of sortKey.slice(-ID_RANDOM_LENGTH)) sum += character.charCodeAt(0);
  return sum % count;
}

/** The key of sub-partition `n` of a list whose key is `partition`. */
const subPartitionKey = (partition: string, n: number) => (n === 0 ? partition : `${partition}#${n}`);

const KEY_ATTRIBUTES = new Set<string>([KEY.pk, KEY.sk, ...Object.values(INDEXES).flatMap((index) => [index.pk, index.sk])]);

/** The condition of a write that creates an item: none with its key exists yet (else ConditionalCheckFailed). */
export const IF_NEW = Object.freeze({ ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: Object.freeze({ '#pk': KEY.pk }) });

/** The condition of a write that changes an item which must exist (else ConditionalCheckFailed). */
export const IF_EXISTS = Object.freeze({ ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: Object.freeze({ '#pk': KEY.pk }) });

/** The stored record without the table's key attributes. */
export function stripKeys<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !KEY_ATTRIBUTES.has(name))) as T;
}

export function defineEntity<T extends object, C = void>(definition: EntityDefinition<T, C>) {
  const valuesOf = (record: T, context: C): Values => definition.values?.(record, context) ?? {};
  /** The attributes of the record's entry in one index, or undefined when the record is not in it (a sparse index). */
  function indexEntry(index: IndexName, record: T, context: C, values: Values): Record<string, string> | undefined {
    const format = definition.indexes![index]!;
    if (format.when && !format.when(record, context)) return undefined;
    const sortKey = render(format.sk, values);
    const partition = render(format.pk, values);
    return {
      [INDEXES[index].pk]: format.subPartitions ? subPartitionKey(partition, subPartitionOf(sortKey, format.subPartitions)) : partition,
      [INDEXES[index].sk]: sortKey,
    };
  }
  return {
    definition,
    /** The item's primary key. */
    key: (values: Values) => ({ [KEY.pk]: render(definition.key.pk, values), [KEY.sk]: render(definition.key.sk, values) }) as { PK: string; SK: string },
    /** The sort key of one of its indexes (a cursor's position in a list). */
    sortKey: (index: IndexName, values: Values) => render(definition.indexes![index]!.sk, values),
    /** The partition key of one of its indexes that is not split (a list's Query). */
    partition(index: IndexName, values: Values): string {
      const format = definition.indexes![index]!;
      if (format.subPartitions) throw new Error(`${definition.name}'s ${index} list is split: read its partitions`);
      return render(format.pk, values);
    },
    /** Every partition key of one of its index lists: its sub-partitions in order, or its one partition. */
    partitions(index: IndexName, values: Values): string[] {
      const format = definition.indexes![index]!;
      const partition = render(format.pk, values);
      return Array.from({ length: format.subPartitions ?? 1 }, (_, n) => subPartitionKey(partition, n));
    },
    /** The table item: the record with its key, the keys of every index it belongs to, and its tag. */
    item(record: T, context: C): Record<string, unknown> {
      const values = valuesOf(record, context);
      const item: Record<string, unknown> = { [KEY.pk]: render(definition.key.pk, values), [KEY.sk]: render(definition.key.sk, values) };
      for (const index of Object.keys(definition.indexes ?? {}) as IndexName[]) Object.assign(item, indexEntry(index, record, context, values));
      return { ...item, entity: definition.name, ...record };
    },
    /** The key attributes of the record in one index (for an UpdateItem that changes what they derive from), or undefined when it is not in it. */
    indexKeys: (index: IndexName, record: T, context: C) => indexEntry(index, record, context, valuesOf(record, context)),
    /** The record an item holds. */
    fromItem: (item: Record<string, unknown> | undefined) => stripKeys<T>(item),
  };
}
