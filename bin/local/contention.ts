import type { KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { createHash, randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { addCounts, faultPlanFrom, faultsOf, type FaultKind, type FaultPlan, type Faults } from './faults';
import { partitionShape,
  createPartitionBuckets,
  partitionScaleFrom,
  queryPartition,
  writeCharges,
  type Charge,
  type Direction,
  type ItemWrite,
  type PartitionBuckets,
  type TableKeys,
  type WireItem,
} from './partition-limits';

/**
 * A local DynamoDB that contends like AWS (product-decisions §15): an HTTP proxy speaking
 * DynamoDB's JSON protocol, in front of DynamoDB Local, on the endpoint every client of the
 * local stack uses (the in-process handlers, the artifact workers through the AWS edge, `ops`,
 * the tests). DynamoDB Local runs one transaction at a time and never reports a conflict; this
 * layer refuses what DynamoDB refuses while a transaction is in flight, with DynamoDB's errors.
 *
 * The rules, from "Transaction conflict handling in DynamoDB" (DynamoDB developer guide,
 * transaction-apis.html), the API reference of TransactWriteItems and TransactGetItems (the
 * `TransactionConflict` cancellation reason, "Transaction is ongoing for the item") and the
 * service model (client-dynamodb's commands: TransactionConflictException is an error of
 * PutItem, UpdateItem and DeleteItem only):
 * 1. A PutItem, UpdateItem or DeleteItem of an item that an ongoing TransactWriteItems includes
 *    fails with TransactionConflictException (400, `message`).
 * 2. A TransactWriteItems with an item that another ongoing TransactWriteItems includes (Put,
 *    Update, Delete and ConditionCheck alike) fails with TransactionCanceledException (400,
 *    `Message`), its `CancellationReasons` in the order of `TransactItems`: `TransactionConflict`
 *    for each conflicting item, `None` for the others. Nothing of it is written.
 * 3. A TransactGetItems with an item that an ongoing TransactWriteItems, BatchWriteItem,
 *    PutItem, UpdateItem or DeleteItem is writing fails the same way; so does one in flight
 *    when such a write of one of its items begins (the write goes on).
 * 4. GetItem, BatchGetItem, Query and Scan never conflict ("both operations can succeed"), and
 *    nothing conflicts with them.
 * 5. What the documentation does not list is let through: a TransactWriteItems while a single
 *    write of the same item is in flight, a BatchWriteItem item during a transaction (its
 *    documented errors have no TransactionConflictException).
 * 6. The AWS SDK v3 retries neither error by itself: both are client faults (400) outside its
 *    throttling and transient lists (@smithy/core service-error-classification). "Error handling
 *    with DynamoDB" leaves the retry to the application, which is what the service does
 *    (`withConflictRetry`, shared/db/conditional.ts).
 *
 * A TransactWriteItems holds its items from the moment the layer accepts it until its answer
 * leaves the layer: DynamoDB Local's own time, then the hold (DYNAMODB_TRANSACTION_HOLD_MS,
 * default 25 ms: the median TransactWriteItems of 5 items measured from Lambda, 25.3 ms, in Alex
 * DeBrie's "DynamoDB Transactions Performance Testing", alexdebrie/dynamodb-performance-testing;
 * AWS documents no latency). The answer waits out the hold, as a client waits for the commit,
 * so a caller's next write is never refused by its own transaction. A design that serializes on
 * one item is then as slow here as in AWS; one that does not loses only the latency.
 *
 * The bookkeeping lives in this one process: every client goes through it, so workers in other
 * processes contend with each other. Items are identified by table and primary key (the key
 * schema from CreateTable as it passes, or DescribeTable once per table).
 *
 * With `databasePerTable` (a DynamoDB Local started without -sharedDb), each table lives in a
 * database of its own: the layer names it in the request's credential, which DynamoDB Local keys
 * its databases by. DynamoDB Local keeps every table's stream records in one store per database
 * and scans it on each GetRecords, so in one shared database a stream poll costs more with every
 * record any table ever wrote (20,000 records elsewhere made an idle stack's polling 2.7 times
 * dearer); in AWS a stream is its table's alone. A request names one table (the stack has one);
 * one naming none (ListTables) reaches the database of its own credential.
 *
 * Two more things DynamoDB does are imitated here, each off unless asked for, per table: its
 * partitions' limits (`DYNAMODB_PARTITION_SCALE`, ./partition-limits.ts) and the faults of
 * `FAULTS` (./faults.ts): a request refused with ProvisionedThroughputExceededException,
 * ThrottlingException or InternalServerError (in a TransactWriteItems, the cancellation reasons
 * `ProvisionedThroughputExceeded` and `ThrottlingError`), and a write that commits but whose
 * answer is lost (the connection drops; the SDK sends it again, a TransactWriteItems with the
 * same ClientRequestToken, which DynamoDB Local answers as DynamoDB does). The settings given
 * when the layer starts apply to every table; `configureTable` sets one table's (a test's).
 */

/** What a client sends to learn that a contention layer answers here, and what it has refused. */
const STATS_TARGET = 'LocalContention.Stats';
/** What a client sends to set one table's partition limits and faults. */
const CONFIGURE_TARGET = 'LocalContention.Configure';
const DYNAMODB_TARGET = 'DynamoDB_20120810.';
const STREAMS_TARGET = 'DynamoDBStreams_20120810.';
const JSON_1_0 = 'application/x-amz-json-1.0';
const ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';
const ONGOING = 'Transaction is ongoing for the item';

export const TRANSACTION_HOLD_VARIABLE = 'DYNAMODB_TRANSACTION_HOLD_MS';
export const DEFAULT_TRANSACTION_HOLD_MS = 25;

/** The hold of a transaction's items after DynamoDB Local answered it, from the environment. */
export function transactionHoldMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[TRANSACTION_HOLD_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_TRANSACTION_HOLD_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`${TRANSACTION_HOLD_VARIABLE} must be a whole number of milliseconds, not ${value}`);
  return ms;
}

export interface ContentionStats {
  /** The requests refused for a conflict, per operation. */
  conflicts: Record<string, number>;
  /** TransactWriteItems that held their items. */
  transactions: number;
  holdMs: number;
  /** The requests refused for a partition's limit, per operation (of one table, when asked about one). */
  throttled: Record<string, number>;
  /** The faults injected, by kind (of one table, when asked about one). */
  faults: Partial<Record<FaultKind, number>>;
  /** The read and write units taken by the tables limited or metered (of one table, when asked about one). */
  units: Record<Direction, number>;
  /**
   * The units by direction, resource (`table` or an index) and partition, its ids as `*` and
   * its sub-partition as `#n` (`write GSI1 ORG#*#test#EVT#n`): where a workload's units go.
   */
  unitsBy: Partial<Record<string, number>>;
}

/** One table's partition limits and faults. */
export interface TableSettings {
  /** The share of DynamoDB's partition limits each partition gets; 0: unlimited. */
  partitionScale?: number;
  /** Its faults from now on (null: none); left as they are when absent. */
  faults?: FaultPlan | null;
  /** Count the read and write units it takes, as DynamoDB bills them (`npm run bench:cost`), whether limited or not. */
  meter?: boolean;
}

export interface ContentionLayer {
  endpoint: string;
  stats(): ContentionStats;
  close(): Promise<void>;
}

type Item = Record<string, unknown>;
/** One item a request touches: its table and its key (or the whole item, for a Put). */
type Target = { TableName: string; Key?: Item; Item?: Item };

interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** The write committed, but its answer is lost: the connection drops instead. */
  lost?: boolean;
}

