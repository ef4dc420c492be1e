import { createPaymentRepository } from '../../shared/db/payment-repository';
import type { Payment } from '../../shared/domain/payments';
import { newId } from '../../shared/ids';
import { isoMillis } from '../../shared/time';
import type { Api, Merchant, TestStack } from './stack';

/** A paid payment of `owner` (test mode, 25.00 EUR unless overridden), written straight to the table, as the acquirer's outcome leaves it. */
export async function storePaidPayment(stack: TestStack, owner: Merchant, overrides: Partial<Payment> = {}): Promise<Payment> {
  const payment: Payment = {
    id: newId('payment'),
    orgId: owner.orgId,
    mode: 'test',
    acceptorId: owner.acceptorId,
    paymentLinkId: newId('paymentLink'),
    status: 'paid',
    amountMinor: 2500,
    currency: 'EUR',
    createdAt: isoMillis(),
    paidAt: isoMillis(),
    ...overrides,
  };
  await createPaymentRepository(stack.db, stack.tableName).put(payment);
  return payment;
}

/** A 9.00 EUR link that asks for the customer's email, paid through by the test helper with each outcome and email in turn: the payments in that order. */
export async function checkoutsWithEmails(api: Api, acceptorId: string, payers: [outcome: string, email: string][]): Promise<{ id: string; outcome: string; email: string }[]> {
  const link = (await api.post('/v1/payment_links', { amount: { value: '9.00', currency: 'EUR' }, acceptor_id: acceptorId, collect_email: true })).body;
  const payments: { id: string; outcome: string; email: string }[] = [];
  for (const [outcome, email] of payers) payments.push({ id: (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome, email })).body.id, outcome, email });
  return payments;
}
