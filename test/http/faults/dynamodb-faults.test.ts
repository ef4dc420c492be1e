import { configureTable } from '../../../bin/local/contention';
import type { FaultKind } from '../../../bin/local/faults';
import { openCheckoutPage, postCheckoutForm } from '../../support/checkout-form';
import { creditsRolled } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * DynamoDB's faults (FAULTS, bin/local/faults.ts), each injected once into the request that
 * matters: the service answers as if nothing happened, and nothing is written twice or lost.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack({ background: true }));
});
afterAll(() => stack.stop());

/** The next `operation` of the stack's table meets `kind`, once; then no more faults. */
const once = (kind: FaultKind, operation: string) => configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: { seed: 1, rates: { [kind]: 1 }, limits: { [kind]: 1 }, only: { [kind]: [operation] } } });
const injected = async () => (await import('../../../bin/local/contention')).contentionStats(process.env.DYNAMODB_ENDPOINT!, stack.tableName);

/** A customer's checkout, its Pay's transaction meeting `kind`: paid once, counted once, credited once. */
async function expectPaidDespite(kind: FaultKind) {
  const link = (await api.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: 3 })).body;
  const opened = await openCheckoutPage(stack.baseUrl, link.id);
  const before = (await injected())!.faults[kind] ?? 0;
  await once(kind, 'TransactWriteItems');
  const paid = await postCheckoutForm(stack.baseUrl, link.id, opened, {});
  expect((await injected())!.faults[kind]).toBe(before + 1);
  expect(paid.status).toBe(303);
  expect((await api.get(`/v1/payments/${opened.paymentId}`)).body.status).toBe('paid');
  expect((await api.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ paid_count: 1, remaining_payments: 2 });
  await creditsRolled(stack, merchant.orgId);
  const ledger = (await api.get(`/v1/balance_transactions?source=${opened.paymentId}`)).body.data;
  expect(ledger.map((entry: { type: string; amount: { value: string } }) => [entry.type, entry.amount.value])).toEqual([['payment', '4.00']]);
  const events = (await api.get('/v1/events?type=transactions.payment.paid&limit=100')).body.data.filter((event: { data: { id: string } }) => event.data.id === opened.paymentId);
  expect(events).toHaveLength(1);
}

test('the paid transaction refused with ProvisionedThroughputExceeded once: the customer is paid once', () => expectPaidDespite('dynamodb.provisioned-throughput'));

test('the paid transaction throttled (ThrottlingError) once: the customer is paid once', () => expectPaidDespite('dynamodb.throttling'));

test("DynamoDB's InternalServerError on the paid transaction once: the customer is paid once", () => expectPaidDespite('dynamodb.internal-error'));

test('the paid transaction committed and its answer lost: the customer is paid once', () => expectPaidDespite('dynamodb.lost-answer'));

test("an Idempotency-Key's claim committed and its answer lost: the POST is carried out, once, and its retry replays it", async () => {
  const headers = { 'idempotency-key': `lost-claim-${Date.now()}` };
  const body = { amount: { value: '7.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId };
  await once('dynamodb.lost-answer', 'PutItem');
  const created = await api.post('/v1/payment_links', body, headers);
  expect((await injected())!.faults['dynamodb.lost-answer']).toBeGreaterThanOrEqual(1);
  expect(created.status).toBe(201);
  const again = await api.post('/v1/payment_links', body, headers);
  expect([again.status, again.body.id]).toEqual([201, created.body.id]);
});
