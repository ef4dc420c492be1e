import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { balanceChange, balancesWithHeldRefunds } from '../../../shared/db/balance';
import { adjustmentMovement } from '../../../shared/domain/balance';
import { LIMITS } from '../../../shared/limits';
import { createServices } from '../../../shared/services';
import { client, expectEnvelope } from '../../support/http';
import { outboxItems } from '../../support/events';
import { balanceOf, seedPaidPayment } from '../../support/refunds';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;

beforeAll(async () => {
  // No cancel window here, so that a covered refund is processed at the job's first run (lifecycle.test.ts tests the window).
  stack = await startTestStack({ env: { REFUND_CANCEL_WINDOW_SECONDS: '0' } });
});
afterAll(() => stack.stop());

const eur = (value: string) => ({ value, currency: 'eur' });
const HOOK = 'https://merchant.example/hooks/refunds';

/** A merchant with an empty balance and its calls. */
async function setup() {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  return {
    merchant,
    api,
    /** A paid payment whose credit did not reach the balance: the balance stays as the test sets it. */
    payment: (amount = '100.00') => seedPaidPayment(stack, merchant, { amount, credit: false }),
    refund: (paymentId: string, body: unknown = {}) => api.post(`/v1/payments/${paymentId}/refunds`, body),
    adjust: (value: string) => api.post('/v1/test_helpers/balance_adjustments', { amount: eur(value) }),
    get: async (id: string) => (await api.get(`/v1/refunds/${id}`)).body,
    move: (id: string, status: string) => api.post(`/v1/test_helpers/refunds/${id}/transitions`, { status }),
    runJob: () => api.post('/v1/test_helpers/jobs/process-refunds'),
    balance: () => balanceOf(stack, merchant),
  };
}

describe('balance adjustments (test helper)', () => {
  test('a signed adjustment -> 201 {object: balance, available} in lower-case currency', async () => {
    const { adjust } = await setup();
    const credited = await adjust('10.00');
    expect(credited.status).toBe(201);
    expect(credited.body).toEqual({ object: 'balance', available: eur('10.00') });
    expect((await adjust('-12.50')).body).toEqual({ object: 'balance', available: eur('-2.50') });
  });

  test('balance adjustment: a live key -> 404; bad values -> 400', async () => {
    const { merchant, api } = await setup();
    expectEnvelope(await client(stack.baseUrl, merchant.live).post('/v1/test_helpers/balance_adjustments', { amount: eur('1.00') }), 404);
    for (const amount of [{ value: '1.001', currency: 'eur' }, { value: 'ten', currency: 'eur' }, { value: '1.00', currency: 'eu' }]) {
      expectEnvelope(await api.post('/v1/test_helpers/balance_adjustments', { amount }), 400);
    }
    expectEnvelope(await api.post('/v1/test_helpers/balance_adjustments', { amount: eur('1.00'), note: 'x' }), 400);
    expectEnvelope(await api.post('/v1/test_helpers/balance_adjustments', {}), 422, 'amount');
  });

  test('a balance never leaves ±LIMITS.balanceMinor (exact integers): the change that would is refused, nothing written', async () => {
    const { merchant, adjust, balance } = await setup();
    const ref = { orgId: merchant.orgId, mode: 'test' as const, currency: 'EUR' };
    await stack.db.send(new TransactWriteCommand({ TransactItems: balanceChange(stack.tableName, ref, adjustmentMovement(LIMITS.balanceMinor - 50)) }));
    expectEnvelope(await adjust('1.00'), 422, 'amount.value');
    expect(await balance()).toBe(LIMITS.balanceMinor - 50);
    expect((await adjust('0.50')).body.available).toEqual(eur('9999999999999.99'));
    await stack.db.send(new TransactWriteCommand({ TransactItems: balanceChange(stack.tableName, ref, adjustmentMovement(-2 * LIMITS.balanceMinor)) }));
    expect(await balance()).toBe(-LIMITS.balanceMinor);
    expectEnvelope(await adjust('-0.01'), 422, 'amount.value');
    expect(await balance()).toBe(-LIMITS.balanceMinor);
  });

  test('a paid payment credits the balance; a funded refund debits it', async () => {
    const { merchant, refund } = await setup();
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    expect(await balanceOf(stack, merchant)).toBe(3000);
    expect((await refund(payment.id, { amount: eur('12.00') })).body).toMatchObject({ status: 'pending', on_hold: false });
    expect(await balanceOf(stack, merchant)).toBe(1800);
  });
});

