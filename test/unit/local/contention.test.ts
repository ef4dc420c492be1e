import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  DescribeTableCommand,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
  TransactionConflictException,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { localAwsConfig } from '../../../shared/db/client';
import { contentionStats, startContentionLayer, transactionHoldMs, type ContentionLayer } from '../../../bin/local/contention';
import { ensureDynamoDbLocal } from '../../../bin/local/dynamodb-local';
import { freePort } from '../../../bin/local/free-port';

/**
 * The contention layer against the documented semantics (the rules in bin/local/contention.ts),
 * in front of the run's DynamoDB Local. Between the layer and DynamoDB sits a gate that keeps the
 * requests a test names until it lets them go: a request stays in flight exactly as long as a
 * test needs, whatever the machine's speed.
 */

const ONGOING = 'Transaction is ongoing for the item';

interface Gated {
  /** The layer let the request through: it reached the gate. */
  arrived: Promise<void>;
  release(): void;
  /** DynamoDB's answer went back to the layer (when). */
  answered: Promise<number>;
}

/** A DynamoDB endpoint (the run's) behind a gate; it answers nothing but DynamoDB's own targets. */
async function startGate(upstream: string) {
  const waiting = new Map<string, { arrive(): void; gate: Promise<void>; answer(at: number): void }[]>();
  const port = await freePort();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = String(request.headers['x-amz-target'] ?? '');
    if (!target.startsWith('DynamoDB_20120810.')) {
      response.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
      return response.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#UnknownOperationException' }));
    }
    const held = waiting.get(target.split('.')[1])?.shift();
    held?.arrive();
    await held?.gate;
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'x-amz-target': target, 'content-type': 'application/x-amz-json-1.0', authorization: String(request.headers.authorization) },
      body: Buffer.concat(chunks),
    });
    response.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(Buffer.from(await answer.arrayBuffer()), () => held?.answer(Date.now()));
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Keeps the next request of `operation` at the gate until released. */
    hold(operation: string): Gated {
      let arrive!: () => void;
      let release!: () => void;
      let answer!: (at: number) => void;
      const arrived = new Promise<void>((done) => (arrive = done));
      const gate = new Promise<void>((done) => (release = done));
      const answered = new Promise<number>((done) => (answer = done));
      waiting.set(operation, [...(waiting.get(operation) ?? []), { arrive, gate, answer }]);
      return { arrived, release, answered };
    },
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

/** A table keyed by PK and SK, as the service's is. */
const tableWithKeys = (name: string) => ({
  TableName: name,
  KeySchema: [
    { AttributeName: 'PK', KeyType: 'HASH' as const },
    { AttributeName: 'SK', KeyType: 'RANGE' as const },
  ],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' as const },
    { AttributeName: 'SK', AttributeType: 'S' as const },
  ],
  BillingMode: 'PAY_PER_REQUEST' as const,
});

const tableName = `contention-${randomUUID()}`;
const key = (pk: string): Record<string, AttributeValue> => ({ PK: { S: pk }, SK: { S: 'item' } });
const item = (pk: string, value = 'v'): Record<string, AttributeValue> => ({ ...key(pk), value: { S: value } });
const putAction = (pk: string, value = 'v') => ({ Put: { TableName: tableName, Item: item(pk, value) } });
const updateAction = (pk: string) => ({
  Update: { TableName: tableName, Key: key(pk), UpdateExpression: 'SET #value = :value', ExpressionAttributeNames: { '#value': 'value' }, ExpressionAttributeValues: { ':value': { S: 'updated' } } },
});

let gate: Awaited<ReturnType<typeof startGate>>;
let layer: ContentionLayer;
let dynamodb: DynamoDBClient;
let pk: (name: string) => string;

