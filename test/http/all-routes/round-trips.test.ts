import { invokedFunction } from '../../../bin/local/invocation';
import { routes } from '../../../shared/api';
import { methodsOf } from '../../../shared/api/operation';
import { batchWriteAll } from '../../../shared/db/batch';
import { documentClient } from '../../../shared/db/client';
import { balanceTransactionEntity, eventEntity, paymentEntity, scopeOf } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { EVENT_TYPES } from '../../../shared/domain/event-types';
import { outboxItem } from '../../../shared/db/outbox';
import type { IndexName } from '../../../shared/db/table';
import { lostToContention } from '../../../shared/db/transaction-conflict';
import { newEvent } from '../../../shared/events';
import { putAttempt } from '../../support/dashboard';
import { outboxEvents } from '../../support/events';
import { openCheckoutPage, postCheckoutForm } from '../../support/checkout-form';
import { client } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { testInProcess } from '../../support/mode';
import { waitUntil } from '../../support/wait';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * Counts the DynamoDB commands the handlers send (the local stack runs them in this process,
 * on the process-wide document client): what docs/architecture.md promises per request.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
const calls: string[] = [];
/** The items each Query of the request read (its ScannedCount), in order. */
const queried: number[] = [];

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  // What the stream's consumers do meanwhile (the outbox processor rolling credits) is not the request's.
  const routeFunctions = new Set(routes.flatMap((route) => methodsOf(route).map((method) => stack.aws.functionOfRoute(`${method} ${route.path}`))));
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const invoked = invokedFunction();
      if (invoked && !routeFunctions.has(invoked)) return next(args);
      const key = (args.input as { Key?: { PK?: { S?: string } | string } }).Key?.PK;
      const pk = typeof key === 'string' ? key : key?.S;
      // The key lookup is told apart, so that a cache expiring on a slow machine changes no count.
      const call = pk?.startsWith('TOKEN#') ? 'auth' : String(context.commandName).replace(/Command$/, '');
      // A write that lost to another writer (the outbox processor rolling credits into the same
      // balance a moment earlier) is retried; the count is of what a request does uncontended.
      const result = await next(args).catch((error: unknown) => {
        if (!lostToContention(error)) calls.push(call);
        throw error;
      });
      calls.push(call);
      if (context.commandName === 'QueryCommand') queried.push((result.output as { ScannedCount?: number }).ScannedCount ?? 0);
      return result;
    },
    { step: 'initialize', name: 'countCalls' },
  );
});
afterAll(() => stack.stop());

/** The calls a request makes, without the key lookup (`withAuth` keeps it). */
async function countCalls(request: () => Promise<unknown>, withAuth = false): Promise<string[]> {
  calls.length = 0;
  queried.length = 0;
  await request();
  return calls.filter((call) => withAuth || call !== 'auth');
}

const createLink = () => api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });

testInProcess('auth: a cold key costs one GetItem, and its first use in a minute one UpdateItem (its last use); a warm one none', async () => {
  const token = await merchant.key();
  const fresh = client(stack.baseUrl, token);
  const link = (await createLink()).body;
  // The link itself is one Query (its item and its paid shards).
  expect(await countCalls(() => fresh.get(`/v1/payment_links/${link.id}`), true)).toEqual(['auth', 'auth', 'Query']);
  expect(await countCalls(() => fresh.get(`/v1/payment_links/${link.id}`), true)).toEqual(['Query']);
});

/** A page of a list: one Query per partition of the list (its sub-partitions when it is split, product-decisions §2). */
const pageQueries = (entity: { definition: { indexes?: Partial<Record<IndexName, { subPartitions?: number }>> } }, index: IndexName) =>
  Array.from({ length: entity.definition.indexes![index]!.subPartitions ?? 1 }, () => 'Query');

