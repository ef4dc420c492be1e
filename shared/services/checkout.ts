import { configuredUrls, type PublicUrls } from '../config';
import { createCheckoutRepository } from '../db/checkout-repository';
import type { CheckoutDeps } from '../use-cases/checkout';
import type { RefundUseCases } from '../use-cases/refunds';
import { paymentLinksFor } from './payment-links';
import { refundServices } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** The checkout's ports: the payment links' and a paid payment's hook into the refunds it may cover. */
export function checkoutFor(wiring: Wiring, refunds: RefundUseCases) {
  const paymentLinks = paymentLinksFor(wiring);
  const checkout = createCheckoutRepository(wiring.db, wiring.tableName);
  return (urls: PublicUrls = configuredUrls()): CheckoutDeps => ({
    ...paymentLinks(urls),
    checkout,
    onBalanceCredited: (ref) => refunds.releaseAfterCommit(ref, urls),
  });
}

export const checkoutServices = /* @__PURE__ */ once(() => checkoutFor(processWiring(), refundServices()));