/** The operations that read or write items: where partition limits and faults apply. */
const ITEM_OPERATIONS = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactGetItems', 'TransactWriteItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** A TransactGetItems in flight: the items that a write began on meanwhile. */
interface Reader {
  written: Set<string>;
}

/** Hop-by-hop headers are the layer's own business on each side. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

function awsError(type: string, fields: Record<string, unknown>): Answer {
  const body = Buffer.from(JSON.stringify({ __type: `${ERROR_PREFIX}${type}`, ...fields }));
  return { status: 400, headers: { 'content-type': JSON_1_0, 'content-length': body.length, 'x-amzn-requestid': randomUUID() }, body };
}

const conflictAnswer = () => awsError('TransactionConflictException', { message: ONGOING });

/** A TransactionCanceledException: `reasons` per action, in order (undefined: `None`). */
function cancelled(reasons: ({ Code: string; Message: string } | undefined)[]): Answer {
  const codes = reasons.map((reason) => reason?.Code ?? 'None');
  return awsError('TransactionCanceledException', {
    CancellationReasons: reasons.map((reason) => reason ?? { Code: 'None' }),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  });
}

const cancellationAnswer = (conflicting: boolean[]) => cancelled(conflicting.map((conflict) => (conflict ? { Code: 'TransactionConflict', Message: ONGOING } : undefined)));

/**
 * DynamoDB's words for a throttled request, from the TransactionCanceledException reference (on-demand's
 * ThrottlingError, provisioned's ProvisionedThroughputExceeded) and API_ThrottlingReason.
 */
