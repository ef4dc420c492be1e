import { SCOPES } from '../../../shared/auth/principal';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * A payment's refunds over the API (`GET /v1/payments/:id/refunds`, the list rules of decisions
 * §2) and what the payment object says of them and of its chargebacks: `amount_refunded` and
 * `amount_chargedback`.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  // Plenty of balance: every refund is covered at once and can be processed.
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '100000.00', currency: 'eur' } });
});
afterAll(() => stack?.stop());

/** A paid payment of `value` EUR, through a link's test checkout, as a merchant takes one. */
async function paidPayment(value: string, caller: Api = api, acceptorId = merchant.acceptorId): Promise<{ id: string }> {
  const link = (await caller.post('/v1/payment_links', { amount: { value, currency: 'EUR' }, acceptor_id: acceptorId })).body;
  return (await caller.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
}

const refund = async (paymentId: string, value: string) =>
  (await api.post(`/v1/payments/${paymentId}/refunds`, { amount: { value, currency: 'eur' } })).body as { id: string };
const moveRefund = (id: string, status: string) => api.post(`/v1/test_helpers/refunds/${id}/transitions`, { status });
const moveChargeback = (id: string, status: string) => api.post(`/v1/test_helpers/chargebacks/${id}/transitions`, { status });
const chargeback = async (paymentId: string, value: string) =>
  (await api.post(`/v1/test_helpers/payments/${paymentId}/chargebacks`, { amount: { value, currency: 'EUR' } })).body as { id: string };
const ids = (page: { data: { id: string }[] }) => page.data.map((item) => item.id);

describe('GET /v1/payments/:id/refunds', () => {
  test("the payment's refunds only, every status, newest first; limit and both cursors page them", async () => {
    const payment = await paidPayment('50.00');
    const other = await paidPayment('50.00');
    const otherRefund = await refund(other.id, '1.00');
    const made = [];
    for (const value of ['1.00', '2.00', '3.00', '4.00']) made.unshift((await refund(payment.id, value)).id);
    await moveRefund(made[0], 'canceled');
    await moveRefund(made[1], 'processing');
    await moveRefund(made[1], 'failed');

    const all = await api.get(`/v1/payments/${payment.id}/refunds`);
    expect(all.status).toBe(200);
    expect({ ids: ids(all.body), has_more: all.body.has_more }).toEqual({ ids: made, has_more: false });
    expect(all.body.data.map((item: { status: string; payment_id: string }) => [item.status, item.payment_id])).toEqual([
      ['canceled', payment.id],
      ['failed', payment.id],
      ['pending', payment.id],
      ['pending', payment.id],
    ]);
    expect(all.body.data[0]).toEqual((await api.get(`/v1/refunds/${made[0]}`)).body);

    const first = (await api.get(`/v1/payments/${payment.id}/refunds?limit=3`)).body;
    expect({ ids: ids(first), has_more: first.has_more }).toEqual({ ids: made.slice(0, 3), has_more: true });
    const next = (await api.get(`/v1/payments/${payment.id}/refunds?limit=3&starting_after=${made[2]}`)).body;
    expect({ ids: ids(next), has_more: next.has_more }).toEqual({ ids: made.slice(3), has_more: false });
    const back = (await api.get(`/v1/payments/${payment.id}/refunds?limit=2&ending_before=${made[3]}`)).body;
    expect({ ids: ids(back), has_more: back.has_more }).toEqual({ ids: made.slice(1, 3), has_more: true });

    expectEnvelope(await api.get(`/v1/payments/${payment.id}/refunds?starting_after=${otherRefund.id}`), 422, 'starting_after');
    expectEnvelope(await api.get(`/v1/payments/${payment.id}/refunds?ending_before=pay_00000000000000000000000000`), 422, 'ending_before');
    expectEnvelope(await api.get(`/v1/payments/${payment.id}/refunds?starting_after=${made[0]}&ending_before=${made[1]}`), 422, 'ending_before');
    for (const limit of ['0', '101', 'x']) expectEnvelope(await api.get(`/v1/payments/${payment.id}/refunds?limit=${limit}`), 422, 'limit');
    expectEnvelope(await api.get(`/v1/payments/${payment.id}/refunds?status=pending`), 400);
  });

  test('a payment without refunds: an empty page', async () => {
    const payment = await paidPayment('5.00');
    expect((await api.get(`/v1/payments/${payment.id}/refunds`)).body).toEqual({ has_more: false, data: [] });
  });

  test('another organization, the other mode, an unknown and a malformed payment id: the identical 404', async () => {
    const payment = await paidPayment('5.00');
    await refund(payment.id, '1.00');
    const stranger = client(stack.baseUrl, (await createMerchant(stack)).test);
    const answers = [
      await stranger.get(`/v1/payments/${payment.id}/refunds`),
      await client(stack.baseUrl, merchant.live).get(`/v1/payments/${payment.id}/refunds`),
      await api.get('/v1/payments/pay_00000000000000000000000000/refunds'),
      await api.get('/v1/payments/nope/refunds'),
    ];
    for (const answer of answers) expectEnvelope(answer, 404);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
  });

  test('scope refund:read: a key without it -> 403', async () => {
    const payment = await paidPayment('5.00');
    const withoutRead = client(stack.baseUrl, await merchant.key({ scopes: SCOPES.filter((scope) => scope !== 'refund:read') }));
    expectEnvelope(await withoutRead.get(`/v1/payments/${payment.id}/refunds`), 403);
  });
});

describe('The payment object: amount_refunded and amount_chargedback', () => {
  const amounts = async (paymentId: string) => {
    const retrieved = (await api.get(`/v1/payments/${paymentId}`)).body;
    const listed = (await api.get('/v1/payments?limit=100')).body.data.find((item: { id: string }) => item.id === paymentId);
    expect({ refunded: listed.amount_refunded, chargedback: listed.amount_chargedback }).toEqual({
      refunded: retrieved.amount_refunded,
      chargedback: retrieved.amount_chargedback,
    });
    return [retrieved.amount_refunded.value, retrieved.amount_chargedback.value, retrieved.amount_refunded.currency, retrieved.amount_chargedback.currency];
  };

  test('refunded: the refunds that are not failed or canceled (pending, processing, refunded), in the currency of amount', async () => {
    const payment = await paidPayment('50.00');
    expect(await amounts(payment.id)).toEqual(['0.00', '0.00', 'EUR', 'EUR']);
    const pending = await refund(payment.id, '10.00');
    expect((await amounts(payment.id))[0]).toBe('10.00');
    const canceled = await refund(payment.id, '5.00');
    expect((await amounts(payment.id))[0]).toBe('15.00');
    await moveRefund(canceled.id, 'canceled');
    expect((await amounts(payment.id))[0]).toBe('10.00');
    const failed = await refund(payment.id, '7.50');
    await moveRefund(failed.id, 'processing');
    expect((await amounts(payment.id))[0]).toBe('17.50');
    await moveRefund(failed.id, 'failed');
    expect((await amounts(payment.id))[0]).toBe('10.00');
    await moveRefund(pending.id, 'processing');
    await moveRefund(pending.id, 'refunded');
    expect(await amounts(payment.id)).toEqual(['10.00', '0.00', 'EUR', 'EUR']);
  });

  test('chargedback: the chargebacks that are not won; one on a partly refunded payment adds to it', async () => {
    const payment = await paidPayment('40.00');
    await refund(payment.id, '10.00');
    const won = await chargeback(payment.id, '12.00');
    expect(await amounts(payment.id)).toEqual(['10.00', '12.00', 'EUR', 'EUR']);
    await moveChargeback(won.id, 'disputed');
    expect((await amounts(payment.id))[1]).toBe('12.00');
    await moveChargeback(won.id, 'won');
    expect((await amounts(payment.id))[1]).toBe('0.00');
    const lost = await chargeback(payment.id, '8.00');
    await moveChargeback(lost.id, 'disputed');
    await moveChargeback(lost.id, 'lost');
    const accepted = await chargeback(payment.id, '4.00');
    await moveChargeback(accepted.id, 'accepted');
    expect(await amounts(payment.id)).toEqual(['10.00', '12.00', 'EUR', 'EUR']);
  });
});
