import { chargebacksOf, acquirerControl, paidLivePayment, waitFor, withLiveStack } from '../../support/live';
import { balanceOf } from '../../support/refunds';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * Live chargebacks come from the acquirer's dispute notifications (product-decisions §12):
 * NOTIFICATION_OF_CHARGEBACK and CHARGEBACK open one chargeback per dispute; the scheme's ruling
 * wins or loses it, with the money rules of §6 and §7.
 */
describe('live chargebacks from the acquirer', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;

  withLiveStack((started) => ({ stack, merchant, live } = started));

  const chargebackWhen = (paymentId: string, status: string) =>
    waitFor(async () => {
      const [found] = await chargebacksOf(live, paymentId);
      return found?.status === status ? (await live.get(`/v1/chargebacks/${found.id}`)).body : undefined;
    }, `the chargeback of ${paymentId} ${status}`, 30_000);

  async function disputedPayment() {
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const raised = await acquirerControl(stack, '/_test/chargebacks', { pspReference: payment.acquirer_reference, amount: { value: 1500, currency: 'EUR' } });
    expect(raised.status).toBe(201);
    return { payment, disputeReference: raised.body.disputePspReference as string };
  }

  test('live chargeback: NOTIFICATION_OF_CHARGEBACK and CHARGEBACK open one chargeback (deadline from the defense period, acquirer adyen), then PREARBITRATION_WON wins it', async () => {
    // Prepare
    const before = await balanceOf(stack, merchant, 'live');
    const { payment, disputeReference } = await disputedPayment();

    // Act
    const opened = await chargebackWhen(payment.id, 'open');
    const debited = await balanceOf(stack, merchant, 'live');
    await acquirerControl(stack, `/_test/disputes/${disputeReference}/outcome`, { outcome: 'won' });

    // Assess
    expect(opened).toMatchObject({
      status: 'open',
      amount: { value: '15.00', currency: 'EUR' },
      reason: { code: '10.4' },
      acquirer: { name: 'adyen', reference: disputeReference, case_id: payment.acquirer_reference },
    });
    // The local Adyen's defense period is 14 days, not the service's default of 7.
    expect(Date.parse(opened.deadline_at) - Date.parse(opened.created_at)).toBeGreaterThan(13 * 86_400_000);
    expect(debited).toBe(before + 2500 - 1500);
    const won = await chargebackWhen(payment.id, 'won');
    expect(won).toMatchObject({ status: 'won', acquirer: { reference: disputeReference } });
    expect(await chargebacksOf(live, payment.id)).toHaveLength(1);
    expect(await balanceOf(stack, merchant, 'live')).toBe(before + 2500);
  });

  test('live chargeback: PREARBITRATION_LOST loses it, the debit stays', async () => {
    // Prepare
    const before = await balanceOf(stack, merchant, 'live');
    const { payment, disputeReference } = await disputedPayment();
    await chargebackWhen(payment.id, 'open');

    // Act
    await acquirerControl(stack, `/_test/disputes/${disputeReference}/outcome`, { outcome: 'lost' });

    // Assess
    await chargebackWhen(payment.id, 'lost');
    expect(await chargebacksOf(live, payment.id)).toHaveLength(1);
    expect(await balanceOf(stack, merchant, 'live')).toBe(before + 2500 - 1500);
  });
});