const THROTTLED_TABLE = 'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html.';
const THROTTLED_INDEX = 'Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly.';
const PROVISIONED_TABLE = 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.';

type Refusal = 'throttling' | 'provisioned';

/** A request throttled on `resource` ('table' or an index) of `table`: the single request's error, or the transaction's reason. */
function throttled(refusal: Refusal, table: string, resource: string, direction: 'Read' | 'Write') {
  const onIndex = resource !== 'table';
  const limit = refusal === 'throttling' ? 'KeyRangeThroughputExceeded' : 'ProvisionedThroughputExceeded';
  const arn = `arn:aws:dynamodb:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:table/${table}${onIndex ? `/index/${resource}` : ''}`;
  const message = refusal === 'provisioned' ? PROVISIONED_TABLE : onIndex ? THROTTLED_INDEX : THROTTLED_TABLE;
  return {
    answer: () =>
      awsError(refusal === 'throttling' ? 'ThrottlingException' : 'ProvisionedThroughputExceededException', {
        message,
        ThrottlingReasons: [{ reason: `${onIndex ? 'Index' : 'Table'}${direction}${limit}`, resource: arn }],
      }),
    reason: { Code: refusal === 'throttling' ? 'ThrottlingError' : 'ProvisionedThroughputExceeded', Message: message },
  };
}

const internalError = (): Answer => ({ ...awsError('InternalServerError', { message: 'Internal server error' }), status: 500 });

/** The key attributes of a table, hash key first as DynamoDB requires them. */
const keyNames = (schema: KeySchemaElement[] | undefined) => (schema ?? []).map((element) => element.AttributeName!);

