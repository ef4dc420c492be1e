import { configuredUrls, loadConfig } from '../config';
import { createBalanceStore } from '../db/balance';
import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { refundUseCases } from '../use-cases/refunds';
import { createWebhookUrlCheck } from '../webhooks/http-sender';
import { webhookSettingsHere } from '../webhooks/settings';
import { once, processWiring, type Wiring } from './wiring';

export function refundsFor({ db, tableName, now }: Wiring) {
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

export const refundServices = /* @__PURE__ */ once(() => refundsFor(processWiring()));
