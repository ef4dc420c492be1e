import { randomBytes } from 'node:crypto';
import { adyenNotifications } from '../../../shared/acquirer/adyen-notifications';
import { notificationIdentity, sessionRequest } from '../../../shared/acquirer/adyen-transformers';
import { adyenDocument } from '../../../bin/local/adyen/contract';
import { signature, type NotificationItem } from '../../../bin/local/adyen/notifier';

/**
 * The adapter's notification side on Adyen's own examples (the Webhooks document's), each
 * signed with Adyen's algorithm as the local Adyen writes it, checked with the library's
 * HmacValidator and read into the port's words.
 */
describe('Adyen notifications: the documented examples in the port\'s words', () => {
  const settings = { username: 'adyen', password: randomBytes(8).toString('hex'), hmacKey: randomBytes(32).toString('hex') };
  const notifications = adyenNotifications(settings);
  const authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password}`).toString('base64')}`;
  const examples = (adyenDocument('webhooks').components.examples ?? {}) as Record<string, { value: { notificationItems: { NotificationRequestItem: NotificationItem }[] } }>;

  /** The example's item, signed with the test key, in a batch of its own. */
  function delivery(example: string, change: (item: NotificationItem) => NotificationItem = (item) => item) {
    const item = change(structuredClone(examples[example].value.notificationItems[0].NotificationRequestItem));
    item.additionalData = { ...item.additionalData, hmacSignature: signature(item, settings.hmacKey) };
    return { authorization, body: JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: item }] }) };
  }

  const read = (example: string) => {
    const check = notifications.check(delivery(example));
    if (!check.accepted) throw new Error(`${example} refused: ${check.reason}`);
    return check;
  };

  const payment = { paymentId: 'YOUR_MERCHANT_REFERENCE', merchantAccount: 'YOUR_MERCHANT_ACCOUNT', amount: { minor: 1000, currency: 'EUR' }, occurredAt: '2021-01-01T00:00:00.000Z' };
  const modification = { ...payment, acquirerReference: '9913140798220028', modificationReference: 'QFQTPCQ8HXSKGK82' };
  const refund = { ...payment, paymentId: undefined, refundId: 'YOUR_MERCHANT_REFERENCE', acquirerReference: 'QFQTPCQ8HXSKGK82', paymentAcquirerReference: '9913140798220028' };
  const dispute = { ...payment, disputeReference: 'QFQTPCQ8HXSKGK82' };

  test.each([
    ['post-AUTHORISATION-authorisation', { kind: 'payment.authorized', id: expect.stringMatching(/^AUTHORISATION:QFQTPCQ8HXSKGK82:true:[A-Za-z0-9_-]{22}$/), ...payment, acquirerReference: 'QFQTPCQ8HXSKGK82' }],
    ['post-CAPTURE-capture', { kind: 'payment.captured', id: expect.stringMatching(/^CAPTURE:QFQTPCQ8HXSKGK82:true:[A-Za-z0-9_-]{22}$/), ...modification }],
    ['post-CAPTURE_FAILED-capture_failed', { kind: 'payment.capture_failed', reason: 'Capture Failed', ...modification }],
    ['post-CANCELLATION-cancellation', { kind: 'payment.canceled', ...modification }],
    ['post-REFUND-refund', { kind: 'refund.failed', id: expect.stringMatching(/^REFUND:QFQTPCQ8HXSKGK82:false:[A-Za-z0-9_-]{22}$/), reason: "Transaction hasn't been captured, refund not possible", ...refund }],
    ['post-REFUND_FAILED-refund_failed', { kind: 'refund.failed', reason: 'Refund Failed', ...refund }],
    [
      'post-NOTIFICATION_OF_CHARGEBACK-notification_of_chargeback',
      { kind: 'dispute.opened', ...dispute, paymentAcquirerReference: '9913140798220028', caseId: '9913140798220028', reason: { code: '4853', description: 'Payment.TxId=300000000524659113 dispute (automatically defended)' }, deadlineAt: '2021-07-31T01:03:08.000Z' },
    ],
    ['post-CHARGEBACK-chargeback', { kind: 'dispute.opened', id: expect.stringMatching(/^CHARGEBACK:QFQTPCQ8HXSKGK82:true:[A-Za-z0-9_-]{22}$/), ...dispute, caseId: '9913140798220028', deadlineAt: '2021-07-31T01:03:07.000Z' }],
    ['post-CHARGEBACK_REVERSED-chargeback_reversed', { kind: 'dispute.won', ...dispute, paymentAcquirerReference: null }],
    ['post-PREARBITRATION_WON-prearbitration_won', { kind: 'dispute.won', ...dispute }],
    ['post-SECOND_CHARGEBACK-second_chargeback', { kind: 'dispute.lost', ...dispute }],
    ['post-PREARBITRATION_LOST-prearbitration_lost', { kind: 'dispute.lost', ...dispute }],
  ])('%s', (example, expected) => {
    const check = read(example);
    expect(check.ignored).toBe(0);
    expect(check.notifications).toEqual([expect.objectContaining(Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== undefined)))]);
  });

  test.each([
    ['+275760-09-13T00:00:00.000Z', '9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59-23:59', '9999-12-31T23:59:59.999Z'],
    ['-000001-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
  ])('a defense period ending at %s is read in the contract\'s datetime form, years 0000 to 9999: %s', (defensePeriodEndsAt, deadlineAt) => {
    const check = notifications.check(delivery('post-CHARGEBACK-chargeback', (item) => ({ ...item, additionalData: { ...item.additionalData, defensePeriodEndsAt } })));
    expect(check).toMatchObject({ accepted: true, notifications: [{ kind: 'dispute.opened', deadlineAt }] });
  });

  test('identity: a repeat (the same signed values, whatever else it says) is the same notification; another account, payment or amount under the same event code, pspReference and success is another', () => {
    const item = structuredClone(examples['post-REFUND_FAILED-refund_failed'].value.notificationItems[0].NotificationRequestItem);
    const id = notificationIdentity(item);
    expect(read('post-REFUND_FAILED-refund_failed').notifications[0].id).toBe(id);
    expect(notificationIdentity({ ...item, eventDate: '2030-01-01T00:00:00+01:00', reason: 'another wording' } as typeof item)).toBe(id);
    expect(notificationIdentity(structuredClone(item))).toBe(id);
    for (const change of [{ merchantAccountCode: 'Other' }, { originalReference: 'ZZZZZZZZZZZZZZZZ' }, { merchantReference: 'other' }, { amount: { value: 1, currency: 'EUR' } }]) {
      expect(notificationIdentity({ ...item, ...change })).not.toBe(id);
    }
  });

  test('an event the service does not act on is accepted and counted as ignored', () => {
    expect(read('post-REPORT_AVAILABLE-report_available')).toEqual({ accepted: true, notifications: [], ignored: 1 });
  });

  test('an item without its signature refuses the batch (signature)', () => {
    const unsigned = JSON.parse(delivery('post-CAPTURE-capture').body);
    delete unsigned.notificationItems[0].NotificationRequestItem.additionalData.hmacSignature;
    expect(notifications.check({ authorization, body: JSON.stringify(unsigned) })).toEqual({ accepted: false, reason: 'signature' });
  });

  test('one unsigned item refuses a batch of two', () => {
    const signed = JSON.parse(delivery('post-CAPTURE-capture').body).notificationItems[0];
    const forged = structuredClone(signed);
    forged.NotificationRequestItem.amount.value = 1;
    expect(notifications.check({ authorization, body: JSON.stringify({ live: 'false', notificationItems: [signed] }) }).accepted).toBe(true);
    expect(notifications.check({ authorization, body: JSON.stringify({ live: 'false', notificationItems: [signed, forged] }) })).toEqual({ accepted: false, reason: 'signature' });
  });

  test('a body that is not a notification batch is malformed', () => {
    expect(notifications.check({ authorization, body: '[accepted]' })).toEqual({ accepted: false, reason: 'malformed' });
    expect(notifications.check({ authorization, body: JSON.stringify({ notificationItems: [{ NotificationRequestItem: { pspReference: 'X' } }] }) })).toEqual({ accepted: false, reason: 'malformed' });
  });

  test('a signed modification without the payment it modifies (no originalReference) is malformed, not half-read', () => {
    const orphan = delivery('post-CAPTURE-capture', (item) => ({ ...item, originalReference: undefined }));
    expect(notifications.check(orphan)).toEqual({ accepted: false, reason: 'malformed' });
  });

  test('the credentials are read from a Basic header whatever the scheme\'s letter case', () => {
    const lower = { ...delivery('post-CAPTURE-capture'), authorization: authorization.replace('Basic', 'basic') };
    expect(notifications.check(lower).accepted).toBe(true);
  });
});

