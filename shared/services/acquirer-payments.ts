import { adyenClient } from '../acquirer/adyen-client';
import { adyenPayments } from '../acquirer/adyen-payments';
import { adyenSecret } from './acquirer-secret';
import { onceAsync } from './wiring';

/**
 * The acquirer that moves live payments (Adyen Checkout v71), built on first use from the
 * secret. Only the functions that open hosted pages, capture, cancel or refund import this
 * module: it carries the library's Checkout services (docs/decisions.md 32).
 */
export const paymentAcquirer = /* @__PURE__ */ onceAsync(async () => {
  const secret = await adyenSecret();
  return adyenPayments(adyenClient({ apiKey: secret.apiKey, environment: secret.environment, liveEndpointUrlPrefix: secret.liveEndpointUrlPrefix, endpoint: secret.endpoint }));
});