testInProcess('list: a page is one Query of limit + 1 per partition of the list whatever its size; a cursor adds one GetItem', async () => {
  await createLink();
  await api.get('/v1/payment_links');
  const small = await countCalls(() => api.get('/v1/payment_links?limit=5'));
  for (let i = 0; i < 40; i++) await createLink();
  const page = await api.get('/v1/payment_links?limit=5');
  const large = await countCalls(() => api.get('/v1/payment_links?limit=5'));
  expect(small).toEqual(['Query']);
  expect(large).toEqual(['Query']);
  expect(await countCalls(() => api.get(`/v1/payment_links?limit=5&starting_after=${page.body.data[4].id}`))).toEqual(['GetItem', 'Query']);
  expect(await countCalls(() => api.get('/v1/payment_links?status=active&limit=100'))).toEqual(['Query']);
  expect(await countCalls(() => api.get('/v1/refunds'))).toEqual(['Query']);
  expect(await countCalls(() => api.get('/v1/chargebacks'))).toEqual(['Query']);
  expect(await countCalls(() => api.get('/v1/balance'))).toEqual(['Query']);
  // The split lists: at most one Query of at most limit + 1 items per sub-partition.
  for (const [path, queries, limit] of [
    ['/v1/payments?limit=100', pageQueries(paymentEntity, 'gsi1'), 100],
    ['/v1/payments?status=paid&limit=5', pageQueries(paymentEntity, 'gsi2'), 5],
    ['/v1/events', pageQueries(eventEntity, 'gsi1'), 10],
    ['/v1/events?type=transactions.payment_link.created&limit=3', pageQueries(eventEntity, 'gsi2'), 3],
    ['/v1/balance_transactions?limit=2', pageQueries(balanceTransactionEntity, 'gsi1'), 2],
    ['/v1/balance_transactions?type=payment&limit=100', pageQueries(balanceTransactionEntity, 'gsi2'), 100],
  ] as const) {
    expect([path, await countCalls(() => api.get(path))]).toEqual([path, queries]);
    expect(queried.filter((scanned) => scanned > limit + 1)).toEqual([]);
  }
  expect(pageQueries(paymentEntity, 'gsi1').length).toBeGreaterThan(1);
});

testInProcess('a filtered page (status, link, customer email, creation range) is one Query of limit + 1 per partition however many items it leaves out', async () => {
  // A merchant of its own: the other tests count this scope's payments and events.
  const seller = await createMerchant(stack);
  const sellerApi = client(stack.baseUrl, seller.test);
  const sellerLink = () => sellerApi.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: seller.acceptorId });
  const link = (await sellerLink()).body;
  const ann = [];
  for (let i = 0; i < 3; i++) ann.push((await sellerApi.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'paid', email: 'ann@example.com' })).body.id);
  const until = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  // Newer than the range, of another customer and another link: more than a page of each.
  const other = (await sellerLink()).body;
  for (let i = 0; i < 12; i++) await sellerApi.post(`/v1/test_helpers/payment_links/${other.id}/checkout`, { outcome: 'failed', email: `bob${i}@example.com` });
  for (const [path, queries, limit] of [
    ['/v1/payments?customer_email=ann%40example.com&limit=2', ['Query'], 2],
    ['/v1/payments?customer_email=ann%40example.com&status=paid&limit=1', ['Query'], 1],
    [`/v1/payments?payment_link=${link.id}&limit=2`, ['Query'], 2],
    [`/v1/payments?created[lt]=${encodeURIComponent(until)}&limit=2`, pageQueries(paymentEntity, 'gsi1'), 2],
    [`/v1/payments?status=paid&created[lt]=${encodeURIComponent(until)}&limit=2`, pageQueries(paymentEntity, 'gsi2'), 2],
    [`/v1/balance_transactions?created[lt]=${encodeURIComponent(until)}&limit=2`, pageQueries(balanceTransactionEntity, 'gsi1'), 2],
    ['/v1/refunds?status=pending&limit=2', ['Query'], 2],
    ['/v1/chargebacks?status=open&created[gte]=2026-01-01T00:00:00Z&limit=2', ['Query'], 2],
  ] as const) {
    expect([path, await countCalls(() => sellerApi.get(path))]).toEqual([path, queries]);
    expect([path, queried.filter((scanned) => scanned > limit + 1)]).toEqual([path, []]);
  }
});

