import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authenticator } from './auth/authenticate';
import { configuredUrls, loadConfig, type PublicUrls } from './config';
import { createBalanceStore } from './db/balance';
import { createChargebackRepository } from './db/chargeback-repository';
import { documentClient } from './db/client';
import { createDashboardReads } from './db/dashboard-reads';
import { createDashboardSessionStore } from './db/dashboard-session-store';
import { createDeliveryLog } from './db/delivery-log';
import { createDirectory } from './db/directory';
import { createEventRepository } from './db/event-repository';
import { createPaymentLinkRepository } from './db/payment-link-repository';
import { createPaymentRepository } from './db/payment-repository';
import { createRateLimiter } from './db/rate-limit';
import { createRefundRepository } from './db/refund-repository';
import { createSettlementRepository } from './db/settlement-repository';
import { createDeliveryRepository } from './db/webhook-delivery-repository';
import { createWebhookRepository } from './db/webhook-repository';
import type { Job } from './jobs';
import { createChargebackUseCases } from './use-cases/chargebacks';
import { expireDueLinks, type CheckoutDeps } from './use-cases/checkout';
import { dashboardUseCases } from './use-cases/dashboard';
import { eventUseCases } from './use-cases/events';
import { refundUseCases } from './use-cases/refunds';
import { createWebhookUrlCheck } from './webhooks/http-sender';
import { webhookSettingsHere } from './webhooks/settings';

/**
 * The composition root: every use case wired to its DynamoDB adapters. The use cases know only
 * the ports they are given; this is the one place that knows which adapter serves which port.
 * Handlers take what they need from `services()`, built once per process (per cold start).
 */
export function createServices(db: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const directory = createDirectory(db, tableName);
  const links = createPaymentLinkRepository(db, tableName);
  const payments = createPaymentRepository(db, tableName);
  const chargebackRepository = createChargebackRepository(db, tableName);
  const refundRepository = createRefundRepository(db, tableName);
  const deliveries = createDeliveryRepository(db, tableName);
  const events = createEventRepository(db, tableName);
  const dashboardReads = createDashboardReads(db, tableName, refundRepository);

  const refunds = refundUseCases({
    refunds: refundRepository,
    payments,
    balances: createBalanceStore(db, tableName),
    now,
    configuredUrls,
    checkWebhookUrl: createWebhookUrlCheck(webhookSettingsHere()),
    cancelWindowSeconds: loadConfig().refundCancelWindowSeconds,
  });
  /** The payment-link and checkout use cases' ports, for the request's public URLs (jobs: the configured ones). */
  const paymentLinks = (urls: PublicUrls = configuredUrls()): CheckoutDeps => ({
    links,
    payments,
    directory,
    urls,
    now,
    onBalanceCredited: (ref) => refunds.releaseAfterCommit(ref, urls),
  });
  const chargebacks = createChargebackUseCases({
    chargebacks: chargebackRepository,
    payments,
    onBalanceCredited: (ref, urls) => refunds.releaseAfterCommit(ref, urls),
    now,
    configuredUrls,
  });

  /** Every job of the service, in the order the schedule runs them. */
  const jobs: Job[] = [
    { name: 'expire-payment-links', run: (at, only) => expireDueLinks(paymentLinks(), at, only) },
    { name: 'accept-overdue-chargebacks', run: (at, only) => chargebacks.acceptOverdue(at, only) },
    { name: 'process-refunds', run: (at, only) => refunds.runJob(at, only) },
  ];

  return {
    paymentLinks,
    refunds,
    chargebacks,
    jobs,
    events: eventUseCases({
      events,
      deliveries,
      webhooks: createWebhookRepository(db, tableName),
      limiter: createRateLimiter(db, tableName),
    }),
    dashboard: dashboardUseCases({
      // Its own Authenticator: the same cache rules as the API's.
      authenticator: new Authenticator(directory.keyStore),
      sessions: createDashboardSessionStore(db, tableName),
      links,
      payments,
      refunds: refundRepository,
      refundsOfPayment: dashboardReads.refundsOfPayment,
      chargebacks: chargebackRepository,
      events,
      deliveries: createDeliveryLog(db, tableName),
      paidPayments: dashboardReads.paidPayments,
      acceptors: directory.listAcceptors,
      now,
    }),
    payments,
    settlements: createSettlementRepository(db, tableName),
  };
}

export type Services = ReturnType<typeof createServices>;

let built: Services | undefined;

/** The process's services, built on first use with the configured table. */
export function services(): Services {
  built ??= createServices(documentClient(), loadConfig().tableName);
  return built;
}
