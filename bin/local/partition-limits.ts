/**
 * DynamoDB's partition limits, for the contention layer (./contention.ts), off by default:
 * `DYNAMODB_PARTITION_SCALE` (for example 0.02) gives each partition key of the table and of
 * every global secondary index at most 1,000 WCU and 3,000 RCU a second times the scale, as
 * DynamoDB gives each partition ("Best practices for designing and using partition keys
 * effectively", bp-partition-key-design.html; the Knowledge Center's "How does DynamoDB handle
 * spiky workloads": burst capacity "can't alleviate partition-level throttling"). Units are
 * counted as DynamoDB counts them ("DynamoDB read and write operations",
 * read-write-operations.html; "Global secondary indexes", GSI.html#GSI.ThroughputConsiderations):
 * - item size: attribute names and values in UTF-8 bytes, a number 1 byte per two significant
 *   digits plus 1, a boolean or null 1, a list or map 3 plus 1 per element (CapacityUnitCalculations);
 * - a write: 1 WCU per KB of the larger of the item before and after, rounded up; a delete, of
 *   the item deleted; a write whose condition fails, of the item it would have written;
 * - in a TransactWriteItems, each item's table write twice over, a ConditionCheck included (on
 *   the item it read); its index writes once, as outside a transaction (ConsumedCapacity of real
 *   DynamoDB as nubo-db/dynoxide#188 measured it; DynamoDB Local doubles them too);
 * - each global secondary index the item is in before or after: a new entry 1 write of the new
 *   item, a removed one 1 of the old, a changed key 2 (the old entry deleted in its partition,
 *   the new one put in its own), a changed item under the same key 1 of the larger, an identical
 *   item none (ALL projection: an entry is the whole item);
 * - a read: the size DynamoDB Local reports as ConsumedCapacity (4 KB per RCU, halved when
 *   eventually consistent; a Query sums the items it read), and never less than one read's
 *   units, 1 strongly consistent or 0.5: a Query that finds nothing is "still charged"
 *   (read-write-operations.html), where DynamoDB Local reports none.
 * Each partition is a token bucket holding one second of its limit: a write is refused when its
 * partition lacks the units it needs, a read when its partition is already spent (a read's size
 * is known only after it), both with on-demand DynamoDB's error for a hot partition:
 * ThrottlingException with the reason `TableWriteKeyRangeThroughputExceeded` (`Index…`,
 * `…Read…`), or in a transaction the cancellation reason `ThrottlingError` (API_ThrottlingReason,
 * "Understanding GSI write throttling and back pressure", the TransactWriteItems reference).
 * Adaptive capacity's split for heat is not imitated: the hot partitions here are lists whose sort
 * keys only grow, which it cannot split (bp-partition-key-design.html).
 */

export const PARTITION_SCALE_VARIABLE = 'DYNAMODB_PARTITION_SCALE';

/** A partition's limits in DynamoDB, per second. */
export const PARTITION_LIMITS = { writeUnits: 1_000, readUnits: 3_000 } as const;

/** `DYNAMODB_PARTITION_SCALE`: 0 (or unset) leaves partitions unlimited. */
export function partitionScaleFrom(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[PARTITION_SCALE_VARIABLE];
  if (value === undefined || value === '') return 0;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 0) throw new Error(`${PARTITION_SCALE_VARIABLE} must be a number ≥ 0, not ${value}`);
  return scale;
}

/** An attribute value in DynamoDB's JSON wire form (`{"S": "…"}`). */
type AttributeValue = object;
export type WireItem = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: 1 byte per two significant digits, plus 1 (leading and trailing zeros trimmed). */
function numberBytes(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueBytes(value: AttributeValue): number {
  const [type, content] = (Object.entries(value)[0] ?? ['NULL', true]) as [string, unknown];
  switch (type) {
    case 'S':
      return utf8(content as string);
    case 'N':
      return numberBytes(content as string);
    case 'B':
      return Buffer.from(content as string, 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (content as string[]).reduce((sum, text) => sum + utf8(text), 0);
    case 'NS':
      return (content as string[]).reduce((sum, text) => sum + numberBytes(text), 0);
    case 'BS':
      return (content as string[]).reduce((sum, text) => sum + Buffer.from(text, 'base64').length, 0);
    case 'L':
      return 3 + (content as AttributeValue[]).reduce((sum, element) => sum + 1 + valueBytes(element), 0);
    case 'M':
      return 3 + Object.entries(content as WireItem).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueBytes(element), 0);
    default:
      return 0;
  }
}

/** An item's size as DynamoDB counts it: its attributes' names and values. */
export function itemBytes(item: WireItem | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueBytes(value), 0);
}

/** Write units of an item of `bytes`: 1 per KB, rounded up, at least 1. */
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** The key attributes of a table and of each of its global secondary indexes (hash first). */
export interface TableKeys {
  table: string[];
  indexes: { name: string; keys: string[] }[];
}

/** Units taken from one partition: of the table (`resource` 'table') or of an index, by its hash key's value. */
export interface Charge {
  resource: string;
  partition: string;
  units: number;
}

