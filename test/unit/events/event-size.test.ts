import { outboxItem } from '../../../shared/db/outbox';
import { PAYMENT_EVENT, paymentEvent, testCheckoutBody, type Payment } from '../../../shared/domain/payments';
import { newRefund, refundCreateBody, refundEvent } from '../../../shared/domain/refunds';
import { newEvent } from '../../../shared/events';
import { newId } from '../../../shared/ids';
import { LIMITS } from '../../../shared/limits';
import { emailOf } from '../../support/edge-values';

const urls = { base: 'https://api.example', checkout: 'https://api.example/checkout', dashboard: 'https://api.example/dashboard', docs: 'https://api.example/docs' };
const { keys, keyLength, valueLength } = LIMITS.metadata;

/** Metadata with every key and value at its longest, in `char`. */
const fullMetadata = (char: string, values: number = valueLength) =>
  Object.fromEntries(Array.from({ length: keys }, (_, i) => [`${i}`.padEnd(keyLength, char), char.repeat(values)]));

/** The event of the largest refund the API accepts with this metadata. */
function largestRefundEvent(metadata: Record<string, string>) {
  const body = {
    description: '€'.repeat(LIMITS.descriptionLength),
    webhook_url: `https://hooks.example/${'a'.repeat(LIMITS.urlLength - 22)}`,
    metadata,
  };
  expect(refundCreateBody.safeParse(body).success).toBe(true);
  const refund = newRefund({
    id: newId('refund'),
    orgId: 'org_x',
    mode: 'test',
    acceptorId: 'acceptor_x',
    paymentId: newId('payment'),
    paymentLinkId: newId('paymentLink'),
    amountMinor: LIMITS.amountMinor,
    currency: 'EUR',
    description: body.description,
    webhookUrl: body.webhook_url,
    metadata: body.metadata,
    createdAt: new Date().toISOString(),
  });
  return refundEvent(refund, urls, new Date()).envelope;
}

describe('Events: no event above 64 KB', () => {
  test('the largest refund the API accepts, ASCII or multi-byte, makes an event within LIMITS.eventBytes', () => {
    expect(Buffer.byteLength(JSON.stringify(largestRefundEvent(fullMetadata('a'))))).toBeLessThanOrEqual(LIMITS.eventBytes);
    // Three-byte characters at every length would pass 64 KB: the metadata's byte bound stops them first.
    expect(refundCreateBody.safeParse({ metadata: fullMetadata('€') }).success).toBe(false);
    expect(Buffer.byteLength(JSON.stringify(largestRefundEvent(fullMetadata('€', 200))))).toBeLessThanOrEqual(LIMITS.eventBytes);
  });

  test('the largest paid payment the checkout accepts (each customer detail at its bound, escaped in JSON at six bytes a character) makes an event within LIMITS.eventBytes', () => {
    // Prepare
    const { emailLength, phoneLength, addressLength } = LIMITS.customer;
    const details = { email: emailOf(emailLength), phone: '1'.repeat(phoneLength), address: '\u0001'.repeat(addressLength) };
    expect(testCheckoutBody.safeParse(details).success).toBe(true);
    const payment: Payment = {
      id: newId('payment'), orgId: 'org_x', mode: 'test', acceptorId: 'acceptor_x', paymentLinkId: newId('paymentLink'), status: 'paid',
      amountMinor: LIMITS.amountMinor, currency: 'EUR', createdAt: new Date().toISOString(), paidAt: new Date().toISOString(),
      customer: { email: details.email, phone: details.phone }, billing: { address: details.address },
    };

    // Act
    const event = paymentEvent(PAYMENT_EVENT.paid, payment, urls);

    // Assess
    expect(() => outboxItem(event)).not.toThrow();
    expect(Buffer.byteLength(JSON.stringify(event.envelope))).toBeLessThanOrEqual(LIMITS.eventBytes / 8);
    expect(testCheckoutBody.safeParse({ ...details, email: emailOf(emailLength + 1) }).success).toBe(false);
  });

  test('an event above the bound is never turned into an item', () => {
    const event = newEvent({ type: 'transactions.test', orgId: 'org_x', mode: 'test', data: { blob: 'x'.repeat(LIMITS.eventBytes) } });
    expect(() => outboxItem(event)).toThrow(/above 65536/);
  });
});
