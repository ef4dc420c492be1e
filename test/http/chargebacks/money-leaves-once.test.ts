import { expectEnvelope } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** A payment's money leaves once (decisions §6): chargebacks not won stay within its amount and block refunds. */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack?.stop());

async function paidPayment(value = '10.00') {
  const link = (await api.post('/v1/payment_links', { amount: { value, currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  return (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
}
const chargeBack = (paymentId: string, value: string) =>
  api.post(`/v1/test_helpers/payments/${paymentId}/chargebacks`, { amount: { value, currency: 'EUR' } });

describe('Chargebacks: money leaves once', () => {
  test('chargebacks of one payment never exceed its amount: the one that would is a 422', async () => {
    const payment = await paidPayment('10.00');
    expect((await chargeBack(payment.id, '6.00')).status).toBe(201);
    expectEnvelope(await chargeBack(payment.id, '4.01'), 422, 'amount.value');
    expect((await chargeBack(payment.id, '4.00')).status).toBe(201);
    expect((await api.get(`/v1/payments/${payment.id}/chargebacks`)).body.data).toHaveLength(2);
  });

  test('concurrent chargebacks cannot together exceed the payment (the condition is in the write)', async () => {
    const payment = await paidPayment('10.00');
    const answers = await Promise.all(Array.from({ length: 6 }, () => chargeBack(payment.id, '3.00')));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((answer) => answer.status !== 201)) expectEnvelope(refused, 422, 'amount.value');
  });

  test('a payment with a chargeback that is not won cannot be refunded; once won, it can, and its amount is free again', async () => {
    const payment = await paidPayment('10.00');
    const chargeback = (await chargeBack(payment.id, '10.00')).body;
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, {}), 422, 'payment_id');
    await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'disputed' });
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, {}), 422, 'payment_id');
    expect((await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'won' })).body.status).toBe('won');
    expect((await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '2.00', currency: 'eur' } })).status).toBe(201);
    expect((await chargeBack(payment.id, '10.00')).status).toBe(201);
  });

  test('a lost chargeback keeps the payment from being refunded', async () => {
    const payment = await paidPayment('10.00');
    const chargeback = (await chargeBack(payment.id, '1.00')).body;
    await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'disputed' });
    await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'lost' });
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, {}), 422, 'payment_id');
  });
});
