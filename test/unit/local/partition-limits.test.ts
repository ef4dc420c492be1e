import {
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { randomBytes, randomUUID } from 'node:crypto';
import { startContentionLayer, contentionStats, type ContentionLayer } from '../../../bin/local/contention';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { freePort } from '../../../bin/local/free-port';
import { itemBytes, partitionShape, writeCharges, type TableKeys } from '../../../bin/local/partition-limits';
import { localAwsConfig } from '../../../shared/db/client';
import { outboxItem } from '../../../shared/db/outbox';
import { paymentItem } from '../../../shared/db/payment-repository';
import { INDEXES } from '../../../shared/db/table';
import { newEvent } from '../../../shared/events';
import { newId } from '../../../shared/ids';

/**
 * DynamoDB's partition limits in the contention layer (bin/local/partition-limits.ts): units
 * counted as DynamoDB counts them, checked against DynamoDB Local's own ConsumedCapacity, and
 * a partition past its share refused with on-demand DynamoDB's error, in front of the run's
 * DynamoDB Local.
 */
const run = process.env.DYNAMODB_ENDPOINT!;
const tableName = `limits-${randomUUID()}`;
const keys: TableKeys = { table: ['PK', 'SK'], indexes: Object.values(INDEXES).map((index) => ({ name: index.name, keys: [index.pk, index.sk] })) };
let direct: DynamoDBClient;

beforeAll(async () => {
  await ensureTable(run, tableName);
  direct = new DynamoDBClient(localAwsConfig(run));
});
afterAll(() => direct.destroy());

/** A layer of the test's own in front of the run's DynamoDB, every partition at `scale` of DynamoDB's limits. */
async function limitedLayer(scale: number): Promise<{ layer: ContentionLayer; client: DynamoDBClient }> {
  const layer = await startContentionLayer({ port: await freePort(), upstream: run, holdMs: 0, tables: { partitionScale: scale } });
  // One attempt: the refusal itself is what is looked at (the SDK would retry it).
  return { layer, client: new DynamoDBClient({ ...localAwsConfig(layer.endpoint), maxAttempts: 1 }) };
}

const wire = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;
const aPayment = (orgId = newId('organization')) =>
  wire(paymentItem({ id: newId('payment'), orgId, mode: 'test', acceptorId: 'acceptor_1', paymentLinkId: newId('paymentLink'), status: 'open', amountMinor: 1000, currency: 'EUR', createdAt: new Date().toISOString(), lastActivityAt: new Date().toISOString() }));
/** An event item about `padding` bytes larger than a bare one: random, so that packing its envelope does not shrink it. */
const anEvent = (orgId: string, padding = 0) =>
  wire(outboxItem(newEvent({ type: 'transactions.refund.refunded', orgId, mode: 'test', data: { padding: randomBytes(padding).toString('base64') } })));
const total = (charges: { units: number }[]) => charges.reduce((sum, charge) => sum + charge.units, 0);

async function refusal(sending: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await sending;
  } catch (error) {
    return error as never;
  }
  throw new Error('the request went through');
}

