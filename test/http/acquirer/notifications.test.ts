import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationItem } from '../../../bin/local/adyen/notifier';
import { pspReference } from '../../../bin/local/adyen/ledger';
import { notificationIdentity } from '../../../shared/acquirer/adyen-transformers';
import * as keys from '../../../shared/db/keys';
import { METRIC } from '../../../shared/observability/catalog';
import { adyenDate, authorisationItem, chargebacksOf, basicAuth, deliver, NOTIFICATIONS_PATH, openLivePayment, paidLivePayment, signedBatch, waitFor, withLiveStack } from '../../support/live';
import { metricsWhile, sumOf } from '../../support/metrics';
import { balanceOf } from '../../support/refunds';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * `POST /acquirer/adyen/notifications` (product-decisions §12): a batch is checked (Basic
 * credentials, every item's HMAC), kept, acknowledged `[accepted]`, then processed once from
 * the table stream, in any order; a refused batch changes nothing and is counted.
 */
describe('acquirer notifications', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;

  withLiveStack((started) => ({ stack, merchant, live } = started));

  const kept = async (id: string) => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.acquirerNotification(id), ConsistentRead: true }))).Item;
  const processed = (id: string) => waitFor(async () => ((await kept(id))?.processedAt ? true : undefined), `notification ${id} processed`, 30_000);

  /** A dispute notification about a paid live payment, as Adyen words it. */
  const disputeItem = (payment: { id: string; acquirer_reference: string }, dispute: string, eventCode: string): NotificationItem => ({
    eventCode,
    pspReference: dispute,
    originalReference: payment.acquirer_reference,
    merchantAccountCode: 'LocalShopECOM',
    merchantReference: payment.id,
    eventDate: adyenDate(),
    success: 'true',
    reason: 'Other Fraud-Card Absent Environment',
    amount: { value: 2500, currency: 'EUR' },
    additionalData: { chargebackReasonCode: '10.4', defensePeriodEndsAt: `${new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 19)}+00:00` },
  });

  test('repeated: the same notification twice is kept once and changes nothing twice', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const before = await balanceOf(stack, merchant, 'live');
    const opening = disputeItem(payment, pspReference(), 'NOTIFICATION_OF_CHARGEBACK');

    // Act
    const answers = await Promise.all([deliver(stack, signedBatch(stack, [opening])), deliver(stack, signedBatch(stack, [opening]))]);
    await processed(notificationIdentity(opening));
    const again = await deliver(stack, signedBatch(stack, [opening]));

    // Assess
    expect([...answers, again].map((answer) => [answer.status, answer.text])).toEqual(Array(3).fill([200, '[accepted]']));
    expect(await chargebacksOf(live, payment.id)).toHaveLength(1);
    expect(await balanceOf(stack, merchant, 'live')).toBe(before - 2500);
  });

  test("a defense period beyond year 9999 opens the chargeback with deadline_at in the contract's form (9999-12-31T23:59:59.999Z), not +275760-…", async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const opening = disputeItem(payment, pspReference(), 'CHARGEBACK');
    opening.additionalData = { ...opening.additionalData, defensePeriodEndsAt: '+275760-09-13T00:00:00.000Z' };

    // Act
    await deliver(stack, signedBatch(stack, [opening]));
    await processed(notificationIdentity(opening));

    // Assess
    const [chargeback] = await chargebacksOf(live, payment.id);
    expect((await live.get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({ status: 'open', deadline_at: '9999-12-31T23:59:59.999Z' });
  });

  test('reordered: a dispute\'s outcome before its opening opens and decides it once; the late opening changes nothing', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const before = await balanceOf(stack, merchant, 'live');
    const dispute = pspReference();
    const [won, notified, charged] = ['CHARGEBACK_REVERSED', 'NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK'].map((code) => disputeItem(payment, dispute, code));

    // Act
    await deliver(stack, signedBatch(stack, [won]));
    await processed(notificationIdentity(won));
    await deliver(stack, signedBatch(stack, [notified, charged]));
    await Promise.all([notified, charged].map((item) => processed(notificationIdentity(item))));

    // Assess
    const chargebacks = await chargebacksOf(live, payment.id);
    expect(chargebacks).toHaveLength(1);
    expect((await live.get(`/v1/chargebacks/${chargebacks[0].id}`)).body).toMatchObject({ status: 'won', acquirer: { name: 'adyen', reference: dispute } });
    expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    const types = (await live.get('/v1/events?type=transactions.chargeback.*&limit=100')).body.data.filter((event: any) => event.data.id === chargebacks[0].id).map((event: any) => event.type);
    expect(types.sort()).toEqual(['transactions.chargeback.open', 'transactions.chargeback.won']);
  });

  test('CAPTURE_FAILED: the payment stays paid and counted, its credit is taken back and refunds are refused; a capture that succeeds after all gives it back', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId, { payments_limit: 1 });
    const before = await balanceOf(stack, merchant, 'live');
    const modification = (eventCode: string, success: 'true' | 'false', reference: string): NotificationItem => ({
      eventCode,
      pspReference: reference,
      originalReference: payment.acquirer_reference,
      merchantAccountCode: 'LocalShopECOM',
      merchantReference: payment.id,
      eventDate: adyenDate(),
      success,
      reason: success === 'true' ? '' : 'Capture Failed',
      amount: { value: 2500, currency: 'EUR' },
    });
    // The payment's own capture failed after all; then a capture retried in the back office (a capture of its own) succeeded.
    const failed = modification('CAPTURE_FAILED', 'true', payment.capture.acquirer_reference);

    // Act
    await deliver(stack, signedBatch(stack, [failed]));
    await processed(notificationIdentity(failed));

    // Assess
    expect((await live.get(`/v1/payments/${payment.id}`)).body).toMatchObject({ status: 'paid' });
    const link = (await live.get(`/v1/payments/${payment.id}`)).body.payment_link_id;
    expect((await live.get(`/v1/payment_links/${link}`)).body).toMatchObject({ remaining_payments: 0 });
    expect(await balanceOf(stack, merchant, 'live')).toBe(before - 2500);
    const refused = await live.post(`/v1/payments/${payment.id}/refunds`, {});
    expect(refused).toMatchObject({ status: 422, body: { attribute: 'payment_id' } });

    // Act: captured after all (retried in the acquirer's back office)
    const captured = modification('CAPTURE', 'true', pspReference());
    await deliver(stack, signedBatch(stack, [captured]));
    await processed(notificationIdentity(captured));

    // Assess
    expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    expect((await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '1.00', currency: 'eur' } })).status).toBe(201);
  });

  describe('refused batches: nothing kept or changed, the refusal counted', () => {
    const route = `POST ${NOTIFICATIONS_PATH}`;

    /** A forged AUTHORISATION of an open live payment: were it taken, the payment would be paid. */
    async function forgedAuthorisation() {
      const paymentId = await openLivePayment(live, merchant.acceptorId);
      return { paymentId, item: authorisationItem(paymentId) };
    }

    test.each<[string, (stack: TestStack, item: NotificationItem) => { credentials: string | null; body: string }, number, string]>([
      ['a bad HMAC -> 403', (on, item) => ({ credentials: basicAuth(on), body: signedBatch(on, [item], 'ab'.repeat(32)) }), 403, 'signature'],
      ['missing credentials -> 401 with WWW-Authenticate', (on, item) => ({ credentials: null, body: signedBatch(on, [item]) }), 401, 'credentials'],
      ['a wrong password -> 401', (on, item) => ({ credentials: basicAuth(on, 'wrong'), body: signedBatch(on, [item]) }), 401, 'credentials'],
      ['not a batch -> 400', (on, item) => ({ credentials: basicAuth(on), body: JSON.stringify({ notificationItems: [item] }) }), 400, 'malformed'],
    ])('%s, answered with the error envelope', async (_rule, variant, status, reason) => {
      // Prepare
      const { paymentId, item } = await forgedAuthorisation();
      const { credentials, body } = variant(stack, item);

      // Act
      let answer: Awaited<ReturnType<typeof deliver>> | undefined;
      const documents = await metricsWhile(stack, route, async () => {
        answer = await deliver(stack, body, credentials);
      });

      // Assess
      expect(answer!.status).toBe(status);
      expect(answer!.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(answer!.text)).toEqual({ status, type: expect.any(String), detail: expect.any(String), links: { documentation: { href: expect.stringMatching(/\/docs\/errors$/), type: 'text/html' } } });
      if (status === 401) expect(answer!.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(await kept(notificationIdentity(item))).toBeUndefined();
      expect((await live.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'open', acquirer_reference: null });
      expect(sumOf(documents, METRIC.acquirerNotificationsRefused, ['Reason', reason])).toBe(1);
    });

    test('a batch over 1 MB -> 413 with the error envelope, nothing kept', async () => {
      // Prepare
      const { item } = await forgedAuthorisation();
      const body = signedBatch(stack, [{ ...item, reason: 'x'.repeat(1024 * 1024) }]);

      // Act
      const answer = await deliver(stack, body);

      // Assess
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 413, type: 'Content Too Large' });
      expect(await kept(notificationIdentity(item))).toBeUndefined();
    });
  });
});
