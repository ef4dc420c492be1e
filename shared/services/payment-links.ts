import { configuredUrls, type PublicUrls } from '../config';
import { createAcceptorLookup } from '../db/directory-lookups';
import { createPaymentLinkRepository } from '../db/payment-link-repository';
import { createPaymentRepository } from '../db/payment-repository';
import type { PaymentLinkDeps } from '../use-cases/payment-links';
import { once, processWiring, type Wiring } from './wiring';

/** The payment-link use cases' ports, for the request's public URLs (jobs: the configured ones). */
export function paymentLinksFor({ db, tableName, now }: Wiring) {
  const links = createPaymentLinkRepository(db, tableName);
  const payments = createPaymentRepository(db, tableName);
  const directory = createAcceptorLookup(db, tableName);
  return (urls: PublicUrls = configuredUrls()): PaymentLinkDeps => ({ links, payments, directory, urls, now });
}

export const paymentLinkPorts = /* @__PURE__ */ once(() => paymentLinksFor(processWiring()));
