import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { client, postWithRetries } from '../../support/http';
import { balanceOf, seedPaidPayment } from '../../support/refunds';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;

// Correctness under contention, not speed: 50 writers on one payment and one balance retry
// their rounds, and under a full suite's load on two cores a test ran past 30 s where it takes 4 s alone.
jest.setTimeout(120_000);

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const PARALLEL = 50;
const eur = (value: string) => ({ value, currency: 'eur' });

/**
 * 50 merchants' requests at once, each a well-behaved client: 50 writers of one payment and one
 * balance serialize on those items (as in DynamoDB), so a request still losing rounds near its
 * function's deadline is told to retry (503 with Retry-After) and retries with its own
 * Idempotency-Key, which makes the retry safe whatever the first attempt did.
 */
async function fire(merchant: Merchant, paymentId: string, body: unknown) {
  const api = client(stack.baseUrl, merchant.test);
  const refund = () => postWithRetries(api, `/v1/payments/${paymentId}/refunds`, body);
  return Promise.all(Array.from({ length: PARALLEL }, refund));
}

const sumOf = (results: { status: number; body: any }[]) =>
  results.filter((result) => result.status === 201).reduce((sum, result) => sum + Math.round(Number(result.body.amount.value) * 100), 0);

async function refundedTotal(paymentId: string): Promise<number> {
  const result = await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.payment(paymentId), ConsistentRead: true }));
  return result.Item?.refundedMinor ?? 0;
}

describe('concurrency', () => {
  test('50 parallel refunds of 1.00 against a 10.00 payment: exactly 10 succeed, the others get 422 amount.value', async () => {
    const merchant = await createMerchant(stack);
    await client(stack.baseUrl, merchant.test).post('/v1/test_helpers/balance_adjustments', { amount: eur('1000.00') });
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    const results = await fire(merchant, payment.id, { amount: eur('1.00') });
    expect(results.filter((result) => result.status === 201).length).toBe(10);
    for (const result of results.filter((r) => r.status !== 201)) {
      expect(result.status).toBe(422);
      expect(result.body.attribute).toBe('amount.value');
    }
    expect(sumOf(results)).toBe(1000);
    expect(await refundedTotal(payment.id)).toBe(1000);
  });

  test('50 parallel full refunds (amount omitted): exactly one refunds the whole payment', async () => {
    const merchant = await createMerchant(stack);
    await client(stack.baseUrl, merchant.test).post('/v1/test_helpers/balance_adjustments', { amount: eur('1000.00') });
    const payment = await seedPaidPayment(stack, merchant, { amount: '37.50' });
    const results = await fire(merchant, payment.id, {});
    expect(results.filter((result) => result.status === 201).length).toBe(1);
    expect(results.filter((result) => result.status === 422).length).toBe(PARALLEL - 1);
    expect(await refundedTotal(payment.id)).toBe(3750);
  });

  test('50 parallel overcaptured refunds of 0.50 against 10.00: together never above the 12.00 ceiling', async () => {
    const merchant = await createMerchant(stack);
    await client(stack.baseUrl, merchant.test).post('/v1/test_helpers/balance_adjustments', { amount: eur('1000.00') });
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    const results = await fire(merchant, payment.id, { amount: eur('0.50'), allow_overcaptured: true });
    expect(results.filter((result) => result.status === 201).length).toBe(24);
    expect(sumOf(results)).toBe(1200);
    expect(await refundedTotal(payment.id)).toBe(1200);
  });

  test('50 parallel refunds of 1.00 against a 5.00 balance: it never goes below zero, the rest waits on hold', async () => {
    const merchant = await createMerchant(stack);
    const api = client(stack.baseUrl, merchant.test);
    await api.post('/v1/test_helpers/balance_adjustments', { amount: eur('5.00') });
    const payment = await seedPaidPayment(stack, merchant, { amount: '100.00', credit: false });
    const results = await fire(merchant, payment.id, { amount: eur('1.00') });
    expect(results.filter((result) => result.status !== 201).map((result) => result.body)).toEqual([]);
    const funded = results.filter((result) => result.body.on_hold === false);
    const held = results.filter((result) => result.body.on_hold === true);
    expect(funded.length).toBeLessThanOrEqual(5);
    expect(results.every((result) => result.body.status === 'pending')).toBe(true);
    expect(funded.length + held.length).toBe(PARALLEL);
    const balance = await balanceOf(stack, merchant);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBe(500 - funded.length * 100);

    // Crediting 45.00 more releases every held refund, and the balance ends at exactly zero.
    const after = await api.post('/v1/test_helpers/balance_adjustments', { amount: eur('45.00') });
    expect(after.body.available).toEqual(eur('0.00'));
    const listed = await api.get('/v1/refunds?limit=100');
    expect(listed.body.data).toHaveLength(PARALLEL);
    expect(listed.body.data.every((refund: { status: string; on_hold: boolean }) => refund.status === 'pending' && !refund.on_hold)).toBe(true);
  });
});