testInProcess("an event's deliveries: a page is one Query of at most limit + 1 attempts whatever their number; a cursor adds one GetItem", async () => {
  await createLink();
  const eventId = (await outboxEvents(stack, merchant.orgId, 'test')).at(-1)!.id;
  for (let second = 0; second < 30; second++) {
    const at = new Date(Date.UTC(2026, 10, 23, 10, 0, second)).toISOString();
    await putAttempt(stack, eventId, { attempt: (second % 6) + 1, at, url: `https://hooks.example/${second % 2}`, statusCode: 500, durationMs: 10 });
  }
  const page = await api.get(`/v1/events/${eventId}/deliveries?limit=5`);
  expect(page.body.data).toHaveLength(5);
  expect(await countCalls(() => api.get(`/v1/events/${eventId}/deliveries?limit=5`))).toEqual(['GetItem', 'Query']);
  expect(queried).toEqual([expect.any(Number)]);
  expect(queried[0]).toBeLessThanOrEqual(6);
  expect(await countCalls(() => api.get(`/v1/events/${eventId}/deliveries?limit=5&starting_after=${page.body.data[4].id}`))).toEqual(['GetItem', 'GetItem', 'Query']);
  expect(queried[0]).toBeLessThanOrEqual(6);
});

testInProcess('a type wildcard is one Query per partition of its list (its own, every event, or its types\' merged) however many events of other types are newer', async () => {
  await api.post(`/v1/test_helpers/payment_links/${(await createLink()).body.id}/checkout`, { client_key: 'wildcard' });
  const older = await api.get('/v1/events?type=transactions.payment.*');
  expect(older.body.data).toHaveLength(1);
  // Far more than a page: a Query that filtered the scope's events would read past them (its
  // ScannedCount) or take several Queries to fill the page.
  const others = Array.from({ length: 100 }, () =>
    newEvent({ type: 'transactions.payment_link.properties.changed', orgId: merchant.orgId, mode: 'test', data: {} }),
  );
  await batchWriteAll(stack.db, stack.tableName, others.map((event) => ({ PutRequest: { Item: outboxItem(event) } })));
  for (const [pattern, expected] of [
    ['transactions.payment.*', older.body.data.map((event: { id: string }) => event.id)],
    ['transactions.payment_link.properties.*', [others[others.length - 1].envelope.id]],
    ['transactions.payment_link.properties.changed.*', []],
    ['transactions.payment_link.email.*', []],
    ['transactions.*', [others[others.length - 1].envelope.id]],
  ] as const) {
    let page: { body: { data: { id: string }[] } } = { body: { data: [] } };
    // The wildcard's own list or the lists it is made of: at most as many Queries as all events take.
    const queries = (keys.eventPrefixList(scopeOf(merchant.orgId, 'test'), pattern.slice(0, -1), EVENT_TYPES)?.partitions ?? []).map(() => 'Query');
    expect(queries.length).toBeLessThanOrEqual(pageQueries(eventEntity, 'gsi1').length);
    expect(await countCalls(async () => (page = await api.get(`/v1/events?limit=1&type=${pattern}`)))).toEqual(queries);
    expect(queried.filter((scanned) => scanned > 2)).toEqual([]);
    expect(page.body.data.map((event) => event.id)).toEqual(expected);
  }
});

testInProcess('operations: retrieve one Query (the link and its paid shards), create a GetItem and one transaction, update a Query and one transaction', async () => {
  const link = (await createLink()).body;
  expect(await countCalls(() => api.get(`/v1/payment_links/${link.id}`))).toEqual(['Query']);
  expect(await countCalls(createLink)).toEqual(['GetItem', 'TransactWriteItems']);
  expect(await countCalls(() => api.post(`/v1/payment_links/${link.id}`, { description: 'x' }))).toEqual(['Query', 'TransactWriteItems']);
});

