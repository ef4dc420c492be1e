import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { paymentAcquirer } from './acquirer-payments';
import { creditRollingFor } from './balance';
import { chargebacksFor } from './chargebacks';
import { jobsFor } from './jobs';
import { refundsFor } from './refunds';

/*
 * The composition root: use cases wired to their DynamoDB adapters. The use cases know only the
 * ports they are given; this folder is the one place that knows which adapter serves which
 * port. Handlers take accessors built once per process (per cold start): one module per area,
 * an area's reads in a module of their own (`*-reads.ts`), and for the dashboard and the
 * refunds one accessor per set of ports, because a bundle keeps what its handler's imports
 * reach (docs/decisions.md 28). `createServices` wires, for a table of its own, the areas that
 * ops, the local stack and tests drive without a request.
 *
 * One vocabulary: `…Ports()` hands over the ports a use case takes, `…Services()` use cases bound
 * to their ports, an adapter's own noun (`paymentRepository()`, `authenticator()`) one adapter,
 * and `…For(wiring)` any of these for a wiring of the caller's own.
 */

/** The areas that ops, the local stack and tests drive without a request, wired to one table. */
export function createServices(db: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const wiring = { db, tableName, now };
  const refunds = refundsFor(wiring);
  return { refunds, chargebacks: chargebacksFor(wiring, refunds), jobs: jobsFor(wiring, paymentAcquirer), rollCredits: creditRollingFor(wiring) };
}
