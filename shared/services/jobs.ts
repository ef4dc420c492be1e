import { createAcquirerCommandStore } from '../db/acquirer-command-store';
import { createBalanceStore } from '../db/balance';
import { createRefundRepository } from '../db/refund-repository';
import { createReportRepository } from '../db/report-repository';
import type { PaymentAcquirer } from '../domain/acquirer';
import type { Job } from '../jobs';
import { sendDueCommands } from '../use-cases/acquirer-commands';
import { expireDueLinks, expireIdlePayments } from '../use-cases/checkout';
import { runRefundJob } from '../use-cases/refunds';
import { failOverdueReports } from '../use-cases/reports';
import { paymentAcquirer } from './acquirer-payments';
import { chargebacksFor } from './chargebacks';
import { checkoutFor } from './checkout';
import { paymentLinksFor } from './payment-links';
import { refundPortsFor, releaseWith } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/**
 * Every job of the service, in the order the schedule runs them. With the acquirer (the
 * schedule, ops, the local stack), live refunds go to it and the captures and cancels owed to it
 * are sent again; without it (the test helper, which reaches test mode only) the function's
 * bundle carries no acquirer.
 */
export function jobsFor(wiring: Wiring, acquirer?: () => Promise<PaymentAcquirer>): Job[] {
  // The jobs create no refund: their ports leave out the creation's webhook-URL check.
  const refunds = { ...refundPortsFor(wiring), acquirer };
  const chargebacks = chargebacksFor(wiring, releaseWith(refunds));
  const links = paymentLinksFor(wiring);
  const checkout = checkoutFor(wiring);
  const reports = createReportRepository(wiring.db, wiring.tableName);
  const jobs: Job[] = [
    { name: 'expire-payment-links', run: (at, only) => expireDueLinks(links(), at, only) },
    { name: 'expire-open-payments', run: (at, only) => expireIdlePayments(checkout(), at, only) },
    { name: 'remind-chargeback-deadlines', run: (at, only) => chargebacks.remindDeadlines(at, only) },
    { name: 'accept-overdue-chargebacks', run: (at, only) => chargebacks.acceptOverdue(at, only) },
    { name: 'process-refunds', run: (at, only) => runRefundJob(refunds, at, only) },
    { name: 'fail-overdue-reports', run: (at, only) => failOverdueReports(reports, at, only) },
  ];
  if (!acquirer) return jobs;
  const commands = { commands: createAcquirerCommandStore(wiring.db, wiring.tableName), acquirer, now: wiring.now };
  return [...jobs, { name: 'send-acquirer-commands', run: (at, only) => sendDueCommands(commands, at, only) }];
}

/** The schedule's jobs (functions/run-jobs): every job, with the acquirer. */
export const jobServices = /* @__PURE__ */ once(() => jobsFor(processWiring(), paymentAcquirer));
/** The test helper's jobs: test mode only, so without the acquirer. */
export const testModeJobServices = /* @__PURE__ */ once(() => jobsFor(processWiring()));

/** What the schedule measures the refund backlog by: the balances holding refunds and their queues. */
export const heldRefunds = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return { withHeldRefunds: createBalanceStore(db, tableName).withHeldRefunds, holdQueue: createRefundRepository(db, tableName).holdQueue };
});
