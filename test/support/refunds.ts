import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../../shared/auth/principal';
import { balanceChange, PENDING_CREDIT, pendingCreditsOf, readBalance } from '../../shared/db/balance';
import * as keys from '../../shared/db/keys';
import { paymentMovement } from '../../shared/domain/balance';
import { paymentItem } from '../../shared/db/payment-repository';
import type { Payment } from '../../shared/domain/payments';
import { firstIdAt, newId } from '../../shared/ids';
import { parseMinor } from '../../shared/money';
import { isoMillis } from '../../shared/time';
import type { Api, Merchant, TestStack } from './stack';
import { waitUntil } from './wait';

/**
 * A paid payment as the payment-link checkout leaves it: the payment and, in the same
 * transaction, the credit of the organization's balance (product-decisions §5).
 */
export async function seedPaidPayment(
  stack: TestStack,
  merchant: Merchant,
  options: { amount?: string; currency?: string; mode?: Mode; status?: Payment['status']; credit?: boolean; at?: Date } = {},
): Promise<Payment> {
  const status = options.status ?? 'paid';
  const at = options.at ?? new Date();
  const payment: Payment = {
    // An id of that moment (ids made now are never older than the last one): one payment per `at`.
    id: options.at ? firstIdAt('payment', at.getTime()) : newId('payment'),
    orgId: merchant.orgId,
    mode: options.mode ?? 'test',
    acceptorId: merchant.acceptorId,
    paymentLinkId: newId('paymentLink'),
    status,
    amountMinor: parseMinor(options.amount ?? '10.00'),
    currency: options.currency ?? 'EUR',
    createdAt: isoMillis(at),
    ...(status === 'paid' ? { paidAt: isoMillis(at) } : {}),
  };
  const credit = status === 'paid' && options.credit !== false;
  await stack.db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: stack.tableName, Item: paymentItem(payment) } },
        ...(credit
          ? balanceChange(stack.tableName, { orgId: payment.orgId, mode: payment.mode, currency: payment.currency }, paymentMovement(payment.id, payment.amountMinor))
          : []),
      ],
    }),
  );
  return payment;
}

export const balanceOf = (stack: TestStack, merchant: Merchant, mode: Mode = 'test') =>
  readBalance(stack.db, stack.tableName, { orgId: merchant.orgId, mode, currency: 'EUR' });


/**
 * Waits until the organization's paid payments' credits are in its balances: the table stream's
 * outbox processor rolls them in shortly after the payment (product-decisions §15), and covers
 * held refunds as it does.
 */
export async function creditsRolled(stack: TestStack, orgId: string, mode: Mode = 'test'): Promise<void> {
  await waitUntil(async () => (await pendingCreditsOf(stack.db, stack.tableName, orgId, mode)).length === 0, `the pending credits of ${orgId} rolled into its balances`);
}

/** Waits until one paid payment's credit is in its balance: its ledger entry no longer pending. */
export async function paymentCredited(stack: TestStack, api: Api, paymentId: string): Promise<void> {
  await waitUntil(async () => {
    const [entry] = (await api.get(`/v1/balance_transactions?source=${paymentId}&type=payment`)).body.data;
    if (!entry) return false;
    const item = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.balanceTransaction(entry.id), ConsistentRead: true }))).Item;
    return item !== undefined && item[PENDING_CREDIT] === undefined;
  }, `the credit of ${paymentId} rolled into its balance`);
}
