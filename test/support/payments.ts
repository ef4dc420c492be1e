import { createPaymentRepository } from '../../shared/db/payment-repository';
import type { Payment } from '../../shared/domain/payments';
import { newId } from '../../shared/ids';
import { isoMillis } from '../../shared/time';
import type { Merchant, TestStack } from './stack';

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
