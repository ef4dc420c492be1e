import { Authenticator } from '../auth/authenticate';
import { createChargebackRepository } from '../db/chargeback-repository';
import { createDashboardReads } from '../db/dashboard-reads';
import { createDashboardSessionStore } from '../db/dashboard-session-store';
import { createDeliveryLog } from '../db/delivery-log';
import { createDirectory } from '../db/directory';
import { createEventRepository } from '../db/event-repository';
import { createPaymentLinkRepository } from '../db/payment-link-repository';
import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { dashboardUseCases } from '../use-cases/dashboard';
import { once, processWiring, type Wiring } from './wiring';

export function dashboardFor({ db, tableName, now }: Wiring) {
  const directory = createDirectory(db, tableName);
  const refunds = createRefundRepository(db, tableName);
  const reads = createDashboardReads(db, tableName, refunds);
  return dashboardUseCases({
    // Its own Authenticator: the same cache rules as the API's.
    authenticator: new Authenticator(directory.keyStore),
    sessions: createDashboardSessionStore(db, tableName),
    links: createPaymentLinkRepository(db, tableName),
    payments: createPaymentRepository(db, tableName),
    refunds,
    refundsOfPayment: reads.refundsOfPayment,
    chargebacks: createChargebackRepository(db, tableName),
    events: createEventRepository(db, tableName),
    deliveries: createDeliveryLog(db, tableName),
    paidPayments: reads.paidPayments,
    acceptors: directory.listAcceptors,
    now,
  });
}

export const dashboardServices = /* @__PURE__ */ once(() => dashboardFor(processWiring()));