describe('units, as DynamoDB Local counts them on its own', () => {
  test('a Put, an Update that moves an index key, and a Delete of items in several indexes: the same write units', async () => {
    const payment = aPayment();
    const put = await direct.send(new PutItemCommand({ TableName: tableName, Item: payment, ReturnConsumedCapacity: 'INDEXES' }));
    expect(total(writeCharges(keys, { key: payment, kind: 'put', transactional: false }, undefined, payment))).toBe(put.ConsumedCapacity!.CapacityUnits);
    // Paid: its status list key moves (GSI2: two writes), the others are rewritten in place, the DUE entry removed.
    const paid: Record<string, AttributeValue> = { ...payment, status: { S: 'paid' }, GSI2PK: { S: String(payment.GSI2PK.S).replace('#open', '#paid') } };
    delete paid.DUEPK;
    delete paid.DUESK;
    const update = await direct.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { PK: payment.PK, SK: payment.SK },
        UpdateExpression: 'SET #status = :paid, GSI2PK = :list REMOVE DUEPK, DUESK',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':paid': { S: 'paid' }, ':list': paid.GSI2PK },
        ReturnConsumedCapacity: 'INDEXES',
      }),
    );
    const updateCharges = writeCharges(keys, { key: payment, kind: 'update', transactional: false }, payment, paid);
    expect(total(updateCharges)).toBe(update.ConsumedCapacity!.CapacityUnits);
    expect(updateCharges.filter((charge) => charge.resource === 'GSI2')).toHaveLength(2);
    const deleted = await direct.send(new DeleteItemCommand({ TableName: tableName, Key: { PK: payment.PK, SK: payment.SK }, ReturnConsumedCapacity: 'INDEXES' }));
    expect(total(writeCharges(keys, { key: payment, kind: 'delete', transactional: false }, paid, undefined))).toBe(deleted.ConsumedCapacity!.CapacityUnits);
  });

  test("an item's size is DynamoDB's: 1 KB and 3 KB items of every type round to DynamoDB Local's units", async () => {
    for (const padding of [0, 900, 3_000]) {
      const event = anEvent(newId('organization'), padding);
      const put = await direct.send(new PutItemCommand({ TableName: tableName, Item: event, ReturnConsumedCapacity: 'TOTAL' }));
      const indexes = keys.indexes.filter((index) => index.keys.every((key) => event[key] !== undefined)).length;
      expect(put.ConsumedCapacity!.CapacityUnits).toBe(Math.ceil(itemBytes(event) / 1024) * (1 + indexes));
    }
  });

  test("a Binary attribute counts its bytes, not the base64 it travels in: DynamoDB Local's units, 1 KB either side", async () => {
    for (const [bytes, units] of [
      [950, 1],
      [1_000, 2],
    ]) {
      const item: Record<string, AttributeValue> = { PK: { S: `BIN#${randomUUID()}` }, SK: { S: 'BIN' }, packed: { B: randomBytes(bytes) } };
      const put = await direct.send(new PutItemCommand({ TableName: tableName, Item: item, ReturnConsumedCapacity: 'TOTAL' }));
      // As the contention layer sees it: the JSON protocol's base64.
      const onTheWire = JSON.parse(JSON.stringify({ ...item, packed: { B: Buffer.from(item.packed.B!).toString('base64') } }));
      expect(put.ConsumedCapacity!.CapacityUnits).toBe(units);
      expect(itemBytes(onTheWire)).toBe('PK'.length + item.PK.S!.length + 'SKBIN'.length + 'packed'.length + bytes);
      expect(total(writeCharges(keys, { key: onTheWire, kind: 'put', transactional: false }, undefined, onTheWire))).toBe(units);
    }
  });

  test("in a transaction the table's write counts twice, an index's once", () => {
    const event = anEvent(newId('organization'));
    const charges = writeCharges(keys, { key: event, kind: 'put', transactional: true }, undefined, event);
    const units = Math.ceil(itemBytes(event) / 1024);
    expect(charges).toEqual([
      { resource: 'table', partition: JSON.stringify(event.PK), units: 2 * units },
      ...['GSI1', 'GSI2', 'GSI4'].map((index) => ({ resource: index, partition: JSON.stringify(event[`${index}PK`]), units })),
    ]);
  });
});

test("where units go is told by the partition's list, not whose: ids as `*`, the sub-partition as `#n`", () => {
  const org = newId('organization');
  expect(partitionShape(JSON.stringify({ S: `${org}#test#EVT#transactions.payment.paid#3` }))).toBe('*#test#EVT#transactions.payment.paid#n');
  expect(partitionShape(JSON.stringify({ S: `PL#${newId('paymentLink')}#PAY` }))).toBe('PL#*#PAY');
  expect(partitionShape(JSON.stringify({ S: 'DUE#PAY_OPEN#7' }))).toBe('DUE#PAY_OPEN#n');
});