const hashOf = (item: WireItem, keys: string[]) => JSON.stringify(item[keys[0]]);
const inIndex = (item: WireItem | undefined, keys: string[]): item is WireItem => item !== undefined && keys.every((key) => item[key] !== undefined);
const sameKey = (a: WireItem, b: WireItem, keys: string[]) => keys.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
/** Two items alike, whatever the order their attributes came in. */
const sameItem = (a: WireItem, b: WireItem) => JSON.stringify(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : 1))) === JSON.stringify(Object.entries(b).sort(([x], [y]) => (x < y ? -1 : 1)));

/** One item a write touches, as the write leaves it. */
export interface ItemWrite {
  /** The item's key (or, for a Put, the item). */
  key: WireItem;
  kind: 'put' | 'update' | 'delete' | 'check';
  transactional: boolean;
}

/**
 * What a write of one item costs and where: the table's partition, and each index entry it puts,
 * changes or removes. `before` is the item as it was (none: new); `after` as the write leaves it.
 */
export function writeCharges(keys: TableKeys, write: ItemWrite, before: WireItem | undefined, after: WireItem | undefined): Charge[] {
  const tableBytes = write.kind === 'check' ? itemBytes(before) : Math.max(itemBytes(before), itemBytes(after));
  const charges: Charge[] = [
    { resource: 'table', partition: hashOf(after ?? before ?? write.key, keys.table), units: writeUnits(tableBytes) * (write.transactional ? 2 : 1) },
  ];
  if (write.kind === 'check') return charges;
  for (const index of keys.indexes) {
    const was = inIndex(before, index.keys) ? before : undefined;
    const is = inIndex(after, index.keys) ? after : undefined;
    if (was && is && sameKey(was, is, index.keys)) {
      if (!sameItem(was, is)) charges.push({ resource: index.name, partition: hashOf(is, index.keys), units: writeUnits(Math.max(itemBytes(was), itemBytes(is))) });
      continue;
    }
    if (was) charges.push({ resource: index.name, partition: hashOf(was, index.keys), units: writeUnits(itemBytes(was)) });
    if (is) charges.push({ resource: index.name, partition: hashOf(is, index.keys), units: writeUnits(itemBytes(is)) });
  }
  return charges;
}

/** A partition (a hash key's value, as `Charge.partition`) with its ids as `*` and its sub-partition as `#n`: what its list is, not whose. */
export function partitionShape(partition: string): string {
  const value = (JSON.parse(partition) as { S?: string; N?: string } | undefined)?.S ?? partition;
  return value.replace(/\b[a-z]+_[0-9a-z]{16,}/g, '*').replace(/#\d$/, '#n');
}

/** The value a Query's key condition gives its hash key (`#pk = :pk`), as the partition it reads. */
export function queryPartition(request: { KeyConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: WireItem }, hashKey: string): string | undefined {
  const names = request.ExpressionAttributeNames ?? {};
  for (const [, name, value] of (request.KeyConditionExpression ?? '').matchAll(/(#?[\w.-]+)\s*=\s*(:[\w-]+)/g)) {
    if ((names[name] ?? name) === hashKey && request.ExpressionAttributeValues?.[value]) return JSON.stringify(request.ExpressionAttributeValues[value]);
  }
  return undefined;
}

export type Direction = 'read' | 'write';

/**
 * Every partition's token buckets: one second of its limit (1,000 WCU or 3,000 RCU times
 * `scale`), filled at that rate. A write needs its units (or a full bucket, for one larger than
 * a second's worth); a read needs a bucket not yet spent.
 */
export function createPartitionBuckets(scale: number, now: () => number = () => performance.now()) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const rate = (direction: Direction) => (direction === 'write' ? PARTITION_LIMITS.writeUnits : PARTITION_LIMITS.readUnits) * scale;
  const bucketOf = (direction: Direction, charge: Pick<Charge, 'resource' | 'partition'>) => {
    const id = `${direction}|${charge.resource}|${charge.partition}`;
    let bucket = buckets.get(id);
    const at = now();
    if (!bucket) buckets.set(id, (bucket = { tokens: rate(direction), at }));
    bucket.tokens = Math.min(rate(direction), bucket.tokens + ((at - bucket.at) / 1000) * rate(direction));
    bucket.at = at;
    return bucket;
  };
  /** The units each partition is asked for, added up (a transaction may write one partition twice). */
  const byPartition = (charges: Charge[]) => {
    const summed = new Map<string, Charge>();
    for (const charge of charges) {
      const id = `${charge.resource}|${charge.partition}`;
      summed.set(id, { ...charge, units: (summed.get(id)?.units ?? 0) + charge.units });
    }
    return [...summed.values()];
  };
  return {
    /** The first of `charges` whose partition cannot take it now; undefined when all can. */
    refused(direction: Direction, charges: Charge[]): Charge | undefined {
      return byPartition(charges).find((charge) => {
        const { tokens } = bucketOf(direction, charge);
        return direction === 'read' ? tokens <= 0 : tokens < Math.min(charge.units, rate(direction));
      });
    },
    /** Takes the units (a bucket may go below empty, by a read larger than what was left, and refills from there). */
    take(direction: Direction, charges: Charge[]): void {
      for (const charge of charges) bucketOf(direction, charge).tokens -= charge.units;
    },
  };
}

export type PartitionBuckets = ReturnType<typeof createPartitionBuckets>;
