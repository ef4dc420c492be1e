import type { Job } from '../jobs';
import { expireDueLinks, expireIdlePayments } from '../use-cases/checkout';
import { runRefundJob } from '../use-cases/refunds';
import { chargebacksFor } from './chargebacks';
import { openingFor } from './checkout';
import { paymentLinksFor } from './payment-links';
import { refundPortsFor, releaseWith } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** Every job of the service, in the order the schedule runs them. */
export function jobsFor(wiring: Wiring): Job[] {
  // The jobs create no refund: their ports leave out the creation's webhook-URL check.
  const refunds = refundPortsFor(wiring);
  const chargebacks = chargebacksFor(wiring, releaseWith(refunds));
  const links = paymentLinksFor(wiring);
  const checkout = openingFor(wiring);
  return [
    { name: 'expire-payment-links', run: (at, only) => expireDueLinks(links(), at, only) },
    { name: 'expire-open-payments', run: (at, only) => expireIdlePayments(checkout(), at, only) },
    { name: 'remind-chargeback-deadlines', run: (at, only) => chargebacks.remindDeadlines(at, only) },
    { name: 'accept-overdue-chargebacks', run: (at, only) => chargebacks.acceptOverdue(at, only) },
    { name: 'process-refunds', run: (at, only) => runRefundJob(refunds, at, only) },
  ];
}

export const jobServices = /* @__PURE__ */ once(() => jobsFor(processWiring()));
