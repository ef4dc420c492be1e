import { configuredUrls } from '../config';
import { createChargebackRepository } from '../db/chargeback-repository';
import { createPaymentRepository } from '../db/payment-repository';
import { createChargebackUseCases } from '../use-cases/chargebacks';
import type { RefundUseCases } from '../use-cases/refunds';
import { refundRelease } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

export function chargebacksFor({ db, tableName, now }: Wiring, refunds: Pick<RefundUseCases, 'releaseAfterCommit'>) {
  return createChargebackUseCases({
    chargebacks: createChargebackRepository(db, tableName),
    payments: createPaymentRepository(db, tableName),
    onBalanceCredited: (ref, urls) => refunds.releaseAfterCommit(ref, urls),
    now,
    configuredUrls,
  });
}

export const chargebackServices = /* @__PURE__ */ once(() => chargebacksFor(processWiring(), refundRelease()));
