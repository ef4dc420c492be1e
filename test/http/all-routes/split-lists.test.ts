import { batchWriteAll } from '../../../shared/db/batch';
import { eventEntity } from '../../../shared/db/entities';
import { outboxItem } from '../../../shared/db/outbox';
import { newEvent } from '../../../shared/events';
import { expectPagedAlike as expectLists } from '../../support/lists';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * The organization-wide lists spread over sub-partitions (product-decisions §2: payments, balance
 * transactions, events, and their filtered variants), paged through the API with both cursors:
 * the same order, every item once, complete pages, exact `has_more`.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
/** The paid payments, newest first. */
const paid: string[] = [];
/** A payment left open. */
let open: string;

jest.setTimeout(120_000);

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  const link = (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  for (let i = 0; i < 26; i++) {
    const payment = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'paid' })).body;
    expect(payment.status).toBe('paid');
    paid.unshift(payment.id);
  }
  open = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'open' })).body.id;
});
afterAll(() => stack.stop());

const expectPagedAlike = (path: string, limit: number) => expectLists(api, path, limit);

test('payments, all and of one status: every payment once, newest first, with both cursors', async () => {
  expect(await expectPagedAlike('/v1/payments', 4)).toEqual([open, ...paid]);
  expect(await expectPagedAlike('/v1/payments?status=paid', 3)).toEqual(paid);
  const opened = await api.get('/v1/payments?status=open&limit=1');
  expect([opened.body.data.map((payment: { id: string }) => payment.id), opened.body.has_more]).toEqual([[open], false]);
});

test('balance transactions, all and of one type: every entry once, newest first, with both cursors', async () => {
  const all = await expectPagedAlike('/v1/balance_transactions', 5);
  expect(all).toHaveLength(paid.length);
  expect(await expectPagedAlike('/v1/balance_transactions?type=payment', 6)).toEqual(all);
  const ofSource = await api.get(`/v1/balance_transactions?source=${paid[3]}`);
  expect(ofSource.body.data.map((entry: { source: string }) => entry.source)).toEqual([paid[3]]);
});

test('events, all, of one type and below a prefix: every event once, newest first, with both cursors', async () => {
  const all = await expectPagedAlike('/v1/events', 7);
  const ofType = await expectPagedAlike('/v1/events?type=transactions.payment.paid', 5);
  expect(ofType).toHaveLength(paid.length);
  const belowPrefix = await expectPagedAlike('/v1/events?type=transactions.payment_link.*', 8);
  expect(belowPrefix.length + ofType.length).toBe(all.length);
  expect(await expectPagedAlike('/v1/events?type=transactions.payment_link.checkout.*', 4)).toHaveLength(paid.length + 1);
});

test("a page is complete where a sub-partition's Query stops at DynamoDB's 1 MB, and has_more is exact", async () => {
  // Prepare: 40 events of about 40 KB per sub-partition, so that 101 of one are far more than 1 MB
  const count = 40 * eventEntity.definition.indexes!.gsi1!.subPartitions!;
  const large = Array.from({ length: count }, () => newEvent({ type: 'transactions.payment_link.updated', orgId: merchant.orgId, mode: 'test', data: { padding: 'x'.repeat(40_000) } }));
  await batchWriteAll(stack.db, stack.tableName, large.map((event) => ({ PutRequest: { Item: outboxItem(event) } })));
  const ids = large.map((event) => event.envelope.id).reverse();
  // Act
  const page = await api.get('/v1/events?type=transactions.payment_link.updated&limit=100');
  const rest = await api.get(`/v1/events?type=transactions.payment_link.updated&limit=100&starting_after=${ids[99]}`);
  const last = await api.get(`/v1/events?type=transactions.payment_link.updated&limit=100&starting_after=${ids[count - 101]}`);
  // Assess
  expect([page.body.data.map((event: { id: string }) => event.id), page.body.has_more]).toEqual([ids.slice(0, 100), true]);
  expect([rest.body.data.map((event: { id: string }) => event.id), rest.body.has_more]).toEqual([ids.slice(100, 200), true]);
  expect([last.body.data.map((event: { id: string }) => event.id), last.body.has_more]).toEqual([ids.slice(count - 100), false]);
});
