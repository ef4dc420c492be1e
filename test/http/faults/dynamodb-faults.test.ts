import { configureTable } from '../../../bin/local/contention';
import type { FaultKind, FaultPlan } from '../../../bin/local/faults';
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
const onceOn = (kind: FaultKind, operation: string): FaultPlan => ({ seed: 1, rates: { [kind]: 1 }, limits: { [kind]: 1 }, only: { [kind]: [operation] } });
const once = (kind: FaultKind, operation: string) => configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: onceOn(kind, operation) });
const injected = async () => (await import('../../../bin/local/contention')).contentionStats(process.env.DYNAMODB_ENDPOINT!, stack.tableName);

/** A customer's checkout, its Pay's transaction meeting the faults of `plan`, each once: paid once, counted once, credited once. */
async function expectPaidDespite(plan: FaultPlan) {
  const kinds = Object.keys(plan.rates) as FaultKind[];
  const link = (await api.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: 3 })).body;
  const opened = await openCheckoutPage(stack.baseUrl, link.id);
  const before = (await injected())!.faults;
  await configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: plan });
  const paid = await postCheckoutForm(stack.baseUrl, link.id, opened, {});
  const after = (await injected())!.faults;
  expect(kinds.map((kind) => (after[kind] ?? 0) - (before[kind] ?? 0))).toEqual(kinds.map(() => 1));
  expect(paid.status).toBe(303);
  expect((await api.get(`/v1/payments/${opened.paymentId}`)).body.status).toBe('paid');
  expect((await api.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ paid_count: 1, remaining_payments: 2 });
  await creditsRolled(stack, merchant.orgId);
  const ledger = (await api.get(`/v1/balance_transactions?source=${opened.paymentId}`)).body.data;
  expect(ledger.map((entry: { type: string; amount: { value: string } }) => [entry.type, entry.amount.value])).toEqual([['payment', '4.00']]);
  const events = (await api.get('/v1/events?type=transactions.payment.paid&limit=100')).body.data.filter((event: { data: { id: string } }) => event.data.id === opened.paymentId);
  expect(events).toHaveLength(1);
}

test('the paid transaction refused with ProvisionedThroughputExceeded once: the customer is paid once', () => expectPaidDespite(onceOn('dynamodb.provisioned-throughput', 'TransactWriteItems')));

test('the paid transaction throttled (ThrottlingError) once: the customer is paid once', () => expectPaidDespite(onceOn('dynamodb.throttling', 'TransactWriteItems')));

test("DynamoDB's InternalServerError on the paid transaction once: the customer is paid once", () => expectPaidDespite(onceOn('dynamodb.internal-error', 'TransactWriteItems')));

test('the paid transaction committed and its answer lost: the customer is paid once', () => expectPaidDespite(onceOn('dynamodb.lost-answer', 'TransactWriteItems')));

test("the paid transaction committed, its answer lost, and the SDK's retry of it throttled: the customer is paid once, never told it was paid already", () => {
  // The payer's loop sends the round again as it was: DynamoDB answers its ClientRequestToken with the commit's success.
  const lost = onceOn('dynamodb.lost-answer', 'TransactWriteItems');
  const throttled = onceOn('dynamodb.throttling', 'TransactWriteItems');
  return expectPaidDespite({ seed: 1, rates: { ...lost.rates, ...throttled.rates }, limits: { ...lost.limits, ...throttled.limits }, only: { ...lost.only, ...throttled.only }, after: { 'dynamodb.throttling': 1 } });
});

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
