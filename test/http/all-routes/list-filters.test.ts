import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { INDEXES } from '../../../shared/db/table';
import { idTime } from '../../../shared/ids';
import { expectEnvelope, client } from '../../support/http';
import { expectPagedAlike } from '../../support/lists';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * The filters of product-decisions §18 on the four lists: each gives exactly its items, newest
 * first, paged with both cursors; the creation range bounds each of them; bad values are 400
 * with the attribute, a range that ends before it starts 422.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
const link: Record<'first' | 'second', string> = { first: '', second: '' };
/** Payments by who paid and how, newest first. */
const ann: string[] = [];
const annPaid: string[] = [];
const annOnSecond: string[] = [];
const others: string[] = [];
/** Every payment made before `middle`, and at or after it, newest first. */
const before: string[] = [];
const after: string[] = [];
let middle: string;
const refunds: Record<'pending' | 'canceled', string[]> = { pending: [], canceled: [] };
const chargebacks: Record<'open' | 'accepted', string[]> = { open: [], accepted: [] };

jest.setTimeout(180_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pay(linkId: string, outcome: string, email?: string) {
  const payment = await api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, { outcome, ...(email ? { email } : {}) });
  expect(payment.status).toBe(201);
  return payment.body.id as string;
}

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  for (const name of ['first', 'second'] as const) {
    link[name] = (await api.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, collect_email: true })).body.id;
  }
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '1000.00', currency: 'EUR' } });
  // Before the middle: Ann twice (as she typed it), Bob once; after it: Ann paid and failed, Bob on the second link.
  const made: { id: string; at: 'before' | 'after'; ann: boolean; paid: boolean; second: boolean }[] = [];
  const record = async (at: 'before' | 'after', linkId: string, outcome: string, email: string) =>
    made.push({ id: await pay(linkId, outcome, email), at, ann: email.toLowerCase() === 'ann@example.com', paid: outcome === 'paid', second: linkId === link.second });
  await record('before', link.first, 'paid', 'Ann@Example.com');
  await record('before', link.first, 'paid', 'bob@example.com');
  await record('before', link.second, 'paid', 'ann@example.com');
  await sleep(20);
  middle = new Date().toISOString();
  await sleep(20);
  await record('after', link.first, 'failed', 'ANN@EXAMPLE.COM');
  await record('after', link.second, 'paid', 'bob@example.com');
  await record('after', link.first, 'paid', 'ann@example.com');
  for (const payment of [...made].reverse()) {
    (payment.at === 'before' ? before : after).push(payment.id);
    (payment.ann ? ann : others).push(payment.id);
    if (payment.ann && payment.paid) annPaid.push(payment.id);
    if (payment.ann && payment.second) annOnSecond.push(payment.id);
  }
  // A refund and a chargeback of each paid payment: the older ones canceled and accepted.
  for (const payment of [...made].filter((made) => made.paid)) {
    const refund = await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '1.00', currency: 'EUR' } });
    expect(refund.status).toBe(201);
    const chargeback = await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, {});
    expect(chargeback.status).toBe(201);
    if (payment.at === 'before') {
      expect((await api.post(`/v1/refunds/${refund.body.id}/cancel`)).status).toBe(200);
      expect((await api.post(`/v1/test_helpers/chargebacks/${chargeback.body.id}/transitions`, { status: 'accepted' })).status).toBe(200);
    }
    refunds[payment.at === 'before' ? 'canceled' : 'pending'].unshift(refund.body.id);
    chargebacks[payment.at === 'before' ? 'accepted' : 'open'].unshift(chargeback.body.id);
  }
});
afterAll(() => stack.stop());

const created = (range: { gte?: string; lt?: string }) =>
  [range.gte ? `created[gte]=${encodeURIComponent(range.gte)}` : '', range.lt ? `created[lt]=${encodeURIComponent(range.lt)}` : ''].filter(Boolean).join('&');