beforeAll(async () => {
  // Created behind the layer's back: the layer learns the key schema with DescribeTable.
  const direct = new DynamoDBClient(localAwsConfig(process.env.DYNAMODB_ENDPOINT!));
  await direct.send(new CreateTableCommand(tableWithKeys(tableName)));
  direct.destroy();
  gate = await startGate(process.env.DYNAMODB_ENDPOINT!);
  layer = await startContentionLayer({ port: await freePort(), upstream: gate.endpoint, holdMs: 0 });
  // The SDK as the service configures it (3 attempts): what it retries, it retries here too.
  dynamodb = new DynamoDBClient({ ...localAwsConfig(layer.endpoint), maxAttempts: 3 });
});

beforeEach(() => {
  const prefix = randomUUID();
  pk = (name) => `${prefix}-${name}`;
});

afterAll(async () => {
  dynamodb.destroy();
  await layer.close();
  await gate.close();
});

async function failure(sending: Promise<unknown>): Promise<Error & { $metadata: { httpStatusCode?: number; attempts?: number } }> {
  try {
    await sending;
  } catch (error) {
    return error as never;
  }
  throw new Error('the request succeeded');
}

/** A TransactWriteItems kept in flight (its items held) until `finish`. */
async function transactionInFlight(actions: object[]) {
  const gated = gate.hold('TransactWriteItems');
  const sent = dynamodb.send(new TransactWriteItemsCommand({ TransactItems: actions as never }));
  await gated.arrived;
  return {
    finish: async () => {
      gated.release();
      await sent;
    },
  };
}

