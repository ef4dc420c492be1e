import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createPaymentRepository } from '../db/payment-repository';
import { createSettlementRepository } from '../db/settlement-repository';
import { chargebacksFor } from './chargebacks';
import { checkoutFor } from './checkout';
import { dashboardFor } from './dashboard';
import { eventsFor } from './events';
import { jobsFor } from './jobs';
import { refundsFor } from './refunds';

/*
 * The composition root: every use case wired to its DynamoDB adapters. The use cases know only
 * the ports they are given; this folder is the one place that knows which adapter serves which
 * port. One module per area, each with the accessor its handlers take (built once per process,
 * per cold start): a function imports only its areas' modules, so its bundle holds nothing of
 * the others (a module's imports stay in a bundle whether called or not). For the same reason
 * an area's reads have a module of their own (`*-reads.ts`: the repositories, or the read use
 * cases, without the writes' wiring). Tests, ops and the local stack take `createServices` for
 * a table of their own: the areas' writes and jobs (reads they make through the repositories).
 */

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