describe('refunds on hold', () => {
  test('a refund the balance cannot cover stays pending with on_hold true and takes nothing', async () => {
    const { payment, refund, adjust, balance } = await setup();
    await adjust('4.99');
    const result = await refund((await payment()).id, { amount: eur('5.00') });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ status: 'pending', on_hold: true, amount: eur('5.00') });
    expect(await balance()).toBe(499);
  });

  test('held refunds are covered oldest first as credits allow, then processed and refunded by the job', async () => {
    const { payment, refund, adjust, get, runJob, balance } = await setup();
    const pay = await payment();
    const older = (await refund(pay.id, { amount: eur('5.00'), webhook_url: HOOK })).body;
    const younger = (await refund(pay.id, { amount: eur('3.00') })).body;
    expect([older.on_hold, younger.on_hold]).toEqual([true, true]);

    // 4.00 would cover the younger refund, but never ahead of the older one.
    expect((await adjust('4.00')).body.available).toEqual(eur('4.00'));
    expect(await get(younger.id)).toMatchObject({ status: 'pending', on_hold: true });

    expect((await adjust('2.00')).body.available).toEqual(eur('1.00'));
    expect(await get(older.id)).toMatchObject({ status: 'pending', on_hold: false });
    expect(await get(younger.id)).toMatchObject({ status: 'pending', on_hold: true });

    expect((await adjust('2.00')).body.available).toEqual(eur('0.00'));
    expect(await get(younger.id)).toMatchObject({ status: 'pending', on_hold: false });

    const run = await runJob();
    expect(run.body).toMatchObject({ object: 'job_run', name: 'process-refunds' });
    expect(run.body.processed).toBeGreaterThanOrEqual(2); // other tests' refunds share the table
    expect(await get(older.id)).toMatchObject({ status: 'processing' });
    expect(await get(younger.id)).toMatchObject({ status: 'processing' });
    await runJob();
    expect(await get(older.id)).toMatchObject({ status: 'refunded' });
    expect(await get(younger.id)).toMatchObject({ status: 'refunded' });
    expect(await balance()).toBe(0);
  });

  test('a new refund never overtakes a held one, even when the balance would cover it', async () => {
    const { payment, refund, adjust } = await setup();
    const pay = await payment();
    await adjust('2.00');
    expect((await refund(pay.id, { amount: eur('5.00') })).body.on_hold).toBe(true);
    expect((await refund(pay.id, { amount: eur('1.00') })).body).toMatchObject({ status: 'pending', on_hold: true });
  });

  test('a later paid payment lifts the balance; the hook releases the held refund, events carry its webhook_url', async () => {
    const { merchant, payment, refund, get, runJob } = await setup();
    const held = (await refund((await payment()).id, { amount: eur('20.00'), webhook_url: HOOK })).body;
    expect(held).toMatchObject({ status: 'pending', on_hold: true });

    // What the payment-link checkout's paid transition does: payment + credit, then the hook.
    const later = await seedPaidPayment(stack, merchant, { amount: '25.00' });
    expect(await createServices(stack.db, stack.tableName).refunds.processHeld({ orgId: merchant.orgId, mode: 'test', currency: later.currency })).toBe(1);
    expect(await get(held.id)).toMatchObject({ status: 'pending', on_hold: false });
    expect(await balanceOf(stack, merchant)).toBe(500);
    await runJob();
    expect(await get(held.id)).toMatchObject({ status: 'processing' });
    await runJob();
    expect(await get(held.id)).toMatchObject({ status: 'refunded' });

    const events = (await outboxItems(stack, merchant.orgId)).filter((event) => event.envelope.data.id === held.id);
    // Held, then covered (pending again, on_hold false), processed, refunded.
    expect(events.map((event) => event.type)).toEqual([
      'transactions.refund.pending',
      'transactions.refund.pending',
      'transactions.refund.processing',
      'transactions.refund.refunded',
    ]);
    expect(events.map((event) => event.envelope.data.on_hold)).toEqual([true, false, false, false]);
    for (const event of events) {
      expect(event.targetUrls).toEqual([HOOK]);
      expect(event.envelope).toMatchObject({ object: 'event', mode: 'test', version: '2026-11-21', data: { object: 'refund', id: held.id } });
      expect(event.envelope.data.status).toBe(event.type.split('.').pop());
    }
  });

  test('the process-refunds job is the safety net: it releases refunds after a credit nobody announced', async () => {
    const { merchant, payment, refund, get, runJob } = await setup();
    const held = (await refund((await payment()).id, { amount: eur('7.00') })).body;
    const ref = { orgId: merchant.orgId, mode: 'test' as const, currency: 'EUR' };
    expect(await balancesWithHeldRefunds(stack.db, stack.tableName)).toContainEqual(ref);
    await stack.db.send(new TransactWriteCommand({ TransactItems: balanceChange(stack.tableName, ref, adjustmentMovement(700)) }));
    expect(await get(held.id)).toMatchObject({ status: 'pending', on_hold: true });
    expect((await runJob()).body.processed).toBeGreaterThanOrEqual(1);
    expect(await get(held.id)).toMatchObject({ status: 'pending', on_hold: false });
    await runJob();
    await runJob();
    expect(await get(held.id)).toMatchObject({ status: 'refunded', on_hold: false });
    expect(await balancesWithHeldRefunds(stack.db, stack.tableName)).not.toContainEqual(ref);
  });
});

