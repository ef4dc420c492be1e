import { CHARGEBACK_STATUSES, chargebackEventType } from './chargebacks';
import { PAYMENT_LINK_EVENT, PAYMENT_PAID_EVENT } from './payment-links';
import { REFUND_STATUSES } from './refunds';
import { matchesPattern } from './webhooks';

/** Every event type the service emits (the payment-link family, payments, refunds, chargebacks). */
export const EVENT_TYPES: readonly string[] = [
  ...Object.values(PAYMENT_LINK_EVENT),
  PAYMENT_PAID_EVENT,
  ...REFUND_STATUSES.map((status) => `transactions.refund.${status}`),
  ...CHARGEBACK_STATUSES.map(chargebackEventType),
];

/** A subscription pattern that can match something: `*`, an emitted type, or a prefix of one. */
export const isKnownEventPattern = (pattern: string) => EVENT_TYPES.some((type) => matchesPattern(pattern, type));
