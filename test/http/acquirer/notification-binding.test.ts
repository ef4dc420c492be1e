import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NotificationItem } from '../../../bin/local/adyen/notifier';
import { pspReference } from '../../../bin/local/adyen/ledger';
import * as keys from '../../../shared/db/keys';
import { liveLink, notify, waitFor, withLiveStack } from '../../support/live';
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

  withLiveStack((started) => ({ stack, merchant, live } = started));

  const adyenDate = (offsetSeconds = 0) => `${new Date(Date.now() + offsetSeconds * 1000).toISOString().slice(0, 19)}+00:00`;
  const idOf = (item: NotificationItem) => `${item.eventCode}:${item.pspReference}:${item.success}`;
  const kept = async (item: NotificationItem) => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.acquirerNotification(idOf(item)), ConsistentRead: true }))).Item;
  /** Sends the items as one batch, then waits until each is processed: answers their outcomes. */
  async function sent(...items: NotificationItem[]): Promise<string[]> {
    expect(await notify(stack, items)).toEqual({ status: 200, body: '[accepted]' });
    return Promise.all(items.map((item) => waitFor(async () => (await kept(item))?.outcome as string | undefined, `${idOf(item)} processed`, 30_000)));
  }

  /** An open live payment of a new link: its checkout opened, as a customer's browser would. */
  async function openPayment(amount = { value: '25.00', currency: 'EUR' }) {
    const link = await liveLink(live, merchant.acceptorId, { amount });
    const opened = await fetch(link.links.checkout.href, { headers: { accept: 'text/html' } });
    return /name="payment_id" value="([^"]+)"/.exec(await opened.text())![1];
  }

  describe('three-decimal currencies: Adyen\'s minor units compared exactly (ISO 4217 exponent)', () => {
    test('a KWD 1.23 payment is paid by an AUTHORISATION of 1230 fils only, never 1225, 1229 or 1234', async () => {
      // Prepare
      const paymentId = await openPayment({ value: '1.23', currency: 'KWD' });
      const authorisation = (fils: number): NotificationItem => ({
        eventCode: 'AUTHORISATION',
        pspReference: pspReference(),
        merchantAccountCode: 'LocalShopECOM',
        merchantReference: paymentId,
        eventDate: adyenDate(),
        success: 'true',
        amount: { value: fils, currency: 'KWD' },
      });

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
});