/** A table, a stream or a shard iterator (which starts with its stream's ARN) names its table this way. */
const TABLE_IN_ARN = /:table\/([^/|"]+)/;

/** The one table a DynamoDB or DynamoDB Streams request is about; undefined for one about none (ListTables). */
function tableOf(request: Record<string, unknown>): string | undefined {
  if (typeof request.TableName === 'string') return request.TableName;
  const arn = request.StreamArn ?? request.ShardIterator ?? request.ResourceArn;
  if (typeof arn === 'string') return TABLE_IN_ARN.exec(arn)?.[1];
  const first = (request.TransactItems as Record<string, Target>[] | undefined)?.[0];
  if (first) return Object.values(first)[0]?.TableName;
  const items = request.RequestItems;
  return items !== null && typeof items === 'object' ? Object.keys(items)[0] : undefined;
}

const databaseKeys = new Map<string, string>();

/** The access key DynamoDB Local keys a table's own database by: letters and digits only, as it requires. */
function databaseKey(table: string): string {
  let key = databaseKeys.get(table);
  if (!key) databaseKeys.set(table, (key = `T${createHash('sha256').update(table).digest('hex').slice(0, 19).toUpperCase()}`));
  return key;
}

/** The credential scope of a SigV4 Authorization header: access key, date, region. */
const CREDENTIAL = /Credential=[^/]*\/([^/]*)\/[^/]*\//;

/**
 * The Authorization header of the layer's own requests: DynamoDB Local reads the credential
 * (the key and region of the stack's clients, `localAwsConfig`), not the signature.
 */
const ownAuthorization = () =>
  `AWS4-HMAC-SHA256 Credential=local/20260101/${process.env.AWS_REGION ?? 'local'}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`;

/** A request's headers with its credential naming `table`'s database (the region fixed, as DynamoDB Local keys by it too). */
const toDatabaseOf = (table: string, headers: IncomingHttpHeaders): IncomingHttpHeaders => ({
  ...headers,
  authorization: (headers.authorization ?? ownAuthorization()).replace(CREDENTIAL, `Credential=${databaseKey(table)}/$1/local/`),
});

/** One item a write request touches, with its table. */
type TableWrite = ItemWrite & { table: string; item?: WireItem };

/** The items a write request writes or checks, in the order of the request. */
function itemWrites(operation: string, request: Record<string, unknown>): TableWrite[] {
  const one = (kind: ItemWrite['kind'], target: Target, transactional: boolean): TableWrite => ({
    table: target.TableName,
    key: (target.Key ?? target.Item) as WireItem,
    item: kind === 'put' ? (target.Item as WireItem) : undefined,
    kind,
    transactional,
  });
  switch (operation) {
    case 'PutItem':
      return [one('put', request as Target, false)];
    case 'UpdateItem':
      return [one('update', request as Target, false)];
    case 'DeleteItem':
      return [one('delete', request as Target, false)];
    case 'TransactWriteItems': {
      const kinds: Record<string, ItemWrite['kind']> = { Put: 'put', Update: 'update', Delete: 'delete', ConditionCheck: 'check' };
      return ((request.TransactItems as Record<string, Target>[] | undefined) ?? []).map((action) => {
        const [kind, target] = Object.entries(action ?? {})[0] ?? [];
        return one(kinds[kind] ?? 'check', target, true);
      });
    }
    case 'BatchWriteItem':
      return Object.entries((request.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>) ?? {}).flatMap(([TableName, requests]) =>
        requests.map((write) => (write?.PutRequest ? one('put', { TableName, Item: write.PutRequest.Item }, false) : one('delete', { TableName, Key: write?.DeleteRequest?.Key }, false))),
      );
    default:
      return [];
  }
}

/** The layer on 127.0.0.1:`port`, forwarding to the DynamoDB at `upstream`; every table's partition limits and faults are `tables` (by default the environment's). */
export async function startContentionLayer(options: {
  port: number;
  upstream: string;
  holdMs?: number;
  databasePerTable?: boolean;
  tables?: TableSettings;
}): Promise<ContentionLayer> {
  const holdMs = options.holdMs ?? transactionHoldMs();
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const keySchemas = new Map<string, Promise<TableKeys | undefined>>();
  const everyTable: TableSettings = options.tables ?? { partitionScale: partitionScaleFrom(), faults: faultPlanFrom() };
  /** Each table's partition buckets, faults, what they refused, and (metered) the units it took. */
  const tables = new Map<
    string,
    { scale: number; buckets?: PartitionBuckets; metered: boolean; units: Record<Direction, number>; unitsBy: Partial<Record<string, number>>; faults: Faults; throttled: Record<string, number> }
  >();
  /** A table's settings from now on; what it has refused and injected so far stays counted. */
  function configure(table: string, settings: TableSettings) {
    const state = tables.get(table) ?? { scale: 0, metered: false, units: { read: 0, write: 0 }, unitsBy: {}, faults: faultsOf(undefined, `dynamodb:${table}`), throttled: {} };
    if (settings.partitionScale !== undefined && settings.partitionScale !== state.scale) {
      state.scale = settings.partitionScale;
      state.buckets = state.scale > 0 ? createPartitionBuckets(state.scale) : undefined;
    }
    if (settings.meter !== undefined) state.metered = settings.meter;
    if ('faults' in settings) state.faults.replan(settings.faults ?? undefined);
    tables.set(table, state);
  }
  const tableState = (table: string) => {
    if (!tables.has(table)) configure(table, everyTable);
    return tables.get(table)!;
  };
  type TableState = ReturnType<typeof tableState>;

  /** A table's partitions, as far as it limits them, and its meter: what a request may take, and what it took. */
  const accountsOf = (state: TableState) => ({
    refused: (direction: Direction, charges: Charge[]) => state.buckets?.refused(direction, charges),
    take(direction: Direction, charges: Charge[]) {
      state.buckets?.take(direction, charges);
      for (const charge of charges) {
        state.units[direction] += charge.units;
        const where = `${direction} ${charge.resource} ${partitionShape(charge.partition)}`;
        state.unitsBy[where] = (state.unitsBy[where] ?? 0) + charge.units;
      }
    },
  });
  type Accounts = ReturnType<typeof accountsOf>;
  /** Items of the TransactWriteItems in flight (one at most per item: a second one conflicts). */
  const transacting = new Set<string>();
  /** Items of the other writes in flight, with their number. */
  const writing = new Map<string, number>();
  const readers = new Map<string, Set<Reader>>();
  const stats = { conflicts: {} as Record<string, number>, transactions: 0, holdMs };

  function refused(operation: string, answer: Answer): Answer {
    stats.conflicts[operation] = (stats.conflicts[operation] ?? 0) + 1;
    return answer;
  }

  /** A request of the layer's own to DynamoDB Local, about `table`. */
  async function ask(table: string, operation: string, request: unknown): Promise<Record<string, unknown> | undefined> {
    const headers = { 'x-amz-target': `${DYNAMODB_TARGET}${operation}`, 'content-type': JSON_1_0, authorization: ownAuthorization() };
    const answer = await forward('/', options.databasePerTable ? toDatabaseOf(table, headers) : headers, Buffer.from(JSON.stringify(request)));
    return answer.status === 200 ? (JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>) : undefined;
  }

  /** The key attributes of a table and its indexes; undefined for a table DynamoDB does not know (its own error follows). */
  function keySchema(table: string): Promise<TableKeys | undefined> {
    let schema = keySchemas.get(table);
    if (!schema) {
      schema = ask(table, 'DescribeTable', { TableName: table }).then(
        (answer) => {
          const described = answer?.Table as { KeySchema?: KeySchemaElement[]; GlobalSecondaryIndexes?: { IndexName: string; KeySchema: KeySchemaElement[] }[] } | undefined;
          return described && { table: keyNames(described.KeySchema), indexes: (described.GlobalSecondaryIndexes ?? []).map((index) => ({ name: index.IndexName, keys: keyNames(index.KeySchema) })) };
        },
        () => undefined,
      );
      keySchemas.set(table, schema);
      void schema.then((names) => names === undefined && keySchemas.delete(table));
    }
    return schema;
  }

  async function itemId(target: Target | undefined): Promise<string | undefined> {
    if (!target?.TableName) return undefined;
    const names = (await keySchema(target.TableName))?.table;
    const item = target.Key ?? target.Item;
    if (!names || !item) return undefined;
    return JSON.stringify([target.TableName, ...names.map((name) => item[name])]);
  }

  /** The items now at these keys (strongly consistent), by key; absent ones are not in the map. */
  async function currentItems(table: string, keys: TableKeys, items: WireItem[]): Promise<Map<string, WireItem>> {
    const keyOf = (item: WireItem) => Object.fromEntries(keys.table.map((name) => [name, item[name]]));
    const idOf = (item: WireItem) => JSON.stringify(keys.table.map((name) => item[name]));
    const found = new Map<string, WireItem>();
    let wanted = [...new Map(items.map((item) => [idOf(item), keyOf(item)])).values()];
    while (wanted.length > 0) {
      const batch = wanted.slice(0, 100);
      const answer = await ask(table, 'BatchGetItem', { RequestItems: { [table]: { Keys: batch, ConsistentRead: true } } });
      for (const item of ((answer?.Responses as Record<string, WireItem[]> | undefined)?.[table] ?? [])) found.set(idOf(item), item);
      const unprocessed = (answer?.UnprocessedKeys as Record<string, { Keys: WireItem[] }> | undefined)?.[table]?.Keys ?? [];
      wanted = [...unprocessed, ...wanted.slice(100)];
      if (!answer) break;
    }
    return found;
  }

  /**
   * Partition limits of a write request: its items as they are now, what it would cost, and
   * either the refusal or, once it is answered, the units it took. A BatchWriteItem sends on
   * only the items their partitions can take; the others come back as its UnprocessedItems.
   */
  async function limitWrite(operation: string, request: Record<string, unknown>, table: string, buckets: Accounts) {
    const keys = await keySchema(table);
    if (!keys) return undefined;
    const writes = itemWrites(operation, request);
    const idOf = (item: WireItem) => JSON.stringify(keys.table.map((name) => item[name]));
    const before = await currentItems(table, keys, writes.map((write) => write.key));
    const was = (write: TableWrite) => before.get(idOf(write.key));
    /** The write's cost as far as it is known before: an update's item as it was. */
    const estimate = (write: TableWrite) => writeCharges(keys, write, was(write), write.kind === 'put' ? write.item : write.kind === 'delete' ? undefined : (was(write) ?? write.key));
    const refusedBy = writes.map((write) => buckets.refused('write', estimate(write)));
    const refusal = (charge: Charge) => throttled('throttling', table, charge.resource, 'Write');
    let sent = writes;
    let body: Buffer | undefined;
    if (operation === 'TransactWriteItems' && refusedBy.some(Boolean)) return { refusal: cancelled(refusedBy.map((charge) => charge && refusal(charge).reason)) };
    if (operation === 'BatchWriteItem' && refusedBy.some(Boolean)) {
      if (refusedBy.every(Boolean)) return { refusal: refusal(refusedBy[0]!).answer() };
      const requests = (request.RequestItems as Record<string, unknown[]>)[table];
      sent = writes.filter((_write, index) => !refusedBy[index]);
      const unprocessed = requests.filter((_write, index) => refusedBy[index]);
      body = Buffer.from(JSON.stringify({ ...request, RequestItems: { [table]: requests.filter((_write, index) => !refusedBy[index]) } }));
      return { body, settle: (answer: Answer) => settleWrite(answer, unprocessed) };
    }
    if (refusedBy[0]) return { refusal: refusal(refusedBy[0]).answer() };
    return { settle: (answer: Answer) => settleWrite(answer) };

    /** Takes what the write cost: its items as it left them, or, refused by a condition, the table's units of what it tried. */
    async function settleWrite(answer: Answer, unprocessed: unknown[] = []): Promise<Answer> {
      const parsed = answer.status === 200 || answer.status === 400 ? (JSON.parse(answer.body.toString('utf8') || '{}') as Record<string, unknown>) : {};
      if (answer.status === 200) {
        const updated = sent.filter((write) => write.kind === 'update');
        const after = updated.length > 0 ? await currentItems(table, keys!, updated.map((write) => write.key)) : new Map<string, WireItem>();
        const isNow = (write: TableWrite) => (write.kind === 'put' ? write.item : write.kind === 'update' ? after.get(idOf(write.key)) : write.kind === 'check' ? was(write) : undefined);
        buckets.take('write', sent.flatMap((write) => writeCharges(keys!, write, was(write), isNow(write))));
        if (unprocessed.length === 0) return answer;
        const merged = Buffer.from(JSON.stringify({ ...parsed, UnprocessedItems: { [table]: unprocessed } }));
        return { ...answer, body: merged, headers: { ...answer.headers, 'content-length': merged.length } };
      }
      if (String(parsed.__type ?? '').endsWith('#ConditionalCheckFailedException')) buckets.take('write', estimate(sent[0]).slice(0, 1));
      return answer;
    }
  }

  /**
   * Partition limits of a GetItem or Query: refused when its partition is spent; otherwise it
   * asks DynamoDB Local for its ConsumedCapacity (given back only to a client that asked for it)
   * and takes that.
   */
  async function limitRead(operation: string, request: Record<string, unknown>, table: string, buckets: Accounts) {
    const keys = await keySchema(table);
    if (!keys) return undefined;
    const index = typeof request.IndexName === 'string' ? keys.indexes.find((candidate) => candidate.name === request.IndexName) : undefined;
    const resource = index?.name ?? 'table';
    const hashKey = (index?.keys ?? keys.table)[0];
    const partition = operation === 'GetItem' ? JSON.stringify((request.Key as WireItem | undefined)?.[hashKey]) : queryPartition(request as Parameters<typeof queryPartition>[0], hashKey);
    if (partition === undefined) return undefined;
    if (buckets.refused('read', [{ resource, partition, units: 0 }])) return { refusal: throttled('throttling', table, resource, 'Read').answer() };
    const asked = request.ReturnConsumedCapacity !== undefined && request.ReturnConsumedCapacity !== 'NONE';
    return {
      body: asked ? undefined : Buffer.from(JSON.stringify({ ...request, ReturnConsumedCapacity: 'TOTAL' })),
      async settle(answer: Answer): Promise<Answer> {
        if (answer.status !== 200) return answer;
        const parsed = JSON.parse(answer.body.toString('utf8')) as { ConsumedCapacity?: { CapacityUnits?: number } };
        // A read that finds nothing still takes a read's units in DynamoDB; DynamoDB Local reports none for such a Query.
        const least = request.ConsistentRead === true ? 1 : 0.5;
        buckets.take('read', [{ resource, partition, units: Math.max(parsed.ConsumedCapacity?.CapacityUnits ?? 0, least) }]);
        if (asked) return answer;
        delete parsed.ConsumedCapacity;
        const body = Buffer.from(JSON.stringify(parsed));
        return { ...answer, body, headers: { ...answer.headers, 'content-length': body.length } };
      },
    };
  }

  /**
   * The faults of `FAULTS` that refuse a request before it reaches DynamoDB Local: throttled
   * (a transaction cancelled with the reason), or a 500.
   */
  function refusingFault(operation: string, request: Record<string, unknown>, table: string, faults: Faults): Answer | undefined {
    const direction = WRITES.has(operation) ? 'Write' : 'Read';
    for (const [kind, refusal] of [
      ['dynamodb.provisioned-throughput', 'provisioned'],
      ['dynamodb.throttling', 'throttling'],
    ] as const) {
      if (!faults.strikes(kind, operation)) continue;
      const refused = throttled(refusal, table, 'table', direction);
      if (operation !== 'TransactWriteItems') return refused.answer();
      const actions = (request.TransactItems as unknown[] | undefined) ?? [];
      return cancelled(actions.map((_action, index) => (index === 0 ? refused.reason : undefined)));
    }
    return faults.strikes('dynamodb.internal-error', operation) ? internalError() : undefined;
  }

  const itemIds = (targets: (Target | undefined)[]) => Promise.all(targets.map(itemId));
  const known = (ids: (string | undefined)[]) => [...new Set(ids.filter((id): id is string => id !== undefined))];

  /** A write begins on these items: a TransactGetItems reading one of them fails (rule 3). */
  function writeBegins(ids: string[]) {
    for (const id of ids) for (const reader of readers.get(id) ?? []) reader.written.add(id);
  }

  function forward(path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const call = httpRequest(
        { host: upstream.hostname, port: upstream.port, path, method: 'POST', headers: { ...headers, host: upstream.host }, agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () => {
            const received = Buffer.concat(chunks);
            const kept = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
            resolve({ status: answer.statusCode ?? 500, headers: { ...Object.fromEntries(kept), 'content-length': received.length }, body: received });
          });
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  }

  /** Rule 1: a single write, refused while a transaction holds its item. */
  async function singleWrite(operation: string, request: Target, send: () => Promise<Answer>): Promise<Answer> {
    const id = await itemId(request);
    if (id !== undefined && transacting.has(id)) return refused(operation, conflictAnswer());
    return whileWriting(id === undefined ? [] : [id], send);
  }

  async function whileWriting(ids: string[], send: () => Promise<Answer>): Promise<Answer> {
    for (const id of ids) writing.set(id, (writing.get(id) ?? 0) + 1);
    writeBegins(ids);
    try {
      return await send();
    } finally {
      for (const id of ids) {
        const left = writing.get(id)! - 1;
        if (left === 0) writing.delete(id);
        else writing.set(id, left);
      }
    }
  }

  /** Rule 2 and the hold. */
  async function transactWrite(actions: Record<string, Target>[], send: () => Promise<Answer>): Promise<Answer> {
    const ids = await itemIds(actions.map((action) => Object.values(action ?? {})[0]));
    const conflicting = ids.map((id) => id !== undefined && transacting.has(id));
    if (conflicting.some(Boolean)) return refused('TransactWriteItems', cancellationAnswer(conflicting));
    const held = known(ids);
    for (const id of held) transacting.add(id);
    writeBegins(held);
    stats.transactions++;
    try {
      const answer = await send();
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      return answer;
    } finally {
      for (const id of held) transacting.delete(id);
    }
  }

  /** Rule 3: refused when a write of one of its items is in flight, or begins before DynamoDB Local answered. */
  async function transactGet(gets: { Get?: Target }[], send: () => Promise<Answer>): Promise<Answer> {
    const ids = await itemIds(gets.map((get) => get?.Get));
    const busy = (id: string | undefined) => id !== undefined && (transacting.has(id) || writing.has(id));
    if (ids.some(busy)) return refused('TransactGetItems', cancellationAnswer(ids.map(busy)));
    const reader: Reader = { written: new Set() };
    const watched = known(ids);
    for (const id of watched) readers.set(id, (readers.get(id) ?? new Set()).add(reader));
    let answer: Answer;
    try {
      answer = await send();
    } finally {
      for (const id of watched) {
        readers.get(id)!.delete(reader);
        if (readers.get(id)!.size === 0) readers.delete(id);
      }
    }
    if (answer.status !== 200 || reader.written.size === 0) return answer;
    return refused('TransactGetItems', cancellationAnswer(ids.map((id) => id !== undefined && reader.written.has(id))));
  }

  /**
   * A request as DynamoDB would take it: its table's faults first, then its partitions' limits,
   * then the rules of contention; a write that commits may lose its answer to a fault.
   */
  async function serve(operation: string, request: Record<string, unknown>, send: (body?: Buffer) => Promise<Answer>): Promise<Answer> {
    const table = ITEM_OPERATIONS.has(operation) ? tableOf(request) : undefined;
    if (!table) return contend(operation, request, () => send());
    const state = tableState(table);
    const fault = refusingFault(operation, request, table, state.faults);
    if (fault) return fault;
    const limits = !state.buckets && !state.metered
      ? undefined
      : WRITES.has(operation)
        ? await limitWrite(operation, request, table, accountsOf(state))
        : operation === 'GetItem' || operation === 'Query'
          ? await limitRead(operation, request, table, accountsOf(state))
          : undefined;
    if (limits && 'refusal' in limits && limits.refusal) {
      state.throttled[operation] = (state.throttled[operation] ?? 0) + 1;
      return limits.refusal;
    }
    const body = limits && 'body' in limits ? limits.body : undefined;
    let answer = await contend(operation, request, () => send(body));
    if (limits && 'settle' in limits && limits.settle) answer = await limits.settle(answer);
    if (answer.status === 200 && WRITES.has(operation) && state.faults.strikes('dynamodb.lost-answer', operation)) return { ...answer, lost: true };
    return answer;
  }

  /** The rules of contention (the module's comment), around `send`. */
  async function contend(operation: string, request: Record<string, unknown>, send: () => Promise<Answer>): Promise<Answer> {
    switch (operation) {
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return singleWrite(operation, request as Target, send);
      case 'TransactWriteItems':
        return transactWrite((request.TransactItems as Record<string, Target>[] | undefined) ?? [], send);
      case 'TransactGetItems':
        return transactGet((request.TransactItems as { Get?: Target }[] | undefined) ?? [], send);
      case 'BatchWriteItem': {
        const writes = Object.entries((request.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>) ?? {}).flatMap(
          ([TableName, requests]) => requests.map((write) => ({ TableName, Item: write?.PutRequest?.Item, Key: write?.DeleteRequest?.Key })),
        );
        return whileWriting(known(await itemIds(writes)), send);
      }
      case 'UpdateTable':
      case 'DeleteTable': {
        const answer = await send();
        keySchemas.delete(String(request.TableName));
        return answer;
      }
      default:
        return send();
    }
  }

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const target = String(request.headers['x-amz-target'] ?? '');
    let parsed: Record<string, unknown> | undefined;
    try {
      // A stream request is read only for its table.
      if (target.startsWith(DYNAMODB_TARGET) || (options.databasePerTable && target.startsWith(STREAMS_TARGET))) parsed = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      // DynamoDB Local answers the malformed request.
    }
    const table = options.databasePerTable && parsed ? tableOf(parsed) : undefined;
    const headers = table ? toDatabaseOf(table, request.headers) : request.headers;
    // A body the layer rewrote (partition limits) goes with its own length.
    const send = (sent: Buffer = body) => forward(request.url ?? '/', sent === body ? headers : { ...headers, 'content-length': String(sent.length) }, sent);
    let answer: Answer;
    try {
      if (target === STATS_TARGET || target === CONFIGURE_TARGET) {
        const asked = JSON.parse(body.toString('utf8') || '{}') as { TableName?: string } & TableSettings;
        if (target === CONFIGURE_TARGET && asked.TableName) configure(asked.TableName, asked);
        const stated = Buffer.from(JSON.stringify(statsOf(asked.TableName)));
        answer = { status: 200, headers: { 'content-type': 'application/json', 'content-length': stated.length }, body: stated };
      } else {
        answer = parsed && target.startsWith(DYNAMODB_TARGET) ? await serve(target.slice(DYNAMODB_TARGET.length), parsed, send) : await send();
      }
    } catch (error) {
      // DynamoDB Local is gone or failed mid-answer: what a client of AWS sees from an unavailable service.
      const unavailable = Buffer.from(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: (error as Error).message }));
      answer = { status: 503, headers: { 'content-type': JSON_1_0, 'content-length': unavailable.length }, body: unavailable };
    }
    if (answer.lost) return void response.socket?.destroy();
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  /** What was refused and injected: on every table, or on one. */
  function statsOf(table?: string): ContentionStats {
    const states = table ? [tableState(table)] : [...tables.values()];
    const throttled = addCounts<string>(...states.map((state) => state.throttled)) as Record<string, number>;
    const units = { read: states.reduce((sum, state) => sum + state.units.read, 0), write: states.reduce((sum, state) => sum + state.units.write, 0) };
    return { ...structuredClone(stats), throttled, faults: addCounts(...states.map((state) => state.faults.injected())), units, unitsBy: addCounts<string>(...states.map((state) => state.unitsBy)) };
  }

  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stats: () => statsOf(),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sets one table's partition limits and faults on the contention layer at `endpoint` (a test's table: the run shares one layer). */
export async function configureTable(endpoint: string, table: string, settings: TableSettings): Promise<void> {
  // `null` turns a table's faults off (JSON has no undefined).
  const answer = await fetch(endpoint, { method: 'POST', headers: { 'x-amz-target': CONFIGURE_TARGET, 'content-type': JSON_1_0 }, body: JSON.stringify({ TableName: table, ...settings }) });
  if (answer.status !== 200) throw new Error(`The contention layer at ${endpoint} refused the settings of ${table}: ${answer.status}`);
}

/** What the contention layer at `endpoint` has refused (and injected) so far, on every table or on `table`; undefined when no layer answers there. */
export async function contentionStats(endpoint: string, table?: string): Promise<ContentionStats | undefined> {
  try {
    const answer = await fetch(endpoint, { method: 'POST', headers: { 'x-amz-target': STATS_TARGET, 'content-type': JSON_1_0 }, body: JSON.stringify(table ? { TableName: table } : {}) });
    if (answer.status !== 200) return undefined;
    const stats = (await answer.json()) as ContentionStats;
    return typeof stats.conflicts === 'object' ? stats : undefined;
  } catch {
    return undefined;
  }
}
