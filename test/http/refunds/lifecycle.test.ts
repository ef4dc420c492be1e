import { client, expectEnvelope } from '../../support/http';
import { eventsFor, outboxEvents } from '../../support/events';
import { balanceOf, seedPaidPayment } from '../../support/refunds';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';

/**
 * The refund lifecycle of product-decisions §6: every new refund is `pending`; a covered one
 * is processed by the job once older than the cancel window, and refunded at its next run;
 * `POST /v1/refunds/:id/cancel` cancels a pending refund, held or not.
 */
const WINDOW_SECONDS = 2;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { REFUND_CANCEL_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
});
afterAll(() => stack.stop());

const eur = (value: string) => ({ value, currency: 'eur' });
const pastTheWindow = () => new Promise((done) => setTimeout(done, WINDOW_SECONDS * 1000 + 200));

async function setup(balance = '100.00') {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  await api.post('/v1/test_helpers/balance_adjustments', { amount: eur(balance) });
  const payment = await seedPaidPayment(stack, merchant, { amount: '100.00', credit: false });
  return {
    merchant,
    api,
    payment,
    refund: async (value: string) => (await api.post(`/v1/payments/${payment.id}/refunds`, { amount: eur(value) })).body,
    cancel: (id: string, as = api) => as.post(`/v1/refunds/${id}/cancel`),
    status: async (id: string) => (await api.get(`/v1/refunds/${id}`)).body.status,
    runJob: () => api.post('/v1/test_helpers/jobs/process-refunds'),
    balance: () => balanceOf(stack, merchant),
  };
}

test('a covered refund is pending and reserved; canceled within the window it gives everything back', async () => {
  const { merchant, api, payment, refund, cancel, balance } = await setup('10.00');
  const created = await refund('4.00');
  expect(created).toMatchObject({ status: 'pending', on_hold: false });
  expect(await balance()).toBe(600);

  const canceled = await cancel(created.id);
  expect(canceled.status).toBe(200);
  expect(canceled.body).toMatchObject({ object: 'refund', id: created.id, status: 'canceled', on_hold: false });
  expect(await balance()).toBe(1000);
  // The canceled amount no longer counts against the payment.
  expect((await api.post(`/v1/payments/${payment.id}/refunds`, {})).body.amount).toEqual(eur('100.00'));
  const events = await outboxEvents(stack, merchant.orgId);
  expect(['pending', 'canceled'].map((status) => eventsFor(events, `transactions.refund.${status}`, created.id).length)).toEqual([1, 1]);
});

test('the job processes a covered refund only after the cancel window, refunds it at its next run; then cancel is 422 on status', async () => {
  const { merchant, refund, cancel, status, runJob, balance } = await setup('10.00');
  const created = await refund('3.00');
  // The job runs until it takes the refund; every run before that leaves it pending.
  await waitUntil(
    async () => {
      await runJob();
      const now = await status(created.id);
      if (now !== 'processing') expect(now).toBe('pending');
      return now === 'processing';
    },
    'the job to process the refund',
    { intervalMs: 200 },
  );
  // It took the refund only once it was older than the window, however long each run took.
  const [processing] = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.refund.processing', created.id);
  expect(Date.parse(processing.triggered_at)).toBeGreaterThanOrEqual(Date.parse(created.created_at) + WINDOW_SECONDS * 1000);
  expectEnvelope(await cancel(created.id), 422, 'status');
  await runJob();
  expect(await status(created.id)).toBe('refunded');
  expectEnvelope(await cancel(created.id), 422, 'status');
  expect(await balance()).toBe(700);
});

test('a held refund can be canceled too: nothing to give back, the next held refund moves up', async () => {
  const { api, refund, cancel, status, balance } = await setup('0.00');
  const first = await refund('5.00');
  const second = await refund('2.00');
  expect([first.on_hold, second.on_hold]).toEqual([true, true]);
  await api.post('/v1/test_helpers/balance_adjustments', { amount: eur('2.00') });
  expect(await status(second.id)).toBe('pending');
  expect((await cancel(first.id)).body).toMatchObject({ status: 'canceled', on_hold: false });
  expect((await api.get(`/v1/refunds/${second.id}`)).body).toMatchObject({ status: 'pending', on_hold: false });
  expect(await balance()).toBe(0);
  expectEnvelope(await cancel(first.id), 422, 'status');
});

test('cancel: another organization, the other mode or an unknown id -> 404; a key without refund:create -> 403', async () => {
  const { merchant, refund, cancel, status } = await setup();
  const created = await refund('1.00');
  const other = await createMerchant(stack);
  expectEnvelope(await cancel(created.id, client(stack.baseUrl, other.test)), 404);
  expectEnvelope(await cancel(created.id, client(stack.baseUrl, merchant.live)), 404);
  expectEnvelope(await cancel('rf_01jd2x3y4z5a6b7c8d9e0f1g2h'), 404);
  expectEnvelope(await cancel(created.id, client(stack.baseUrl, await merchant.key({ scopes: ['refund:read'] }))), 403);
  expect(await status(created.id)).toBe('pending');
});

test('race: cancels and job runs on the same refunds, all at once: exactly one outcome each, the balance exact', async () => {
  const { api, refund, cancel, runJob, balance } = await setup('100.00');
  const refunds = [];
  for (let i = 0; i < 8; i++) refunds.push(await refund('1.00'));
  await pastTheWindow();
  const cancels = refunds.flatMap((created) => [cancel(created.id), cancel(created.id)]);
  const [answers] = await Promise.all([Promise.all(cancels), runJob(), runJob()]);
  for (let i = 0; i < refunds.length; i++) {
    const [a, b] = answers.slice(2 * i, 2 * i + 2).map((answer) => answer.status);
    const final = (await api.get(`/v1/refunds/${refunds[i].id}`)).body.status;
    // At most one cancel wins; when one does the refund is canceled, otherwise the job took it
    // (two overlapping runs may take it a step further, to refunded).
    expect([a, b].filter((code) => code === 200).length).toBeLessThanOrEqual(1);
    expect([a, b].every((code) => code === 200 || code === 422)).toBe(true);
    if ([a, b].includes(200)) expect(final).toBe('canceled');
    else expect(['processing', 'refunded']).toContain(final);
  }
  const kept = (await Promise.all(refunds.map(async (created) => (await api.get(`/v1/refunds/${created.id}`)).body.status))).filter(
    (final) => final !== 'canceled',
  ).length;
  expect(await balance()).toBe(10_000 - kept * 100);
});
