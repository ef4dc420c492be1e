import { configuredUrls } from '../config';
import { createLedgerReads, type PendingCredit } from '../db/balance';
import { createPaymentLinkRepository } from '../db/payment-link-repository';
import { rollPendingCredits } from '../use-cases/balance-credits';
import { refundPortsFor, releaseWith } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** The balances and their ledger, read (`GET /v1/balance`, `GET /v1/balance_transactions`, the dashboard). */
export const ledgerReads = /* @__PURE__ */ once(() => createLedgerReads(processWiring().db, processWiring().tableName));

/** The outbox processor's part for the balances: pending credits rolled in, then held refunds covered; the links whose shards counted them relisted. */
export function creditRollingFor(wiring: Wiring) {
  const ports = refundPortsFor(wiring);
  const { releaseAfterCommit } = releaseWith(ports);
  const links = createPaymentLinkRepository(wiring.db, wiring.tableName);
  return (credits: PendingCredit[]) =>
    rollPendingCredits({ balances: ports.balances, onBalanceCredited: (ref) => releaseAfterCommit(ref, configuredUrls()), relistLink: links.refreshListedCount }, credits);
}

export const creditRolling = /* @__PURE__ */ once(() => creditRollingFor(processWiring()));
