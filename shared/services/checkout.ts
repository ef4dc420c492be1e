import { configuredUrls, type PublicUrls } from '../config';
import { createCheckoutRepository } from '../db/checkout-repository';
import { createRateLimiter } from '../db/rate-limit';
import type { CheckoutDeps, CheckoutOpeningDeps } from '../use-cases/checkout';
import type { LiveCheckoutDeps } from '../use-cases/live-checkout';
import { paymentAcquirer } from './acquirer-payments';
import type { RefundUseCases } from '../use-cases/refunds';
import { paymentLinksFor } from './payment-links';
import { refundRelease } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** The checkout's ports without the refunds' hook: opening a checkout pays nothing. */
export function openingFor(wiring: Wiring) {
  const paymentLinks = paymentLinksFor(wiring);
  const checkout = createCheckoutRepository(wiring.db, wiring.tableName);
  return (urls: PublicUrls = configuredUrls()): CheckoutOpeningDeps => ({ ...paymentLinks(urls), checkout });
}

/** The checkout's ports: the payment links' and a paid payment's hook into the refunds it may cover. */
export function checkoutFor(wiring: Wiring, refunds: Pick<RefundUseCases, 'releaseAfterCommit'>) {
  const opening = openingFor(wiring);
  return (urls: PublicUrls = configuredUrls()): CheckoutDeps => ({
    ...opening(urls),
    onBalanceCredited: (ref) => refunds.releaseAfterCommit(ref, urls),
  });
}

export const checkoutServices = /* @__PURE__ */ once(() => checkoutFor(processWiring(), refundRelease()));
/**
 * The checkout page's (GET): it opens the checkout, so its bundle holds nothing of the refunds;
 * anonymous visitors open new payments within the link's bound; in live mode it opens the
 * acquirer's hosted payment page too.
 */
export const checkoutOpeningServices = /* @__PURE__ */ once(() => {
  const wiring = processWiring();
  const opening = openingFor(wiring);
  const newPayments = createRateLimiter(wiring.db, wiring.tableName);
  return (urls?: PublicUrls): CheckoutOpeningDeps & LiveCheckoutDeps => ({ ...opening(urls), newPayments, acquirer: paymentAcquirer });
});
