import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { configureTable, contentionStats } from '../../../bin/local/contention';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { createDocumentClient } from '../../../shared/db/client';
import * as keys from '../../../shared/db/keys';
import { outboxItem, recordEvent, withStoredEnvelope } from '../../../shared/db/outbox';
import { runWatchingWrites } from '../../../shared/db/side-effects';
import { newEvent } from '../../../shared/events';

/**
 * An event recorded on its own (a denied checkout's), through the contending DynamoDB Local, on a
 * table of the test's own: a conditional PutItem, unless a transaction would carry the request's
 * idempotency mark with it.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `record-event-${randomUUID()}`;
const sent: string[] = [];
db.middlewareStack.add(
  (next, context) => (args) => {
    sent.push(String(context.commandName));
    return next(args);
  },
  { step: 'initialize', name: 'sentCommands' },
);

beforeAll(() => ensureTable(endpoint, tableName));
afterAll(() => db.destroy());

const deniedCheckout = () => newEvent({ type: 'transactions.payment_link.checkout.denied', orgId: `org_${randomUUID()}`, mode: 'test', data: { id: 'pl_1', reason: 'inactive' } });
const stored = async (eventId: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.event(eventId), ConsistentRead: true }))).Item;

test('alone: one PutItem of the item a transaction would have put, its index keys and packed envelope', async () => {
  const event = deniedCheckout();
  sent.length = 0;
  await recordEvent(db, tableName, event);
  expect(sent).toEqual(['PutItemCommand']);
  const item = (await stored(event.envelope.id))!;
  const { envelope: _packed, ...keysAndAttributes } = outboxItem(event);
  expect(item).toMatchObject(keysAndAttributes);
  expect(withStoredEnvelope(item).envelope).toEqual(event.envelope);
});

test('committed, its answer lost: the SDK sends it again, its condition finds the item, and the write is done', async () => {
  const event = deniedCheckout();
  const before = (await contentionStats(endpoint, tableName))!.faults['dynamodb.lost-answer'] ?? 0;
  await configureTable(endpoint, tableName, { faults: { seed: 1, rates: { 'dynamodb.lost-answer': 1 }, limits: { 'dynamodb.lost-answer': 1 }, only: { 'dynamodb.lost-answer': ['PutItem'] } } });
  try {
    await expect(recordEvent(db, tableName, event)).resolves.toBeUndefined();
  } finally {
    await configureTable(endpoint, tableName, { faults: null });
  }
  expect((await contentionStats(endpoint, tableName))!.faults['dynamodb.lost-answer']).toBe(before + 1);
  expect(withStoredEnvelope((await stored(event.envelope.id))!).envelope).toEqual(event.envelope);
});

test('inside an idempotent request: one transaction, which also marks the request carried out', async () => {
  const event = deniedCheckout();
  const mark = { tableName, key: { PK: `IDEMPOTENCY#${randomUUID()}`, SK: 'IDEMPOTENCY' } };
  sent.length = 0;
  const { outcome, wrote } = await runWatchingWrites(() => recordEvent(db, tableName, event), mark);
  expect([outcome.status, wrote]).toEqual(['fulfilled', true]);
  expect(sent).toEqual(['TransactWriteItemsCommand']);
  expect(await stored(event.envelope.id)).toBeDefined();
  expect((await db.send(new GetCommand({ TableName: tableName, Key: mark.key, ConsistentRead: true }))).Item).toMatchObject({ carriedOut: true });
});
