import type { Job } from '../jobs';
import { expireDueLinks } from '../use-cases/checkout';
import { chargebacksFor } from './chargebacks';
import { checkoutFor } from './checkout';
import { refundsFor } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** Every job of the service, in the order the schedule runs them. */
export function jobsFor(wiring: Wiring): Job[] {
  const refunds = refundsFor(wiring);
  const chargebacks = chargebacksFor(wiring, refunds);
  const checkout = checkoutFor(wiring, refunds);
  return [
    { name: 'expire-payment-links', run: (at, only) => expireDueLinks(checkout(), at, only) },
    { name: 'accept-overdue-chargebacks', run: (at, only) => chargebacks.acceptOverdue(at, only) },
    { name: 'process-refunds', run: (at, only) => refunds.runJob(at, only) },
  ];
}

export const jobServices = /* @__PURE__ */ once(() => jobsFor(processWiring()));
