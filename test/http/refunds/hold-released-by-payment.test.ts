import { eventsFor, outboxEvents } from '../../support/events';
import { client } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { waitUntil } from '../../support/wait';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;
beforeAll(async () => {
  // No cancel window: a covered refund is processed at the job's first run.
  stack = await startTestStack({ env: { REFUND_CANCEL_WINDOW_SECONDS: '0' } });
});
afterAll(() => stack.stop());

test('refund on hold: a later paid checkout lifts the balance and the refund proceeds to refunded', async () => {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const link = (await api.post('/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const first = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
  await creditsRolled(stack, merchant.orgId);
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '-10.00', currency: 'eur' } });

  const refund = await api.post(`/v1/payments/${first.id}/refunds`, { amount: { value: '6.00', currency: 'eur' }, webhook_url: 'https://merchant.example/refunds' });
  expect(refund.status).toBe(201);
  expect(refund.body).toMatchObject({ status: 'pending', on_hold: true });

  // Its credit reaches the balance shortly after the payment (§15), and covers the refund as it lands.
  await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {});
  await creditsRolled(stack, merchant.orgId);
  await waitUntil(async () => (await api.get(`/v1/refunds/${refund.body.id}`)).body.on_hold === false, 'the held refund covered');
  const released = (await api.get(`/v1/refunds/${refund.body.id}`)).body;
  expect(released).toMatchObject({ status: 'pending', on_hold: false });

  await api.post('/v1/test_helpers/jobs/process-refunds');
  expect((await api.get(`/v1/refunds/${refund.body.id}`)).body.status).toBe('processing');
  await api.post('/v1/test_helpers/jobs/process-refunds');
  expect((await api.get(`/v1/refunds/${refund.body.id}`)).body.status).toBe('refunded');

  const events = await outboxEvents(stack, merchant.orgId);
  const statuses = ['pending', 'processing', 'refunded'].map((status) => eventsFor(events, `transactions.refund.${status}`, refund.body.id).length);
  // Pending twice: held, then covered by the paid checkout.
  expect(statuses).toEqual([2, 1, 1]);
});