describe('Adyen amounts: each currency\'s own minor unit at Adyen, hundredths in the service', () => {
  const settings = { username: 'adyen', password: 'p', hmacKey: randomBytes(32).toString('hex') };
  const notifications = adyenNotifications(settings);
  const authorization = `Basic ${Buffer.from('adyen:p').toString('base64')}`;
  const authorisation = (value: number, currency: string): NotificationItem => ({
    eventCode: 'AUTHORISATION',
    pspReference: 'QFQTPCQ8HXSKGK82',
    merchantAccountCode: 'ShopECOM',
    merchantReference: 'pay_1',
    eventDate: '2026-11-25T10:00:00+01:00',
    success: 'true',
    amount: { value, currency },
  });

  test.each<[string, number, string, number]>([
    ['EUR 25.00 is 2500 at Adyen and 2500 hundredths here', 2500, 'EUR', 2500],
    ['JPY 1,000 is 1000 yen at Adyen and 100000 hundredths here', 1000, 'JPY', 100000],
    ['KWD 1.500 is 1500 fils at Adyen and 150 hundredths here', 1500, 'KWD', 150],
    ['KWD 1.230 is 1230 fils at Adyen and 123 hundredths here', 1230, 'KWD', 123],
  ])('%s', (_rule, adyenValue, currency, minor) => {
    // Prepare
    const item = authorisation(adyenValue, currency);
    item.additionalData = { hmacSignature: signature(item, settings.hmacKey) };
    // Act
    const check = notifications.check({ authorization, body: JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: item }] }) });
    // Assess
    expect(check).toMatchObject({ accepted: true, notifications: [{ amount: { minor, currency } }] });
    expect(sessionRequest({ paymentId: 'pay_1', amount: { minor, currency }, merchantAccount: 'ShopECOM', returnUrl: 'https://shop.example/', expiresAt: '2026-11-25T10:30:00Z' }).amount).toEqual({ value: adyenValue, currency });
  });

  test.each([1225, 1229, 1234])('KWD %i fils (a third decimal no amount here has) are no amount: they equal none, never KWD 1.23', (fils) => {
    // Prepare
    const item = authorisation(fils, 'KWD');
    item.additionalData = { hmacSignature: signature(item, settings.hmacKey) };
    // Act
    const check = notifications.check({ authorization, body: JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: item }] }) });
    // Assess
    expect(check).toMatchObject({ accepted: true, notifications: [{ kind: 'payment.authorized', amount: null }] });
  });
});
