import { adyenSecret } from './acquirer-secret';
import { onceAsync } from './wiring';

/**
 * The acquirer that moves live payments (Adyen Checkout v71), built on first use from the
 * secret. Only the functions that open hosted pages, capture, cancel or refund import this
 * module, and they load the adapter (the library's Checkout services, about 40 ms of a cold
 * start, docs/decisions.md 32) only when a live payment first needs it: a test-mode checkout
 * page or a minute with no live work never does.
 */
export const paymentAcquirer = /* @__PURE__ */ onceAsync(async () => {
  const [secret, { adyenClient }, { adyenPayments }] = await Promise.all([adyenSecret(), import('../acquirer/adyen-client'), import('../acquirer/adyen-payments')]);
  return adyenPayments(adyenClient(secret));
});