/** Raw, as on the wire: status and JSON body. */
async function wire(operation: string, body: object) {
  const answer = await fetch(layer.endpoint, {
    method: 'POST',
    headers: { 'x-amz-target': `DynamoDB_20120810.${operation}`, 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}

const read = async (name: string) => (await dynamodb.send(new GetItemCommand({ TableName: tableName, Key: key(name), ConsistentRead: true }))).Item;

describe('Class: contention layer', () => {
  describe('Rule 1: a single write of an item in an ongoing TransactWriteItems', () => {
    test('PutItem, UpdateItem and DeleteItem -> TransactionConflictException (400), not retried by the SDK, nothing written', async () => {
      // Prepare
      await dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('held'), 'before') }));
      const transaction = await transactionInFlight([putAction(pk('held'), 'transaction'), updateAction(pk('other'))]);

      // Act
      const refused = [
        await failure(dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('held'), 'single') }))),
        await failure(dynamodb.send(new UpdateItemCommand({ ...updateAction(pk('other')).Update }))),
        await failure(dynamodb.send(new DeleteItemCommand({ TableName: tableName, Key: key(pk('held')) }))),
      ];
      await transaction.finish();

      // Assess
      for (const error of refused) {
        expect(error).toBeInstanceOf(TransactionConflictException);
        expect(error.message).toBe(ONGOING);
        expect(error.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 1 });
      }
      expect(await read(pk('held'))).toMatchObject({ value: { S: 'transaction' } });
      expect(await read(pk('other'))).toMatchObject({ value: { S: 'updated' } });
    });

    test('on the wire: 400, __type TransactionConflictException, message', async () => {
      // Prepare
      const transaction = await transactionInFlight([putAction(pk('held'))]);

      // Act
      const answer = await wire('PutItem', { TableName: tableName, Item: item(pk('held')) });
      await transaction.finish();

      // Assess
      expect(answer).toEqual({ status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException', message: ONGOING } });
    });
  });

  describe('Rule 2: a TransactWriteItems with an item of another ongoing one', () => {
    test('-> TransactionCanceledException: TransactionConflict for that item, None for the others, not retried, nothing written', async () => {
      // Prepare
      const transaction = await transactionInFlight([putAction(pk('held'))]);

      // Act
      const error = (await failure(
        dynamodb.send(new TransactWriteItemsCommand({ TransactItems: [putAction(pk('first')), updateAction(pk('held')), putAction(pk('last'))] })),
      )) as unknown as TransactionCanceledException & { $metadata: { attempts?: number } };
      await transaction.finish();

      // Assess
      expect(error).toBeInstanceOf(TransactionCanceledException);
      expect(error.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 1 });
      expect(error.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'TransactionConflict', Message: ONGOING }, { Code: 'None' }]);
      expect(error.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict, None]');
      expect(await read(pk('first'))).toBeUndefined();
      expect(await read(pk('last'))).toBeUndefined();
    });

    test('a ConditionCheck holds its item and conflicts like a write', async () => {
      // Prepare
      await dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('checked')) }));
      const check = { ConditionCheck: { TableName: tableName, Key: key(pk('checked')), ConditionExpression: 'attribute_exists(PK)' } };
      const transaction = await transactionInFlight([check, putAction(pk('written'))]);

      // Act
      const byWrite = await failure(dynamodb.send(new TransactWriteItemsCommand({ TransactItems: [updateAction(pk('checked'))] })));
      const byCheck = await failure(dynamodb.send(new TransactWriteItemsCommand({ TransactItems: [{ ...check, ConditionCheck: { ...check.ConditionCheck, Key: key(pk('written')) } }] })));
      await transaction.finish();

      // Assess
      expect((byWrite as unknown as TransactionCanceledException).CancellationReasons).toEqual([{ Code: 'TransactionConflict', Message: ONGOING }]);
      expect((byCheck as unknown as TransactionCanceledException).CancellationReasons).toEqual([{ Code: 'TransactionConflict', Message: ONGOING }]);
    });

    test('on the wire: 400, __type TransactionCanceledException, CancellationReasons, Message', async () => {
      // Prepare
      const transaction = await transactionInFlight([putAction(pk('held'))]);

      // Act
      const answer = await wire('TransactWriteItems', { TransactItems: [putAction(pk('free')), putAction(pk('held'))] });
      await transaction.finish();

      // Assess
      expect(answer).toEqual({
        status: 400,
        body: {
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict', Message: ONGOING }],
          Message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
        },
      });
    });
  });

  describe('Rule 3: a TransactGetItems of an item being written', () => {
    const transactGet = (...names: string[]) => dynamodb.send(new TransactGetItemsCommand({ TransactItems: names.map((name) => ({ Get: { TableName: tableName, Key: key(name) } })) }));

    test('by an ongoing TransactWriteItems, PutItem or BatchWriteItem -> TransactionCanceledException with the conflicting item', async () => {
      // Prepare
      const transaction = await transactionInFlight([putAction(pk('transacted'))]);
      const putGate = gate.hold('PutItem');
      const put = dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('put')) }));
      await putGate.arrived;
      const batchGate = gate.hold('BatchWriteItem');
      const batch = dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: [{ PutRequest: { Item: item(pk('batched')) } }] } }));
      await batchGate.arrived;

      // Act
      const errors = [
        await failure(transactGet(pk('free'), pk('transacted'))),
        await failure(transactGet(pk('put'), pk('free'))),
        await failure(transactGet(pk('free'), pk('batched'))),
      ];
      await transaction.finish();
      putGate.release();
      batchGate.release();
      await Promise.all([put, batch]);

      // Assess
      const conflict = { Code: 'TransactionConflict', Message: ONGOING };
      expect(errors.map((error) => (error as unknown as TransactionCanceledException).CancellationReasons)).toEqual([
        [{ Code: 'None' }, conflict],
        [conflict, { Code: 'None' }],
        [{ Code: 'None' }, conflict],
      ]);
      for (const error of errors) expect(error).toBeInstanceOf(TransactionCanceledException);
    });

    test('a write that begins while a TransactGetItems is in flight cancels the read; the write goes on', async () => {
      // Prepare
      const getGate = gate.hold('TransactGetItems');
      const reading = failure(transactGet(pk('read'), pk('written')));
      await getGate.arrived;

      // Act
      await dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('written'), 'meanwhile') }));
      getGate.release();
      const error = await reading;

      // Assess
      expect(error).toBeInstanceOf(TransactionCanceledException);
      expect((error as unknown as TransactionCanceledException).CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'TransactionConflict', Message: ONGOING }]);
      expect(await read(pk('written'))).toMatchObject({ value: { S: 'meanwhile' } });
    });
  });

  describe('Rules 4 and 5: what never conflicts', () => {
    test('GetItem, Query and BatchGetItem during a transaction succeed, and so does a TransactGetItems of other items', async () => {
      // Prepare
      await dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('held'), 'before') }));
      const transaction = await transactionInFlight([updateAction(pk('held'))]);

      // Act
      const got = await read(pk('held'));
      const queried = await dynamodb.send(
        new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: pk('held') } }, ConsistentRead: true }),
      );
      const batch = await dynamodb.send(new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: [key(pk('held'))] } } }));
      const other = await dynamodb.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: tableName, Key: key(pk('elsewhere')) } }] }));
      await transaction.finish();

      // Assess
      expect(got).toBeDefined();
      expect(queried.Items).toHaveLength(1);
      expect(batch.Responses?.[tableName]).toHaveLength(1);
      expect(other.Responses).toHaveLength(1);
    });

    test('a BatchWriteItem item during a transaction, and a transaction while a PutItem of its item is in flight, go through', async () => {
      // Prepare
      const transaction = await transactionInFlight([putAction(pk('held'))]);
      const putGate = gate.hold('PutItem');
      const put = dynamodb.send(new PutItemCommand({ TableName: tableName, Item: item(pk('put'), 'single') }));
      await putGate.arrived;

      // Act
      const batchGate = gate.hold('BatchWriteItem');
      const batch = dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: [{ PutRequest: { Item: item(pk('held'), 'batch') } }] } }));
      await batchGate.arrived;
      const transactionGate = gate.hold('TransactWriteItems');
      const during = dynamodb.send(new TransactWriteItemsCommand({ TransactItems: [putAction(pk('put'), 'transaction')] }));
      await transactionGate.arrived;
      await transaction.finish();
      transactionGate.release();
      await during;
      batchGate.release();
      putGate.release();

      // Assess
      await expect(batch).resolves.toBeDefined();
      await expect(put).resolves.toBeDefined();
    });
  });

  describe('The hold', () => {
    test('a transaction holds its items after DynamoDB answered, for the hold, and frees them with its answer', async () => {
      // Prepare
      const holdMs = 3_000;
      const holding = await startContentionLayer({ port: await freePort(), upstream: gate.endpoint, holdMs });
      const client = new DynamoDBClient(localAwsConfig(holding.endpoint));
      const gated = gate.hold('TransactWriteItems');
      const sent = client.send(new TransactWriteItemsCommand({ TransactItems: [putAction(pk('held'), 'transaction')] })).then(() => Date.now());
      gated.release();

      // Act
      const answeredByDynamoDb = await gated.answered;
      const duringHold = await failure(client.send(new PutItemCommand({ TableName: tableName, Item: item(pk('held'), 'during') })));
      const answered = await sent;
      await client.send(new PutItemCommand({ TableName: tableName, Item: item(pk('held'), 'after') }));
      client.destroy();
      await holding.close();

      // Assess
      expect(duringHold).toBeInstanceOf(TransactionConflictException);
      expect(answered - answeredByDynamoDb).toBeGreaterThanOrEqual(holdMs - 5); // timers may fire a hair early
      expect(await read(pk('held'))).toMatchObject({ value: { S: 'after' } });
    });

    test('DYNAMODB_TRANSACTION_HOLD_MS: 25 ms unless set, a whole number of milliseconds', () => {
      expect(transactionHoldMs({})).toBe(25);
      expect(transactionHoldMs({ DYNAMODB_TRANSACTION_HOLD_MS: '0' })).toBe(0);
      expect(transactionHoldMs({ DYNAMODB_TRANSACTION_HOLD_MS: '40' })).toBe(40);
      expect(() => transactionHoldMs({ DYNAMODB_TRANSACTION_HOLD_MS: '-1' })).toThrow('DYNAMODB_TRANSACTION_HOLD_MS');
      expect(() => transactionHoldMs({ DYNAMODB_TRANSACTION_HOLD_MS: 'soon' })).toThrow('DYNAMODB_TRANSACTION_HOLD_MS');
    });
  });

  describe('Where it sits', () => {
    test('the run itself goes through a layer, which counts what it refused per operation', async () => {
      // Prepare
      const before = (await contentionStats(layer.endpoint))!;
      const transaction = await transactionInFlight([putAction(pk('held'))]);

      // Act
      await failure(dynamodb.send(new DeleteItemCommand({ TableName: tableName, Key: key(pk('held')) })));
      await transaction.finish();

      // Assess
      expect(await contentionStats(process.env.DYNAMODB_ENDPOINT!)).toBeDefined();
      expect((await contentionStats(layer.endpoint))!.conflicts.DeleteItem).toBe((before.conflicts.DeleteItem ?? 0) + 1);
    });

    test("in memory, each table is alone in its database: its stream carries its own records only, ListTables sees it not", async () => {
      // Prepare
      const run = new DynamoDBClient(localAwsConfig(process.env.DYNAMODB_ENDPOINT!));
      const streams = new DynamoDBStreamsClient(localAwsConfig(process.env.DYNAMODB_ENDPOINT!));
      const [first, second] = [`alone-${randomUUID()}`, `alone-${randomUUID()}`];
      for (const table of [first, second]) {
        await run.send(new CreateTableCommand({ ...tableWithKeys(table), StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }));
      }
      const written = (table: string, pk: string) => ({ ...key(pk), table: { S: table } });

      // Act
      await run.send(new PutItemCommand({ TableName: first, Item: written(first, 'put') }));
      await run.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: second, Item: written(second, 'transacted') } }] }));
      await run.send(new BatchWriteItemCommand({ RequestItems: { [second]: [{ PutRequest: { Item: written(second, 'batched') } }] } }));

      // Assess
      async function streamKeys(table: string): Promise<string[]> {
        const streamArn = (await run.send(new DescribeTableCommand({ TableName: table }))).Table!.LatestStreamArn!;
        const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription!.Shards!;
        const keys: string[] = [];
        for (const shard of shards) {
          const iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' })))
            .ShardIterator;
          const records = (await streams.send(new GetRecordsCommand({ ShardIterator: iterator }))).Records ?? [];
          keys.push(...records.map((record) => `${record.dynamodb!.NewImage!.table.S}:${record.dynamodb!.Keys!.PK.S}`));
        }
        return keys.sort();
      }
      expect(await streamKeys(first)).toEqual([`${first}:put`]);
      expect(await streamKeys(second)).toEqual([`${second}:batched`, `${second}:transacted`]);
      const batch = await run.send(new BatchGetItemCommand({ RequestItems: { [second]: { Keys: [key('transacted'), key('batched')] } } }));
      expect(batch.Responses![second]).toHaveLength(2);
      expect((await run.send(new ListTablesCommand({}))).TableNames).not.toEqual(expect.arrayContaining([first]));
      run.destroy();
      streams.destroy();
    });

    test('a DynamoDB that is not behind a layer gets one in front of it', async () => {
      // Act
      const running = await ensureDynamoDbLocal(gate.endpoint);

      // Assess
      expect(running.endpoint).not.toBe(gate.endpoint);
      expect(await contentionStats(gate.endpoint)).toBeUndefined();
      expect(await contentionStats(running.endpoint)).toMatchObject({ conflicts: {}, transactions: 0 });
      await running.stop();
    });
  });
});
