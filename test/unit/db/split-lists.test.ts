import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { randomBytes, randomUUID } from 'node:crypto';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { batchWriteAll } from '../../../shared/db/batch';
import { createDocumentClient } from '../../../shared/db/client';
import { subPartitionOf } from '../../../shared/db/entity';
import { eventEntity, scopeOf } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { listPage, type ListSource } from '../../../shared/db/list-page';
import { outboxItem, storedEnvelope } from '../../../shared/db/outbox';
import { INDEXES } from '../../../shared/db/table';
import { newEvent } from '../../../shared/events';
import { newId } from '../../../shared/ids';

/**
 * A split list (product-decisions §2): the events of a scope on their sub-partitions of GSI1,
 * paged through `listPage` against the run's DynamoDB Local, every Query counted.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `split-${randomUUID()}`;
const queries: QueryCommandInput[] = [];
const subPartitions = eventEntity.definition.indexes!.gsi1!.subPartitions!;

beforeAll(async () => {
  await ensureTable(endpoint, tableName);
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries.push(args.input as QueryCommandInput);
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
});
afterAll(() => db.destroy());

/** `count` events of a new scope, each about `bytes` more in the table (random, so packing does not shrink it), written straight to it; their ids newest first. */
async function eventsOfNewScope(count: number, bytes = 0) {
  const orgId = newId('organization');
  const events = Array.from({ length: count }, () => newEvent({ type: 'transactions.payment.paid', orgId, mode: 'test', data: { padding: randomBytes(bytes).toString('base64') } }));
  const items = events.map(outboxItem);
  await batchWriteAll(db, tableName, items.map((Item) => ({ PutRequest: { Item } })));
  return { scope: scopeOf(orgId, 'test'), ids: events.map((event) => event.envelope.id).reverse(), items };
}

const source = (scope: string): ListSource => ({ index: 'gsi1', partitions: keys.eventList(scope), resolveCursor: async (id) => id });
/** An event item as read from a list: its envelope packed. */
type StoredEvent = { envelope: unknown };
const idsOf = (items: StoredEvent[]) => items.map((item) => storedEnvelope(item.envelope).id);

/** Every page of the list from the newest, `limit` at a time, following `starting_after`. */
async function forwards(scope: string, limit: number) {
  const pages: string[][] = [];
  let startingAfter: string | undefined;
  let hasMore = true;
  while (hasMore) {
    const page = await listPage<StoredEvent>(db, tableName, source(scope), { limit, startingAfter });
    pages.push(idsOf(page.items));
    startingAfter = idsOf(page.items).at(-1);
    hasMore = page.hasMore;
  }
  return pages;
}

/** Every page of the list from the oldest, `limit` at a time, following `ending_before`. */
async function backwards(scope: string, limit: number, oldest: string) {
  const pages: string[][] = [];
  let endingBefore = oldest;
  let hasMore = true;
  while (hasMore) {
    const page = await listPage<StoredEvent>(db, tableName, source(scope), { limit, endingBefore });
    pages.unshift(idsOf(page.items));
    endingBefore = idsOf(page.items)[0];
    hasMore = page.hasMore;
  }
  return pages;
}

test("a split list's items are spread over every sub-partition, each in the one its id's random end names", async () => {
  const { scope, items } = await eventsOfNewScope(80);
  const partitions = keys.eventList(scope);
  expect(partitions).toEqual([`${scope}#EVT`, ...Array.from({ length: subPartitions - 1 }, (_, n) => `${scope}#EVT#${n + 1}`)]);
  // Known from the id alone, with no read.
  expect(items.map((item) => item[INDEXES.gsi1.pk])).toEqual(items.map((item) => partitions[subPartitionOf(String(item[INDEXES.gsi1.sk]), subPartitions)]));
  expect(new Set(items.map((item) => item[INDEXES.gsi1.pk]))).toEqual(new Set(partitions));
});

test('a page of a split list is one Query of at most limit + 1 items per sub-partition, merged newest first, with exact has_more', async () => {
  // Prepare: more items than the pages read, unevenly many per sub-partition
  const { scope, ids } = await eventsOfNewScope(57);
  // Act
  queries.length = 0;
  const first = await listPage<StoredEvent>(db, tableName, source(scope), { limit: 10 });
  const firstQueries = [...queries];
  const whole = await listPage<StoredEvent>(db, tableName, source(scope), { limit: 57 });
  const past = await listPage<StoredEvent>(db, tableName, source(scope), { limit: 100 });
  // Assess
  expect(idsOf(first.items)).toEqual(ids.slice(0, 10));
  expect(first.hasMore).toBe(true);
  expect(firstQueries).toHaveLength(subPartitions);
  expect(new Set(firstQueries.map((query) => query.ExpressionAttributeValues![':pk']))).toEqual(new Set(keys.eventList(scope)));
  expect(firstQueries.every((query) => query.Limit! <= 11 && query.ScanIndexForward === false)).toBe(true);
  expect([idsOf(whole.items), whole.hasMore]).toEqual([ids, false]);
  expect([idsOf(past.items), past.hasMore]).toEqual([ids, false]);
});

test('pages of a split list follow both cursors through every item once, in order', async () => {
  const { scope, ids } = await eventsOfNewScope(45);
  const onward = await forwards(scope, 7);
  expect(onward.flat()).toEqual(ids);
  expect(onward.slice(0, -1).every((page) => page.length === 7)).toBe(true);
  // From the oldest, newer pages each newest first, to the newest.
  const back = await backwards(scope, 7, ids.at(-1)!);
  expect(back.flat()).toEqual(ids.slice(0, -1));
  expect(back.slice(1).every((page) => page.length === 7)).toBe(true);
  // A cursor in the middle: the items right after it, and right before it.
  const middle = ids[20];
  expect(idsOf((await listPage<StoredEvent>(db, tableName, source(scope), { limit: 5, startingAfter: middle })).items)).toEqual(ids.slice(21, 26));
  expect(idsOf((await listPage<StoredEvent>(db, tableName, source(scope), { limit: 5, endingBefore: middle })).items)).toEqual(ids.slice(15, 20));
});

test('a page is complete where DynamoDB stops a sub-partition at 1 MB: that one is read on', async () => {
  // Prepare: events of about 40 KB, so that 101 of one sub-partition are far more than 1 MB
  const perSubPartition = 40;
  const { scope, ids } = await eventsOfNewScope(subPartitions * perSubPartition, 40_000);
  // Act
  queries.length = 0;
  const page = await listPage<StoredEvent>(db, tableName, source(scope), { limit: 100 });
  // Assess: the newest hundred, though each sub-partition's first Query stopped short of them
  expect([idsOf(page.items), page.hasMore]).toEqual([ids.slice(0, 100), true]);
  expect(queries.length).toBeGreaterThan(subPartitions);
  expect(queries.filter((query) => query.ExclusiveStartKey === undefined)).toHaveLength(subPartitions);
  expect(queries.every((query) => query.Limit! <= 101)).toBe(true);
  const onward = await forwards(scope, 100);
  expect(onward.flat()).toEqual(ids);
});
