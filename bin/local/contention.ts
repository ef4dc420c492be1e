import type { KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { createHash, randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

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
 */

/** What a client sends to learn that a contention layer answers here, and what it has refused. */
const STATS_TARGET = 'LocalContention.Stats';
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
}

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

function cancellationAnswer(conflicting: boolean[]): Answer {
  const codes = conflicting.map((conflict) => (conflict ? 'TransactionConflict' : 'None'));
  return awsError('TransactionCanceledException', {
    CancellationReasons: codes.map((code) => (code === 'None' ? { Code: code } : { Code: code, Message: ONGOING })),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  });
}

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

/** The layer on 127.0.0.1:`port`, forwarding to the DynamoDB at `upstream`. */
export async function startContentionLayer(options: { port: number; upstream: string; holdMs?: number; databasePerTable?: boolean }): Promise<ContentionLayer> {
  const holdMs = options.holdMs ?? transactionHoldMs();
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const keySchemas = new Map<string, Promise<string[] | undefined>>();
  /** Items of the TransactWriteItems in flight (one at most per item: a second one conflicts). */
  const transacting = new Set<string>();
  /** Items of the other writes in flight, with their number. */
  const writing = new Map<string, number>();
  const readers = new Map<string, Set<Reader>>();
  const stats: ContentionStats = { conflicts: {}, transactions: 0, holdMs };

  function refused(operation: string, answer: Answer): Answer {
    stats.conflicts[operation] = (stats.conflicts[operation] ?? 0) + 1;
    return answer;
  }

  /** The key attributes of a table; undefined for a table DynamoDB does not know (its own error follows). */
  function keySchema(table: string): Promise<string[] | undefined> {
    let schema = keySchemas.get(table);
    if (!schema) {
      const headers = { 'x-amz-target': `${DYNAMODB_TARGET}DescribeTable`, 'content-type': JSON_1_0, authorization: ownAuthorization() };
      schema = forward('/', options.databasePerTable ? toDatabaseOf(table, headers) : headers, Buffer.from(JSON.stringify({ TableName: table }))).then(
        (answer) => (answer.status === 200 ? keyNames(JSON.parse(answer.body.toString('utf8')).Table?.KeySchema) : undefined),
        () => undefined,
      );
      keySchemas.set(table, schema);
      void schema.then((names) => names === undefined && keySchemas.delete(table));
    }
    return schema;
  }

  async function itemId(target: Target | undefined): Promise<string | undefined> {
    if (!target?.TableName) return undefined;
    const names = await keySchema(target.TableName);
    const item = target.Key ?? target.Item;
    if (!names || !item) return undefined;
    return JSON.stringify([target.TableName, ...names.map((name) => item[name])]);
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

  async function serve(operation: string, request: Record<string, unknown>, send: () => Promise<Answer>): Promise<Answer> {
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
      case 'CreateTable': {
        const answer = await send();
        if (answer.status === 200) keySchemas.set(String(request.TableName), Promise.resolve(keyNames(request.KeySchema as KeySchemaElement[])));
        return answer;
      }
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
    const send = () => forward(request.url ?? '/', headers, body);
    let answer: Answer;
    try {
      if (target === STATS_TARGET) {
        const stated = Buffer.from(JSON.stringify(stats));
        answer = { status: 200, headers: { 'content-type': 'application/json', 'content-length': stated.length }, body: stated };
      } else {
        answer = parsed && target.startsWith(DYNAMODB_TARGET) ? await serve(target.slice(DYNAMODB_TARGET.length), parsed, send) : await send();
      }
    } catch (error) {
      // DynamoDB Local is gone or failed mid-answer: what a client of AWS sees from an unavailable service.
      const unavailable = Buffer.from(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: (error as Error).message }));
      answer = { status: 503, headers: { 'content-type': JSON_1_0, 'content-length': unavailable.length }, body: unavailable };
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stats: () => structuredClone(stats),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the contention layer at `endpoint` has refused so far; undefined when no layer answers there. */
export async function contentionStats(endpoint: string): Promise<ContentionStats | undefined> {
  try {
    const answer = await fetch(endpoint, { method: 'POST', headers: { 'x-amz-target': STATS_TARGET, 'content-type': JSON_1_0 }, body: '{}' });
    if (answer.status !== 200) return undefined;
    const stats = (await answer.json()) as ContentionStats;
    return typeof stats.conflicts === 'object' ? stats : undefined;
  } catch {
    return undefined;
  }
}
