import { createSigningSecrets, createWebhookRepository } from '../../../shared/db/webhook-repository';
import { waitUntil } from '../../support/wait';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * The whole pipeline on the local stack, driven through the API as a merchant would:
 * outbox -> DynamoDB Local stream -> fan-out -> signed HTTP delivery to 127.0.0.1.
 */
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // No cancel window: a covered refund is processed at the job's first run.
  stack = await startTestStack({ background: true, env: { WEBHOOK_RETRY_SCHEDULE: '0.05,0.1,0.2', REFUND_CANCEL_WINDOW_SECONDS: '0' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
});

const ENVELOPE_KEYS = ['data', 'id', 'mode', 'object', 'triggered_at', 'type', 'version'];

test('webhooks: a transactions.payment_link.* subscriber gets every link event exactly once, signed', async () => {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const subscription = await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({
    orgId: merchant.orgId,
    mode: 'test',
    url: receiver.url,
    events: ['transactions.payment_link.*'],
  });

  const limited = (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: 2 })).body;
  await api.post(`/v1/payment_links/${limited.id}`, { description: 'Two seats' });
  await api.post(`/v1/test_helpers/payment_links/${limited.id}/checkout`, { client_key: 'customer-a' });
  await api.post(`/v1/test_helpers/payment_links/${limited.id}/checkout`, { client_key: 'customer-b' });
  const expiring = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, expires_at: '2021-01-01T00:00:00Z' })).body;
  await api.post('/v1/test_helpers/jobs/expire-payment-links');

  const expected: [string, string, number][] = [
    ['transactions.payment_link.created', limited.id, 1],
    ['transactions.payment_link.properties.changed', limited.id, 1],
    ['transactions.payment_link.checkout.requested', limited.id, 2],
    ['transactions.payment_link.payment.created', limited.id, 2],
    ['transactions.payment_link.remaining_payments.decremented', limited.id, 2],
    ['transactions.payment_link.auto_inactivated', limited.id, 1],
    ['transactions.payment_link.created', expiring.id, 1],
    ['transactions.payment_link.expired', expiring.id, 1],
  ];
  const total = expected.reduce((sum, [, , count]) => sum + count, 0);
  await receiver.waitFor(() => receiver.delivered().length >= total, `${total} deliveries`, 30_000);
  // A later event on another link flushes anything still on its way, so "exactly once" is checked after it.
  const sentinel = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  await receiver.waitFor(() => receiver.delivered().some((r) => r.envelope.data.id === sentinel.id), 'the sentinel', 30_000);

  const delivered = receiver.delivered().filter((request) => request.envelope.data.id !== sentinel.id);
  for (const [type, id, count] of expected) {
    expect([type, id, delivered.filter((r) => r.envelope.type === type && r.envelope.data.id === id).length]).toEqual([type, id, count]);
  }
  expect(delivered).toHaveLength(total);
  expect(new Set(delivered.map((request) => request.envelope.id)).size).toBe(total);
  expect(delivered.some((request) => request.envelope.type === 'transactions.payment.paid')).toBe(false);

  for (const request of delivered) {
    expect(receiver.verify(request, subscription.secret)).toEqual(request.envelope);
    expect(request.headers['webhook-id']).toBe(request.envelope.id);
    expect(Object.keys(request.envelope).sort()).toEqual(ENVELOPE_KEYS);
    expect(request.envelope).toMatchObject({ object: 'event', version: '2026-11-21', mode: 'test', triggered_at: expect.stringMatching(/Z$/) });
    expect(request.envelope.data.object).toBe('payment_link');
  }
  const auto = delivered.find((r) => r.envelope.type === 'transactions.payment_link.auto_inactivated')!;
  expect(auto.envelope.data).toMatchObject({ reason: 'limit_reached', payments_limit: 2, paid_count_at_inactivation: 2, payment_id: expect.stringMatching(/^pay_/) });
}, 90_000);

test('webhooks: a refund held for balance is released by a later payment; its events reach its webhook_url, signed', async () => {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const link = (await api.post('/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const payment = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '-10.00', currency: 'eur' } });

  const refundHook = `${receiver.url}?refunds`;
  const refund = (await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '4.00', currency: 'eur' }, webhook_url: refundHook })).body;
  expect(refund).toMatchObject({ status: 'pending', on_hold: true });
  await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {});
  // The payment's credit reaches the balance within moments (§15) and covers the refund as it lands.
  await waitUntil(async () => (await api.get(`/v1/refunds/${refund.id}`)).body.on_hold === false, 'the held refund covered by the credit');
  await api.post('/v1/test_helpers/jobs/process-refunds');
  await api.post('/v1/test_helpers/jobs/process-refunds');
  expect((await api.get(`/v1/refunds/${refund.id}`)).body.status).toBe('refunded');

  // Held, covered (pending again), processing, refunded.
  const forRefund = () => receiver.delivered().filter((request) => request.envelope.data.id === refund.id);
  await receiver.waitFor(() => forRefund().length >= 4, 'four refund events', 30_000);
  expect(forRefund().map((request) => request.envelope.type).sort()).toEqual([
    'transactions.refund.pending',
    'transactions.refund.pending',
    'transactions.refund.processing',
    'transactions.refund.refunded',
  ]);
  const secret = await createSigningSecrets(stack.db, stack.tableName, stack.sealer).urlSecret(merchant.orgId, 'test');
  for (const request of forRefund()) expect(receiver.verify(request, secret)).toEqual(request.envelope);
}, 90_000);