test("payments by customer email: exact and case-insensitive, the organization's only, with status and range", async () => {
  expect(await expectPagedAlike(api, '/v1/payments?customer_email=ann%40example.com', 2)).toEqual(ann);
  expect(await expectPagedAlike(api, '/v1/payments?customer_email=ANN%40example.COM&status=paid', 1)).toEqual(annPaid);
  expect(await expectPagedAlike(api, `/v1/payments?customer_email=ann%40example.com&payment_link=${link.second}`, 1)).toEqual(annOnSecond);
  expect(await expectPagedAlike(api, `/v1/payments?customer_email=ann%40example.com&${created({ gte: middle })}`, 1)).toEqual(ann.filter((id) => after.includes(id)));
  expect((await api.get('/v1/payments?customer_email=ann.nobody%40example.com')).body).toMatchObject({ data: [], has_more: false });
  // Another organization's customer of the same address is theirs.
  const other = await createMerchant(stack);
  expect((await client(stack.baseUrl, other.test).get('/v1/payments?customer_email=ann%40example.com')).body).toMatchObject({ data: [], has_more: false });
});

test('the customer email is indexed as a keyed digest, never in plain text', async () => {
  const items = (await stack.db.send(new ScanCommand({ TableName: stack.tableName, FilterExpression: 'begins_with(#id, :pay)', ExpressionAttributeNames: { '#id': 'id' }, ExpressionAttributeValues: { ':pay': 'pay_' } }))).Items!;
  const keys = items.flatMap((item) => Object.entries(item).filter(([name]) => /PK$|SK$/.test(name)).map(([, value]) => String(value)));
  expect(keys.filter((key) => /example\.com/i.test(key))).toEqual([]);
  const digests = new Set(items.filter((item) => String(item.customer?.email ?? '').toLowerCase() === 'ann@example.com').map((item) => item[INDEXES.gsi4.pk]));
  expect(digests.size).toBe(1);
  expect([...digests][0]).toMatch(/#PAY#EMAIL#[A-Za-z0-9_-]{43}$/);
  const ofAnn = await stack.db.send(new QueryCommand({ TableName: stack.tableName, IndexName: INDEXES.gsi4.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.gsi4.pk }, ExpressionAttributeValues: { ':pk': [...digests][0] } }));
  expect(ofAnn.Items!.map((item) => item.id).sort()).toEqual([...ann].sort());
});

test("payments of a link: its payments only, with the range; another organization's link lists nothing; with a status 422", async () => {
  const ofSecond = await expectPagedAlike(api, `/v1/payments?payment_link=${link.second}`, 1);
  expect(ofSecond).toHaveLength(2);
  expect(await expectPagedAlike(api, `/v1/payments?payment_link=${link.second}&${created({ lt: middle })}`, 1)).toEqual(ofSecond.filter((id) => before.includes(id)));
  const other = await createMerchant(stack);
  expect((await client(stack.baseUrl, other.test).get(`/v1/payments?payment_link=${link.second}`)).body).toMatchObject({ data: [], has_more: false });
  expectEnvelope(await api.get(`/v1/payments?payment_link=${link.second}&status=paid`), 422, 'status');
});