describe('lifecycle (test helper transitions)', () => {
  test('processing -> refunded; then refunded -> failed and refunded -> canceled are forbidden (422)', async () => {
    const { payment, refund, adjust, move } = await setup();
    await adjust('10.00');
    const created = (await refund((await payment()).id, { amount: eur('1.00') })).body;
    expect((await move(created.id, 'processing')).body).toMatchObject({ status: 'processing' });
    expectEnvelope(await move(created.id, 'canceled'), 422, 'status');
    const done = await move(created.id, 'refunded');
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ object: 'refund', id: created.id, status: 'refunded' });
    for (const status of ['failed', 'canceled', 'processing', 'refunded']) expectEnvelope(await move(created.id, status), 422, 'status');
  });

  test('processing -> failed gives the amount back to the balance and releases held refunds', async () => {
    const { payment, refund, adjust, move, get, balance } = await setup();
    const pay = await payment();
    await adjust('6.00');
    const first = (await refund(pay.id, { amount: eur('6.00') })).body;
    const waiting = (await refund(pay.id, { amount: eur('4.00') })).body;
    expect([first, waiting].map((created) => [created.status, created.on_hold])).toEqual([['pending', false], ['pending', true]]);
    expect(await balance()).toBe(0);
    await move(first.id, 'processing');
    expect((await move(first.id, 'failed')).body).toMatchObject({ status: 'failed' });
    expect(await get(waiting.id)).toMatchObject({ status: 'pending', on_hold: false });
    expect(await balance()).toBe(200);
    for (const status of ['processing', 'refunded', 'canceled']) expectEnvelope(await move(first.id, status), 422, 'status');
  });

  test('pending -> canceled takes a held refund out of the queue: balance unchanged, the next one moves up', async () => {
    const { payment, refund, adjust, move, get, balance } = await setup();
    const pay = await payment();
    await adjust('3.00');
    const big = (await refund(pay.id, { amount: eur('50.00') })).body;
    const small = (await refund(pay.id, { amount: eur('3.00') })).body;
    expect([big.on_hold, small.on_hold]).toEqual([true, true]);
    expectEnvelope(await move(big.id, 'refunded'), 422, 'status');
    expectEnvelope(await move(big.id, 'failed'), 422, 'status');
    expect((await move(big.id, 'canceled')).body).toMatchObject({ status: 'canceled', on_hold: false });
    expect(await get(small.id)).toMatchObject({ status: 'pending', on_hold: false });
    expect(await balance()).toBe(0);
    expectEnvelope(await move(big.id, 'processing'), 422, 'status');
    // The canceled amount no longer counts against the payment: 97.00 is refundable again.
    expect((await refund(pay.id)).body.amount).toEqual(eur('97.00'));
  });

  test('pending -> processing by the helper needs the balance to cover it (422 otherwise)', async () => {
    const { merchant, payment, refund, move, balance } = await setup();
    const held = (await refund((await payment()).id, { amount: eur('2.00') })).body;
    expectEnvelope(await move(held.id, 'processing'), 422, 'status');
    const ref = { orgId: merchant.orgId, mode: 'test' as const, currency: 'EUR' };
    await stack.db.send(new TransactWriteCommand({ TransactItems: balanceChange(stack.tableName, ref, adjustmentMovement(250)) }));
    expect((await move(held.id, 'processing')).body).toMatchObject({ status: 'processing', on_hold: false });
    expect(await balance()).toBe(50);
  });

  test('transitions: a live key -> 404; an unknown status -> 400; an unknown refund -> 404', async () => {
    const { merchant, payment, refund, adjust, move } = await setup();
    await adjust('1.00');
    const created = (await refund((await payment()).id, { amount: eur('1.00') })).body;
    expectEnvelope(await client(stack.baseUrl, merchant.live).post(`/v1/test_helpers/refunds/${created.id}/transitions`, { status: 'refunded' }), 404);
    expectEnvelope(await move(created.id, 'pending'), 400);
    expectEnvelope(await move('rf_unknown', 'refunded'), 404);
  });

  test('every status change writes transactions.refund.<status> to the outbox; no webhook_url -> no target', async () => {
    const { merchant, payment, refund, adjust, move } = await setup();
    await adjust('5.00');
    const pay = await payment();
    const hooked = (await refund(pay.id, { amount: eur('5.00'), webhook_url: HOOK })).body;
    await move(hooked.id, 'processing');
    await move(hooked.id, 'failed');
    const plain = (await refund(pay.id, { amount: eur('1.00') })).body;
    await move(plain.id, 'processing');
    await move(plain.id, 'refunded');
    const events = await outboxItems(stack, merchant.orgId);
    const of = (id: string) => events.filter((event) => event.envelope.data.id === id);
    expect(of(hooked.id).map((event) => [event.type, event.targetUrls])).toEqual([
      ['transactions.refund.pending', [HOOK]],
      ['transactions.refund.processing', [HOOK]],
      ['transactions.refund.failed', [HOOK]],
    ]);
    expect(of(plain.id).map((event) => [event.type, event.targetUrls])).toEqual([
      ['transactions.refund.pending', undefined],
      ['transactions.refund.processing', undefined],
      ['transactions.refund.refunded', undefined],
    ]);
  });
});
