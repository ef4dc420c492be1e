import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { once, processWiring } from './wiring';

/** What the refund reads use: the repositories alone, apart from the use cases (see chargeback-reads.ts). */
export const refundReads = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return { refunds: createRefundRepository(db, tableName), payments: createPaymentRepository(db, tableName) };
});
