import { createRefundRepository } from '../db/refund-repository';
import { once, processWiring } from './wiring';

/** What the refund reads use: the repository alone, apart from the use cases (see chargeback-reads.ts). */
export const refundReads = /* @__PURE__ */ once(() => createRefundRepository(processWiring().db, processWiring().tableName));