describe('a partition past its share is throttled as on-demand DynamoDB throttles a hot key', () => {
  test("an index partition: the table's writes refused with ThrottlingException, the index named; other partitions go on", async () => {
    // 0.005 of 1,000 WCU/s: 5 units a second, and an event of about 5 KB in GSI1's sub-partition
    // takes all of them: the next one is refused unless a whole second passed (a slow machine
    // cannot space two writes out enough for the bucket to refill).
    const { layer, client } = await limitedLayer(0.005);
    try {
      const orgId = newId('organization');
      const events = Array.from({ length: 60 }, () => anEvent(orgId, 3_600));
      const sameList = events.filter((event) => event.GSI1PK.S === events[0].GSI1PK.S);
      const answers = [];
      for (const event of sameList.slice(0, 4)) answers.push(await client.send(new PutItemCommand({ TableName: tableName, Item: event })).then(() => 'ok', (error: Error & Record<string, unknown>) => error));
      expect(Math.ceil(itemBytes(sameList[0]) / 1024)).toBe(5);
      expect(answers[0]).toBe('ok');
      const refused = answers.find((answer) => answer !== 'ok') as unknown as Error & { ThrottlingReasons?: unknown; $metadata: { httpStatusCode: number } };
      expect(refused).toMatchObject({ name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
      expect(refused.message).toMatch(/^Throughput exceeds the current capacity for one or more global secondary indexes/);
      expect(refused.ThrottlingReasons).toEqual([{ reason: 'IndexWriteKeyRangeThroughputExceeded', resource: expect.stringMatching(new RegExp(`:table/${tableName}/index/GSI\\d$`)) }]);
      // Another organization's events are in other partitions of every index.
      await client.send(new PutItemCommand({ TableName: tableName, Item: anEvent(newId('organization'), 600) }));
      expect((await contentionStats(layer.endpoint))!.throttled.PutItem).toBeGreaterThan(0);
      // A second later the partition takes writes again.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await client.send(new PutItemCommand({ TableName: tableName, Item: sameList.at(-1)! }));
    } finally {
      client.destroy();
      await layer.close();
    }
  });

  test("a transaction with an item in a spent partition is cancelled with ThrottlingError for that item, None for the others; nothing written", async () => {
    const { layer, client } = await limitedLayer(0.004);
    try {
      const hot = `hot-${randomUUID()}`;
      const put = (pk: string, value: string) => ({ Put: { TableName: tableName, Item: { PK: { S: pk }, SK: { S: 'x' }, value: { S: value } } } });
      // 4 units a second; each transactional write of a small item takes 2.
      await client.send(new TransactWriteItemsCommand({ TransactItems: [put(hot, '1')] }));
      await client.send(new TransactWriteItemsCommand({ TransactItems: [put(hot, '2')] }));
      const cold = `cold-${randomUUID()}`;
      const refused = await refusal(client.send(new TransactWriteItemsCommand({ TransactItems: [put(cold, '3'), put(hot, '3')] })));
      expect(refused.name).toBe('TransactionCanceledException');
      expect(refused.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'ThrottlingError', Message: expect.stringMatching(/^Throughput exceeds the current capacity of your table or index/) }]);
      expect(refused.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, ThrottlingError]');
      const written = await direct.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: cold } } }));
      expect(written.Count).toBe(0);
    } finally {
      client.destroy();
      await layer.close();
    }
  });

  test('a Query of a spent index partition is refused; an answer carries ConsumedCapacity only when asked for it', async () => {
    const { layer, client } = await limitedLayer(0.001);
    try {
      // 3 read units a second; a Query of 10 events of 3 KB each (30 KB, eventually consistent) takes 4.
      const orgId = newId('organization');
      const events = Array.from({ length: 80 }, () => anEvent(orgId, 3_000));
      const list = events.filter((event) => event.GSI1PK.S === events[0].GSI1PK.S);
      for (const event of list) await direct.send(new PutItemCommand({ TableName: tableName, Item: event }));
      const query = { TableName: tableName, IndexName: 'GSI1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'GSI1PK' }, ExpressionAttributeValues: { ':pk': list[0].GSI1PK } };
      const first = await client.send(new QueryCommand(query));
      expect(first.Count).toBe(list.length);
      expect(first.ConsumedCapacity).toBeUndefined();
      const refused = await refusal(client.send(new QueryCommand(query)));
      expect(refused).toMatchObject({ name: 'ThrottlingException', ThrottlingReasons: [{ reason: 'IndexReadKeyRangeThroughputExceeded', resource: expect.stringMatching(/\/index\/GSI1$/) }] });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await client.send(new QueryCommand({ ...query, ReturnConsumedCapacity: 'TOTAL' }))).ConsumedCapacity!.CapacityUnits).toBeGreaterThan(0);
    } finally {
      client.destroy();
      await layer.close();
    }
  });

  test("a Query that finds nothing still takes a read's units, as in DynamoDB, where DynamoDB Local reports none: 1 strongly consistent, 0.5 eventually", async () => {
    const { layer, client } = await limitedLayer(0.001);
    try {
      // 3 read units a second; each strongly consistent Query takes 1 even when its partition is empty, an eventually consistent one 0.5.
      const answers = async (consistent: boolean, reads: number) => {
        const empty = { TableName: tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: `empty-${randomUUID()}` } }, ConsistentRead: consistent };
        const answered: string[] = [];
        for (let read = 0; read < reads; read++) answered.push(await client.send(new QueryCommand(empty)).then(() => 'read', (error: Error) => error.name));
        return answered;
      };
      const strongly = await answers(true, 8);
      expect(strongly.slice(0, 3)).toEqual(['read', 'read', 'read']);
      expect(strongly).toContain('ThrottlingException');
      const eventually = await answers(false, 14);
      expect(eventually.slice(0, 6)).toEqual(Array(6).fill('read'));
      expect(eventually).toContain('ThrottlingException');
    } finally {
      client.destroy();
      await layer.close();
    }
  });

  test('without a scale (the default) nothing is throttled', async () => {
    const layer = await startContentionLayer({ port: await freePort(), upstream: run, holdMs: 0, tables: {} });
    const client = new DynamoDBClient({ ...localAwsConfig(layer.endpoint), maxAttempts: 1 });
    try {
      const pk = `free-${randomUUID()}`;
      for (let i = 0; i < 30; i++) await client.send(new PutItemCommand({ TableName: tableName, Item: { PK: { S: pk }, SK: { S: String(i) } } }));
      expect((await contentionStats(layer.endpoint))!.throttled).toEqual({});
    } finally {
      client.destroy();
      await layer.close();
    }
  });
});
