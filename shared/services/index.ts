import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { chargebacksFor } from './chargebacks';
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

/** The areas that ops, the local stack and tests drive without a request, wired to one table. */
export function createServices(db: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const wiring = { db, tableName, now };
  const refunds = refundsFor(wiring);
  return { refunds, chargebacks: chargebacksFor(wiring, refunds), jobs: jobsFor(wiring) };
}