test('the creation range: a key range of every list, alone and with the filters, with both cursors', async () => {
  expect(await expectPagedAlike(api, `/v1/payments?${created({ gte: middle })}`, 2)).toEqual(after);
  expect(await expectPagedAlike(api, `/v1/payments?${created({ lt: middle })}`, 2)).toEqual(before);
  expect(await expectPagedAlike(api, `/v1/payments?status=paid&${created({ gte: middle })}`, 1)).toEqual(after.filter((id) => !ann.includes(id) || annPaid.includes(id)));
  // Refunds and chargebacks were made after every payment: bounded by the time of their own ids.
  const allRefunds = [...refunds.pending, ...refunds.canceled].sort().reverse();
  const refundsFrom = new Date(idTime(allRefunds[1])).toISOString();
  expect(await expectPagedAlike(api, `/v1/refunds?${created({ gte: refundsFrom })}`, 1)).toEqual(allRefunds.slice(0, 2));
  expect(await expectPagedAlike(api, `/v1/refunds?${created({ lt: refundsFrom })}`, 1)).toEqual(allRefunds.slice(2));
  expect(await expectPagedAlike(api, `/v1/refunds?${created({ lt: middle })}`, 1)).toEqual([]);
  const allChargebacks = [...chargebacks.open, ...chargebacks.accepted].sort().reverse();
  const chargebacksBefore = new Date(idTime(allChargebacks[0])).toISOString();
  expect(await expectPagedAlike(api, `/v1/chargebacks?${created({ gte: middle, lt: chargebacksBefore })}`, 1)).toEqual(allChargebacks.slice(1));
  const movements = await expectPagedAlike(api, `/v1/balance_transactions?type=payment&${created({ gte: middle })}`, 1);
  expect(movements).toHaveLength(2);
  // An empty range, and one past every item.
  expect((await api.get(`/v1/payments?${created({ gte: middle, lt: new Date(Date.parse(middle) + 1).toISOString() })}`)).body.data).toEqual([]);
  expect((await api.get(`/v1/payments?${created({ gte: '2100-01-01T00:00:00Z' })}`)).body).toMatchObject({ data: [], has_more: false });
  // A cursor outside the range: the range still bounds the page.
  const page = await api.get(`/v1/payments?${created({ gte: middle })}&starting_after=${before[0]}`);
  expect(page.body).toMatchObject({ data: [], has_more: false });
  expect((await api.get(`/v1/payments?${created({ lt: middle })}&ending_before=${after.at(-1)}`)).body).toMatchObject({ data: [], has_more: false });
  const newer = await api.get(`/v1/payments?${created({ gte: middle })}&ending_before=${before.at(-1)}`);
  expect([newer.body.data.map((payment: { id: string }) => payment.id), newer.body.has_more]).toEqual([after, false]);
});

test('refunds and chargebacks of one status, with the range', async () => {
  expect(await expectPagedAlike(api, '/v1/refunds?status=canceled', 1)).toEqual(refunds.canceled);
  expect(await expectPagedAlike(api, '/v1/refunds?status=pending', 1)).toEqual(refunds.pending);
  expect(await expectPagedAlike(api, `/v1/refunds?status=pending&${created({ gte: new Date(idTime(refunds.pending[0])).toISOString() })}`, 1)).toEqual([refunds.pending[0]]);
  expect(await expectPagedAlike(api, '/v1/chargebacks?status=accepted', 1)).toEqual(chargebacks.accepted);
  expect(await expectPagedAlike(api, `/v1/chargebacks?status=open&${created({ lt: new Date(idTime(chargebacks.open[0])).toISOString() })}`, 1)).toEqual(chargebacks.open.slice(1));
  // A cursor of another status names no item of the list.
  expectEnvelope(await api.get(`/v1/refunds?status=pending&starting_after=${refunds.canceled[0]}`), 422, 'starting_after');
});

test('bad filters: an unknown value or a malformed one 400 with the attribute, a range that ends before it starts 422', async () => {
  for (const [path, attribute] of [
    ['/v1/payments?status=settled', 'status'],
    ['/v1/payments?customer_email=ann', 'customer_email'],
    ['/v1/payments?payment_link=pay_123', 'payment_link'],
    ['/v1/payments?created[gte]=yesterday', 'created[gte]'],
    ['/v1/payments?created[lt]=2026-11-28', 'created[lt]'],
    ['/v1/refunds?status=paid', 'status'],
    ['/v1/refunds?payment_link=pl_1', 'payment_link'],
    ['/v1/chargebacks?status=pending', 'status'],
    ['/v1/chargebacks?customer_email=ann%40example.com', 'customer_email'],
    ['/v1/balance_transactions?created[gte]=now', 'created[gte]'],
  ] as const) {
    expect([path, expectEnvelope(await api.get(path), 400).attribute]).toEqual([path, attribute]);
  }
  for (const path of ['/v1/payments', '/v1/refunds', '/v1/chargebacks', '/v1/balance_transactions']) {
    expectEnvelope(await api.get(`${path}?${created({ gte: middle, lt: middle })}`), 422, 'created[lt]');
    expectEnvelope(await api.get(`${path}?${created({ gte: middle, lt: '2000-01-01T00:00:00.000+01:00' })}`), 422, 'created[lt]');
  }
});
