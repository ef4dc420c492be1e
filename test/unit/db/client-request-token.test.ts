import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { configureTable, contentionStats } from '../../../bin/local/contention';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import type { FaultPlan } from '../../../bin/local/faults';
import { createDocumentClient } from '../../../shared/db/client';
import { transactRetried } from '../../../shared/db/conditional';
import { IF_NEW } from '../../../shared/db/entity';

/**
 * A transaction that commits, loses its answer (the SDK sends it again, with its
 * ClientRequestToken), and whose retry is then refused by a throttle: the service's own retry
 * (`transactRetried`) sends it once more. Through the contending DynamoDB Local, which answers a
 * repeated token as DynamoDB does, on a table of the test's own (nothing else writes to it).
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `tokens-${randomUUID()}`;

beforeAll(() => ensureTable(endpoint, tableName));
afterAll(() => db.destroy());

const ON_TRANSACTIONS = ['TransactWriteItems'];
/** The first transaction commits and loses its answer; the second sending of it is throttled; then no more faults. */
const lostThenThrottled: FaultPlan = {
  seed: 1,
  rates: { 'dynamodb.lost-answer': 1, 'dynamodb.throttling': 1 },
  limits: { 'dynamodb.lost-answer': 1, 'dynamodb.throttling': 1 },
  after: { 'dynamodb.throttling': 1 },
  only: { 'dynamodb.lost-answer': ON_TRANSACTIONS, 'dynamodb.throttling': ON_TRANSACTIONS },
};

async function afterLostAnswerThenThrottle<T>(write: () => Promise<T>): Promise<T> {
  const before = (await contentionStats(endpoint, tableName))!.faults;
  await configureTable(endpoint, tableName, { faults: lostThenThrottled });
  try {
    return await write();
  } finally {
    const after = (await contentionStats(endpoint, tableName))!.faults;
    await configureTable(endpoint, tableName, { faults: null });
    // Both faults struck this write: the answer lost, then the retry throttled.
    expect([after['dynamodb.lost-answer']! - (before['dynamodb.lost-answer'] ?? 0), after['dynamodb.throttling']! - (before['dynamodb.throttling'] ?? 0)]).toEqual([1, 1]);
  }
}

test('a committed increment whose answer was lost and whose retry was throttled is applied once, and answered as a success', async () => {
  const key = { PK: `COUNTER#${randomUUID()}`, SK: 'COUNTER' };
  const increment = { Update: { TableName: tableName, Key: key, UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1 } } };
  await afterLostAnswerThenThrottle(() => transactRetried(db, [increment]));
  expect((await db.send(new GetCommand({ TableName: tableName, Key: key }))).Item?.count).toBe(1);
});

test('a committed conditional put whose answer was lost and whose retry was throttled is answered as a success, not refused by its own item', async () => {
  const item = { PK: `ONCE#${randomUUID()}`, SK: 'ONCE', written: 'once' };
  await expect(afterLostAnswerThenThrottle(() => transactRetried(db, [{ Put: { TableName: tableName, Item: item, ...IF_NEW } }]))).resolves.toBeDefined();
  expect((await db.send(new GetCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK } }))).Item).toEqual(item);
});

test('two writes of the same request are two logical writes: both are applied', async () => {
  const key = { PK: `COUNTER#${randomUUID()}`, SK: 'COUNTER' };
  const increment = { Update: { TableName: tableName, Key: key, UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1 } } };
  await transactRetried(db, [increment]);
  await transactRetried(db, [increment]);
  expect((await db.send(new GetCommand({ TableName: tableName, Key: key }))).Item?.count).toBe(2);
});
