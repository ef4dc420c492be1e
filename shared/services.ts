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
import type { PaymentLinkDeps } from './use-cases/payment-links';
import { dashboardUseCases } from './use-cases/dashboard';
import { eventUseCases } from './use-cases/events';
import { refundUseCases, type RefundUseCases } from './use-cases/refunds';
import { createWebhookUrlCheck } from './webhooks/http-sender';
import { webhookSettingsHere } from './webhooks/settings';

/** What every adapter is built from: the table's client and name, and the clock. */
interface Wiring {
  db: DynamoDBDocumentClient;
  tableName: string;
  now: () => Date;
}

/*
 * The composition root: every use case wired to its DynamoDB adapters. The use cases know only
 * the ports they are given; this is the one place that knows which adapter serves which port.
 * One builder per area, so that a function bundles only the areas it uses: handlers take the
 * accessors at the end of this file (built once per process, per cold start), tests and the
 * local stack take `createServices` for a table of their own.
 */

function refundsFor({ db, tableName, now }: Wiring) {
  return refundUseCases({
    refunds: createRefundRepository(db, tableName),
    payments: createPaymentRepository(db, tableName),
    balances: createBalanceStore(db, tableName),
    now,
    configuredUrls,
    checkWebhookUrl: createWebhookUrlCheck(webhookSettingsHere()),
    cancelWindowSeconds: loadConfig().refundCancelWindowSeconds,
  });
}

/** The payment-link use cases' ports, for the request's public URLs (jobs: the configured ones). */
function paymentLinksFor({ db, tableName, now }: Wiring) {
  const links = createPaymentLinkRepository(db, tableName);
  const payments = createPaymentRepository(db, tableName);
  const directory = createDirectory(db, tableName);
  return (urls: PublicUrls = configuredUrls()): PaymentLinkDeps => ({ links, payments, directory, urls, now });
}

/** The checkout's ports: the payment links' and a paid payment's hook into the refunds it may cover. */
function checkoutFor(wiring: Wiring, refunds: RefundUseCases) {
  const paymentLinks = paymentLinksFor(wiring);
  return (urls: PublicUrls = configuredUrls()): CheckoutDeps => ({
    ...paymentLinks(urls),
    onBalanceCredited: (ref) => refunds.releaseAfterCommit(ref, urls),
  });
}

function chargebacksFor({ db, tableName, now }: Wiring, refunds: RefundUseCases) {
  return createChargebackUseCases({
    chargebacks: createChargebackRepository(db, tableName),
    payments: createPaymentRepository(db, tableName),
    onBalanceCredited: (ref, urls) => refunds.releaseAfterCommit(ref, urls),
    now,
    configuredUrls,
  });
}

/** Every job of the service, in the order the schedule runs them. */
function jobsFor(wiring: Wiring): Job[] {
  const refunds = refundsFor(wiring);
  const chargebacks = chargebacksFor(wiring, refunds);
  const checkout = checkoutFor(wiring, refunds);
  return [
    { name: 'expire-payment-links', run: (at, only) => expireDueLinks(checkout(), at, only) },
    { name: 'accept-overdue-chargebacks', run: (at, only) => chargebacks.acceptOverdue(at, only) },
    { name: 'process-refunds', run: (at, only) => refunds.runJob(at, only) },
  ];
}

function eventsFor({ db, tableName }: Wiring) {
  return eventUseCases({
    events: createEventRepository(db, tableName),
    deliveries: createDeliveryRepository(db, tableName),
    webhooks: createWebhookRepository(db, tableName),
    limiter: createRateLimiter(db, tableName),
  });
}

function dashboardFor({ db, tableName, now }: Wiring) {
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

/** Every area wired to one table: the local stack, ops and tests. */
export function createServices(db: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const wiring = { db, tableName, now };
  const refunds = refundsFor(wiring);
  return {
    paymentLinks: checkoutFor(wiring, refunds),
    refunds,
    chargebacks: chargebacksFor(wiring, refunds),
    jobs: jobsFor(wiring),
    events: eventsFor(wiring),
    dashboard: dashboardFor(wiring),
    payments: createPaymentRepository(db, tableName),
    settlements: createSettlementRepository(db, tableName),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Builds on first use, then answers the same value: one per process (per cold start). */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

const processWiring = /* @__PURE__ */ once((): Wiring => ({ db: documentClient(), tableName: loadConfig().tableName, now: () => new Date() }));

/** The handlers' accessors: each function's bundle holds only the areas it calls. */
export const paymentLinkServices = /* @__PURE__ */ once(() => paymentLinksFor(processWiring()));
export const refundServices = /* @__PURE__ */ once(() => refundsFor(processWiring()));
export const checkoutServices = /* @__PURE__ */ once(() => checkoutFor(processWiring(), refundServices()));
export const chargebackServices = /* @__PURE__ */ once(() => chargebacksFor(processWiring(), refundServices()));
export const jobServices = /* @__PURE__ */ once(() => jobsFor(processWiring()));
export const eventServices = /* @__PURE__ */ once(() => eventsFor(processWiring()));
export const dashboardServices = /* @__PURE__ */ once(() => dashboardFor(processWiring()));
export const paymentServices = /* @__PURE__ */ once(() => createPaymentRepository(processWiring().db, processWiring().tableName));
export const settlementServices = /* @__PURE__ */ once(() => createSettlementRepository(processWiring().db, processWiring().tableName));