testInProcess("webhook endpoints: create and delete one transaction each, update and roll a GetItem and one transaction (its audit record rides it), retrieve one GetItem, a page one Query; an unknown payment's refunds one GetItem", async () => {
  let id = '';
  expect(await countCalls(async () => (id = (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/count', enabled_events: ['*'] })).body.id))).toEqual(['TransactWriteItems']);
  expect(await countCalls(() => api.get(`/v1/webhook_endpoints/${id}`))).toEqual(['GetItem']);
  expect(await countCalls(() => api.get('/v1/webhook_endpoints'))).toEqual(['Query']);
  expect(await countCalls(() => api.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' }))).toEqual(['GetItem', 'TransactWriteItems']);
  expect(await countCalls(() => api.post(`/v1/webhook_endpoints/${id}/roll_secret`, {}))).toEqual(['GetItem', 'TransactWriteItems']);
  expect(await countCalls(() => api.call('DELETE', `/v1/webhook_endpoints/${id}`))).toEqual(['TransactWriteItems']);
  expect(await countCalls(() => api.get(`/v1/payments/pay_00000000000000000000000000/refunds`))).toEqual(['GetItem']);
});

testInProcess("reports: asking for one is one transaction (its build is the builder's, off the request), retrieving one a GetItem, a page one Query; the download presigned without a call", async () => {
  let id = '';
  const created = { gte: new Date(Date.now() - 60_000).toISOString(), lt: new Date().toISOString() };
  expect(await countCalls(async () => (id = (await api.post('/v1/reports', { type: 'payments', created })).body.id))).toEqual(['TransactWriteItems']);
  await waitUntil(async () => (await api.get(`/v1/reports/${id}`)).body.status === 'succeeded', 'the report');
  let url = '';
  expect(await countCalls(async () => (url = (await api.get(`/v1/reports/${id}`)).body.url))).toEqual(['GetItem']);
  expect(url).toEqual(expect.any(String));
  expect(await countCalls(() => api.get('/v1/reports'))).toEqual(['Query']);
});

testInProcess("the customer's checkout: the page opens a payment, its Pay reads the link and the payment once each", async () => {
  // Prepare
  const link = (await createLink()).body;
  let opened!: Awaited<ReturnType<typeof openCheckoutPage>>;
  // Act
  const pageCalls = await countCalls(async () => {
    opened = await openCheckoutPage(stack.baseUrl, link.id);
  });
  const payCalls = await countCalls(() => postCheckoutForm(stack.baseUrl, link.id, opened, {}));
  // Assess: the page reads the link and its acceptor (the merchant's name), takes a slot of the
  // link's bound on new payments and opens the payment; Pay reads the link and the payment at once,
  // then commits the paid transaction on what it read.
  expect(pageCalls.sort()).toEqual(['GetItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
  expect(payCalls.sort()).toEqual(['GetItem', 'Query', 'TransactWriteItems']);
});

testInProcess('money movements: a paid checkout and a refund, call by call', async () => {
  const link = (await createLink()).body;
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '50.00', currency: 'eur' } });
  const paidCalls = await countCalls(() => api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { client_key: 'count-me' }));
  const newCustomerCalls = await countCalls(() => api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {}));
  const payment = (await api.get(`/v1/payment_links/${link.id}/payments`)).body.data[0];
  // Once the outbox processor has rolled the credits in, nothing else writes the balance.
  await creditsRolled(stack, merchant.orgId);
  const refundCalls = await countCalls(() => api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '0.50', currency: 'eur' } }));
  // Open: the link with its shards (its ownership read serves the checkout too), the returning customer's
  // session; then payment + session + events. Paid: one transaction on what the open step read
  // and wrote, its credit pending in it (the outbox processor rolls it into the balance after).
  expect(paidCalls).toEqual(['Query', 'GetItem', 'TransactWriteItems', 'TransactWriteItems']);
  // A new customer (no client_key: one is made for the request) has no session to read.
  expect(newCustomerCalls).toEqual(['Query', 'TransactWriteItems', 'TransactWriteItems']);
  expect(refundCalls).toEqual(['GetItem', 'TransactWriteItems']);
});
