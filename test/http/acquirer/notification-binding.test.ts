import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationItem } from '../../../bin/local/adyen/notifier';
import { pspReference } from '../../../bin/local/adyen/ledger';
import { notificationIdentity } from '../../../shared/acquirer/adyen-transformers';
import * as keys from '../../../shared/db/keys';
import { METRIC } from '../../../shared/observability/catalog';
import { acquirerControl, adyenDate, authorisationItem, chargebacksOf, notify, openLivePayment, paidLivePayment, paidWithCapturePending, waitFor, withLiveStack } from '../../support/live';
import { metricsWhile, sumOf } from '../../support/metrics';
import { balanceOf } from '../../support/refunds';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * A notification moves only what it is about (product-decisions §12, revised 2026-11-28): the
 * local Adyen's `POST /_test/notifications` plays the adversary (every item signed with the
 * stack's key and sent with its credentials, as Adyen or anyone holding them could) with
 * another merchant account, another payment's reference, a wrong amount, reordered and repeated
 * notifications; none of them moves money that the notification is not about.
 */
describe('acquirer notifications are bound to what they name', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;

  // Refunds go to the acquirer at the job's first run after their creation.
  withLiveStack((started) => ({ stack, merchant, live } = started), { REFUND_CANCEL_WINDOW_SECONDS: '0' });

  const OTHER_ACCOUNT = 'SomeoneElseECOM';

  const kept = async (item: NotificationItem) => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.acquirerNotification(notificationIdentity(item)), ConsistentRead: true }))).Item;
  /** Sends the items as one batch, then waits until each is processed: answers their outcomes. */
  async function sent(...items: NotificationItem[]): Promise<string[]> {
    expect(await notify(stack, items)).toEqual({ status: 200, body: '[accepted]' });
    return Promise.all(items.map((item) => waitFor(async () => (await kept(item))?.outcome as string | undefined, `${notificationIdentity(item)} processed`, 30_000)));
  }

  /** The unmatched notifications the processor counted while `act` ran, by reason. */
  async function unmatchedWhile(act: () => Promise<unknown>) {
    const documents = await metricsWhile(stack, { named: 'NotificationProcessor' }, act);
    return Object.fromEntries(['account', 'reference', 'amount', 'state'].map((reason) => [reason, sumOf(documents, METRIC.acquirerNotificationsUnmatched, ['Reason', reason])]).filter(([, count]) => count));
  }

  /** A modification or dispute notification about `payment`, as Adyen words it; `change` alters what the test plays with. */
  const about = (payment: { id: string; acquirer_reference: string }, eventCode: string, change: Partial<NotificationItem> = {}): NotificationItem => ({
    eventCode,
    pspReference: pspReference(),
    originalReference: payment.acquirer_reference,
    merchantAccountCode: 'LocalShopECOM',
    merchantReference: payment.id,
    eventDate: adyenDate(),
    success: 'true',
    reason: '',
    amount: { value: 2500, currency: 'EUR' },
    ...change,
  });

  const payment = async (id: string) => (await live.get(`/v1/payments/${id}`)).body;
  const refundWhen = (id: string, status: string) =>
    waitFor(async () => {
      const { body } = await live.get(`/v1/refunds/${id}`);
      return body.status === status ? body : undefined;
    }, `refund ${id} ${status}`, 30_000);

  describe('three-decimal currencies: Adyen\'s minor units compared exactly (ISO 4217 exponent)', () => {
    test('a KWD 1.23 payment is paid by an AUTHORISATION of 1230 fils only, never 1225, 1229 or 1234', async () => {
      // Prepare
      const paymentId = await openLivePayment(live, merchant.acceptorId, { amount: { value: '1.23', currency: 'KWD' } });
      const authorisation = (fils: number) => authorisationItem(paymentId, { value: fils, currency: 'KWD' });

      // Act
      const outcomes = await sent(authorisation(1225), authorisation(1229), authorisation(1234));
      const before = (await live.get(`/v1/payments/${paymentId}`)).body;
      const exact = authorisation(1230);
      await sent(exact);

      // Assess
      expect(outcomes).toEqual(['authorisation_canceled', 'authorisation_canceled', 'authorisation_canceled']);
      expect(before).toMatchObject({ status: 'open', acquirer_reference: null });
      expect((await live.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'paid', amount: { value: '1.23', currency: 'KWD' }, acquirer_reference: exact.pspReference });
    });
  });

  describe('captures: one capture, its reference and its whole amount; older news changes nothing', () => {
    test('CAPTURE_FAILED, then an older CAPTURE success of the same capture (eventDate before the failure\'s): the capture stays failed and the credit stays taken back', async () => {
      // Prepare: a payment whose capture the acquirer has not reported yet
      const paid = await paidWithCapturePending(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const capture = pspReference();
      const failed = about(paid, 'CAPTURE_FAILED', { pspReference: capture, eventDate: adyenDate(20), reason: 'Capture Failed' });
      const olderSuccess = about(paid, 'CAPTURE', { pspReference: capture, eventDate: adyenDate(10) });

      // Act: delivered in the other order than they happened
      const outcomes = [...(await sent(failed)), ...(await sent(olderSuccess))];

      // Assess
      expect(outcomes).toEqual(['capture_failed', 'older']);
      expect((await payment(paid.id)).capture).toEqual({ status: 'failed', acquirer_reference: capture });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before - 2500);
    });

    test('CAPTURE, then a genuinely later CAPTURE_FAILED of the same capture, applies as Adyen means it', async () => {
      // Prepare
      const paid = await paidWithCapturePending(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const capture = pspReference();

      // Act
      const outcomes = [...(await sent(about(paid, 'CAPTURE', { pspReference: capture, eventDate: adyenDate(10) }))), ...(await sent(about(paid, 'CAPTURE_FAILED', { pspReference: capture, eventDate: adyenDate(20), reason: 'Capture Failed' })))];

      // Assess
      expect(outcomes).toEqual(['capture_captured', 'capture_failed']);
      expect((await payment(paid.id)).capture).toEqual({ status: 'failed', acquirer_reference: capture });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before - 2500);
    });

    test('a CAPTURE of 1.00 on a 25.00 payment, or of another capture than the payment\'s, moves nothing (unmatched: amount, reference)', async () => {
      // Prepare
      const paid = await paidLivePayment(stack, live, merchant.acceptorId);
      await sent(about(paid, 'CAPTURE_FAILED', { pspReference: paid.capture.acquirer_reference, eventDate: adyenDate(20), reason: 'Capture Failed' }));
      const before = await balanceOf(stack, merchant, 'live');

      // Act
      let outcomes: string[] = [];
      const counted = await unmatchedWhile(async () => {
        outcomes = await sent(about(paid, 'CAPTURE', { eventDate: adyenDate(30), amount: { value: 100, currency: 'EUR' } }), about(paid, 'CAPTURE', { originalReference: pspReference(), eventDate: adyenDate(30) }));
      });

      // Assess
      expect(outcomes).toEqual(['unmatched', 'unmatched']);
      expect(counted).toEqual({ amount: 1, reference: 1 });
      expect((await payment(paid.id)).capture).toMatchObject({ status: 'failed' });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    });
  });

  describe('refunds: bound to their payment, their reference and their amount', () => {
    /** A live refund of `value` EUR that the acquirer refunded. */
    async function refunded(value: string) {
      const paid = await paidLivePayment(stack, live, merchant.acceptorId);
      const refund = (await live.post(`/v1/payments/${paid.id}/refunds`, { amount: { value, currency: 'eur' } })).body;
      await stack.runMinuteJobs();
      return { paid, refund: await refundWhen(refund.id, 'refunded') };
    }

    test.each<[string, string, (refund: { acquirer_reference: string }, other: { id: string; acquirer_reference: string }) => Partial<NotificationItem>]>([
      ['for another merchant account, with another payment\'s reference', 'account', (_refund, other) => ({ merchantAccountCode: OTHER_ACCOUNT, originalReference: other.acquirer_reference })],
      ['with another payment\'s reference', 'reference', (_refund, other) => ({ originalReference: other.acquirer_reference })],
      ['naming another refund at the acquirer', 'reference', () => ({ pspReference: pspReference() })],
      ['of another amount', 'amount', () => ({ amount: { value: 1, currency: 'EUR' } })],
    ])('a REFUND_FAILED %s leaves a refunded refund refunded and its money where it is (unmatched: %s)', async (_case, reason, change) => {
      // Prepare
      const { paid, refund } = await refunded('4.00');
      const other = await paidLivePayment(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const forged = about(paid, 'REFUND_FAILED', { pspReference: refund.acquirer_reference, merchantReference: refund.id, amount: { value: 400, currency: 'EUR' }, eventDate: adyenDate(20), reason: 'Refund Failed', ...change(refund, other) });

      // Act
      let outcomes: string[] = [];
      const counted = await unmatchedWhile(async () => {
        outcomes = await sent(forged);
      });

      // Assess
      expect(outcomes).toEqual(['unmatched']);
      expect(counted).toEqual({ [reason]: 1 });
      expect((await live.get(`/v1/refunds/${refund.id}`)).body).toMatchObject({ status: 'refunded', acquirer_reference: refund.acquirer_reference });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before);
      expect((await payment(paid.id)).amount_refunded).toEqual({ value: '4.00', currency: 'EUR' });
    });

    test('a genuinely later REFUND_FAILED of the refund applies as Adyen means it: refunded, then failed with its money back', async () => {
      // Prepare
      const { paid, refund } = await refunded('3.00');
      const before = await balanceOf(stack, merchant, 'live');

      // Act
      const outcomes = await sent(about(paid, 'REFUND_FAILED', { pspReference: refund.acquirer_reference, merchantReference: refund.id, amount: { value: 300, currency: 'EUR' }, eventDate: adyenDate(20), reason: 'Refund Failed' }));

      // Assess
      expect(outcomes).toEqual(['failed']);
      expect(await balanceOf(stack, merchant, 'live')).toBe(before + 300);
    });
  });

  describe('disputes: bound to their payment and chargeback; an amount of zero or less opens nothing', () => {
    /** A paid live payment disputed at the local Adyen (15.00 of its 25.00): its chargeback open here. */
    async function disputed() {
      const paid = await paidLivePayment(stack, live, merchant.acceptorId);
      const raised = await acquirerControl(stack, '/_test/chargebacks', { pspReference: paid.acquirer_reference, amount: { value: 1500, currency: 'EUR' } });
      const chargeback = await waitFor(async () => (await chargebacksOf(live, paid.id)).find((found) => found.status === 'open'), 'the chargeback open', 30_000);
      return { paid, dispute: raised.body.disputePspReference as string, chargeback };
    }

    test('a CHARGEBACK_REVERSED from another account and payment, or a PREARBITRATION_WON of another amount, leaves the chargeback open (unmatched: account, amount)', async () => {
      // Prepare
      const { paid, dispute, chargeback } = await disputed();
      const other = await paidLivePayment(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const reversal = (change: Partial<NotificationItem>) => about(paid, 'CHARGEBACK_REVERSED', { pspReference: dispute, amount: { value: 1500, currency: 'EUR' }, eventDate: adyenDate(20), ...change });

      // Act
      let outcomes: string[] = [];
      const counted = await unmatchedWhile(async () => {
        outcomes = await sent(
          reversal({ merchantAccountCode: OTHER_ACCOUNT, originalReference: other.acquirer_reference, merchantReference: other.id }),
          about(paid, 'PREARBITRATION_WON', { pspReference: dispute, amount: { value: 1, currency: 'EUR' }, eventDate: adyenDate(20) }),
        );
      });

      // Assess
      expect(outcomes).toEqual(['unmatched', 'unmatched']);
      expect(counted).toEqual({ account: 1, amount: 1 });
      expect((await live.get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({ status: 'open' });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    });

    test('disputes of 0.00 and -5.00 open nothing and credit nothing (unmatched: amount); positive ones never pass the payment\'s amount', async () => {
      // Prepare
      const paid = await paidLivePayment(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const opening = (value: number) => about(paid, 'NOTIFICATION_OF_CHARGEBACK', { amount: { value, currency: 'EUR' }, reason: 'Fraud', additionalData: { chargebackReasonCode: '10.4' } });

      // Act
      let outcomes: string[] = [];
      const counted = await unmatchedWhile(async () => {
        outcomes = [...(await sent(opening(0), opening(-500))), ...(await sent(opening(1500))), ...(await sent(opening(1500)))];
      });

      // Assess
      expect(outcomes).toEqual(['unmatched', 'unmatched', 'chargeback_opened', 'unmatched']);
      expect(counted).toEqual({ amount: 3 });
      const chargebacks = await chargebacksOf(live, paid.id);
      expect(chargebacks.map((chargeback) => chargeback.amount.value)).toEqual(['15.00']);
      expect((await payment(paid.id)).amount_chargedback).toEqual({ value: '15.00', currency: 'EUR' });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before - 1500);
    });
  });

  describe('CANCELLATION of a paid payment\'s authorisation (decisions 78)', () => {
    test('before the capture is confirmed: the authorisation is void, the payment stays paid and counted, its capture failed for good, its credit taken back and its refunds refused', async () => {
      // Prepare
      const paid = await paidWithCapturePending(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');
      const linkId = (await payment(paid.id)).payment_link_id;
      const remaining = (await live.get(`/v1/payment_links/${linkId}`)).body.remaining_payments;

      // Act
      const outcomes = await sent(about(paid, 'CANCELLATION', { eventDate: adyenDate(10) }));
      const laterCapture = await sent(about(paid, 'CAPTURE', { eventDate: adyenDate(20) }));

      // Assess
      expect([...outcomes, ...laterCapture]).toEqual(['authorisation_voided', 'unmatched']);
      expect(await payment(paid.id)).toMatchObject({ status: 'paid', capture: { status: 'failed', acquirer_reference: null } });
      expect((await live.get(`/v1/payment_links/${linkId}`)).body.remaining_payments).toBe(remaining);
      expect(await balanceOf(stack, merchant, 'live')).toBe(before - 2500);
      const entries = (await live.get(`/v1/balance_transactions?source=${paid.id}`)).body.data.map((entry: any) => [entry.type, entry.amount.value]);
      expect(entries).toEqual([['payment', '-25.00'], ['payment', '25.00']]);
      expect(await live.post(`/v1/payments/${paid.id}/refunds`, {})).toMatchObject({ status: 422, body: { attribute: 'payment_id' } });
    });

    test('of a captured payment (Adyen cancels no captured payment), or of an authorisation the service cancelled none of, changes nothing (unmatched: state, reference)', async () => {
      // Prepare
      const paid = await paidLivePayment(stack, live, merchant.acceptorId);
      const before = await balanceOf(stack, merchant, 'live');

      // Act
      let outcomes: string[] = [];
      const counted = await unmatchedWhile(async () => {
        outcomes = await sent(about(paid, 'CANCELLATION', { eventDate: adyenDate(10) }), about(paid, 'CANCELLATION', { originalReference: pspReference(), eventDate: adyenDate(10) }));
      });

      // Assess
      expect(outcomes).toEqual(['unmatched', 'unmatched']);
      expect(counted).toEqual({ state: 1, reference: 1 });
      expect((await payment(paid.id)).capture).toMatchObject({ status: 'captured' });
      expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    });
  });
});
