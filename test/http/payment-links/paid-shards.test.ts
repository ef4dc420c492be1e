import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { waitFor } from '../../support/acquirer';
import { eventsFor, outboxEvents } from '../../support/events';
import { pay } from '../../support/paid-checkouts';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * An unlimited link's paid payments count on its shards, not on the link item (product-decisions
 * §15: its payers do not contend; docs/architecture.md, Capacity): every payment is counted
 * exactly, the link's reads sum the shards, and a change of its limit or status closes them
 * first, so that no payment in flight commits after it.
 */

let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack.stop());

const createLink = async (body: Record<string, unknown> = {}) =>
  (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...body })).body;

/** The link item as stored (its own count and version), apart from its shards. */
const linkItem = async (id: string) => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.paymentLink(id), ConsistentRead: true }))).Item!;

const paidPaymentsOf = async (id: string) =>
  ((await api.get(`/v1/payment_links/${id}/payments?limit=100`)).body.data as { status: string; paid_at: string | null }[]).filter((payment) => payment.status === 'paid');

/** `count` payers at once; each retries a 503 as a client should, until its payment ends. */
const payers = (id: string, count: number) => Promise.all(Array.from({ length: count }, () => pay(api, id)));

test('unlimited link: concurrent payers are all counted exactly, on the shards: paid_count = payments paid, none on the link item', async () => {
  // Prepare
  const link = await createLink();

  // Act
  const results = await payers(link.id, 40);

  // Assess
  expect(results.every((result) => result.status === 201 && result.body.status === 'paid')).toBe(true);
  const paid = await paidPaymentsOf(link.id);
  expect(paid).toHaveLength(40);
  const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
  expect(after).toMatchObject({ paid_count: 40, remaining_payments: null, payments_limit: null, status: 'active' });
  // The first and the last paid payment, as their shards took them.
  const paidAts = paid.map((payment) => payment.paid_at);
  expect(paidAts).toContain(after.first_paid_at);
  expect(paidAts).toContain(after.last_paid_at);
  expect(after.first_paid_at <= after.last_paid_at).toBe(true);
  // Counted on the shards: the link item's own count was in no paid transaction.
  expect((await linkItem(link.id)).paidCount).toBe(0);
  const events = await outboxEvents(stack, merchant.orgId);
  expect(events.filter((event) => event.type === 'transactions.payment.paid' && event.data.payment_link_id === link.id)).toHaveLength(40);
  expect(eventsFor(events, 'transactions.payment_link.remaining_payments.decremented', link.id)).toEqual([]);
}, 120_000);

test('unlimited link: GET shows the summed count at once; a list page shows it within moments', async () => {
  // Prepare
  const link = await createLink();

  // Act
  await payers(link.id, 5);

  // Assess
  expect((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count).toBe(5);
  const listed = await waitFor(async () => {
    const page = (await api.get('/v1/payment_links?limit=100')).body.data as { id: string; paid_count: number }[];
    const found = page.find((each) => each.id === link.id);
    return found?.paid_count === 5 ? found : undefined;
  }, 'the list page to show paid_count 5');
  const got = (await api.get(`/v1/payment_links/${link.id}`)).body;
  expect(listed).toMatchObject({ paid_count: 5, remaining_payments: null, first_paid_at: got.first_paid_at, last_paid_at: got.last_paid_at });
  const byStatus = (await api.get('/v1/payment_links?status=active&limit=100')).body.data.find((each: { id: string }) => each.id === link.id);
  expect(byStatus.paid_count).toBe(5);
}, 120_000);

test('unlimited link: a limit set above the paid count while payers are in flight -> exactly the limit paid, never oversold, the last payment inactivates it', async () => {
  // Prepare
  const link = await createLink();
  const inFlight = payers(link.id, 40);
  await waitFor(async () => ((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count >= 3 ? true : undefined), 'a few payments', 60_000);

  // Act: the limit leaves a few slots to the payers still in flight.
  let limit: number | undefined;
  let limitedAt = 0;
  while (limit === undefined) {
    const paidCount = (await api.get(`/v1/payment_links/${link.id}`)).body.paid_count;
    const update = await api.post(`/v1/payment_links/${link.id}`, { payments_limit: paidCount + 5 });
    if (update.status === 200) ({ payments_limit: limit, paid_count: limitedAt } = update.body);
    else expect(update.status).toBe(422);
  }
  const results = await inFlight;

  // Assess
  expect(results.every((result) => result.status !== 500)).toBe(true);
  const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
  const paid = await paidPaymentsOf(link.id);
  expect(paid.length).toBeLessThanOrEqual(limit!);
  expect(after.paid_count).toBe(paid.length);
  // Only a payment takes the link to its limit inactivates it: a limit the update set equal to the
  // count (those five paid between the read and the update) leaves it active (spec, States and transitions: Payment link).
  const inactivatedByPayment = paid.length === limit && limitedAt < limit;
  expect(after).toMatchObject({ remaining_payments: limit! - paid.length, status: inactivatedByPayment ? 'inactive' : 'active' });
  const events = await outboxEvents(stack, merchant.orgId);
  expect(eventsFor(events, 'transactions.payment_link.auto_inactivated', link.id)).toHaveLength(inactivatedByPayment ? 1 : 0);
}, 180_000);

test('unlimited link: inactivated while payers are in flight -> no payment counts after the inactivation, later payers are refused; reactivated, it counts on the shards again', async () => {
  // Prepare
  const link = await createLink();
  const inFlight = payers(link.id, 30);
  await waitFor(async () => ((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count >= 3 ? true : undefined), 'a few payments', 60_000);

  // Act
  const inactivated = await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive' });
  const results = await inFlight;
  const later = await pay(api, link.id);

  // Assess
  expect(inactivated.status).toBe(200);
  expect(results.every((result) => result.status !== 500)).toBe(true);
  // The count the inactivation answered with is final: every payer after it lost (canceled or 409).
  const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
  expect(after).toMatchObject({ status: 'inactive', paid_count: inactivated.body.paid_count });
  expect(await paidPaymentsOf(link.id)).toHaveLength(inactivated.body.paid_count);
  expect(results.filter((result) => result.status === 201 && result.body.status === 'paid')).toHaveLength(inactivated.body.paid_count);
  expect(later.status).toBe(409);
  // Its shards were summed into the link item with the inactivation.
  expect(await linkItem(link.id)).toMatchObject({ paidCount: inactivated.body.paid_count });

  // Act: reactivated, its payers count on the shards again.
  expect((await api.post(`/v1/payment_links/${link.id}`, { status: 'active' })).status).toBe(200);
  const itemBefore = await linkItem(link.id);
  await payers(link.id, 3);

  // Assess
  expect((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count).toBe(inactivated.body.paid_count + 3);
  expect((await linkItem(link.id)).paidCount).toBe(itemBefore.paidCount);
}, 180_000);
