import { fromAdyenSecret } from './acquirer-secret';

/**
 * The acquirer that moves live payments (Adyen Checkout v71), built on first use from the
 * secret (again when the secret is read again). Only the functions that open hosted pages, capture, cancel or refund import this
 * module, and they load the adapter (the library's Checkout services, about 40 ms of a cold
 * start, docs/decisions.md 32) only when a live payment first needs it: a test-mode checkout
 * page or a minute with no live work never does.
 */
export const paymentAcquirer = /* @__PURE__ */ fromAdyenSecret(async (secret) => {
  const [{ adyenClient }, { adyenPayments }] = await Promise.all([import('../acquirer/adyen-client'), import('../acquirer/adyen-payments')]);
  return adyenPayments(adyenClient(secret));
});
