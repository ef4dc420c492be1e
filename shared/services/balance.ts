import { createLedgerReads } from '../db/balance';
import { once, processWiring } from './wiring';

/** The balances and their ledger, read (`GET /v1/balance`, `GET /v1/balance_transactions`, the dashboard). */
export const ledgerReads = /* @__PURE__ */ once(() => createLedgerReads(processWiring().db, processWiring().tableName));
