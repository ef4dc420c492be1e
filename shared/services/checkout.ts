import { configuredUrls, type PublicUrls } from '../config';
import { createCheckoutRepository } from '../db/checkout-repository';
import { createRateLimiter } from '../db/rate-limit';
import type { CheckoutDeps } from '../use-cases/checkout';
import type { LiveCheckoutDeps } from '../use-cases/live-checkout';
import { paymentAcquirer } from './acquirer-payments';
import { customerEmailIndex } from './customer-emails';
import { paymentLinksFor } from './payment-links';
import { once, processWiring, type Wiring } from './wiring';

/** The checkout's ports: the payment links' and the checkout's own writes. */
export function checkoutFor(wiring: Wiring) {
  const paymentLinks = paymentLinksFor(wiring);
  const checkout = createCheckoutRepository(wiring.db, wiring.tableName);
  return (urls: PublicUrls = configuredUrls()): CheckoutDeps => ({ ...paymentLinks(urls), checkout, customerEmails: customerEmailIndex() });
}

export const checkoutPorts = /* @__PURE__ */ once(() => checkoutFor(processWiring()));
/**
 * The checkout page's (GET): anonymous visitors open new payments within the link's bound; in live mode it opens the
 * acquirer's hosted payment page too.
 */
export const checkoutOpeningPorts = /* @__PURE__ */ once(() => {
  const wiring = processWiring();
  const checkout = checkoutFor(wiring);
  const newPayments = createRateLimiter(wiring.db, wiring.tableName);
  return (urls?: PublicUrls): CheckoutDeps & LiveCheckoutDeps => ({ ...checkout(urls), newPayments, acquirer: paymentAcquirer });
});
