import { createChargebackRepository } from '../db/chargeback-repository';
import { createPaymentRepository } from '../db/payment-repository';
import { once, processWiring } from './wiring';

/**
 * What the chargeback reads use: the repositories alone. A module apart from the use cases, as a
 * bundle keeps every module its handler imports (docs/benchmarks.md, cold start).
 */
export const chargebackReads = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return { chargebacks: createChargebackRepository(db, tableName), payments: createPaymentRepository(db, tableName) };
});
