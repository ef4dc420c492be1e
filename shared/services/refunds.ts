import { configuredUrls, loadConfig, type PublicUrls } from '../config';
import { createBalanceStore } from '../db/balance';
import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { refundUseCases, releaseAfterCommit, type RefundDeps } from '../use-cases/refunds';
import type { BalanceRef } from '../domain/balance';
import { createWebhookUrlCheck } from '../webhooks/http-sender';
import { webhookSettingsHere } from '../webhooks/settings';
import { once, processWiring, type Wiring } from './wiring';

/** The refund use cases' ports but the webhook-URL check, which only a refund's creation makes. */
export function refundPortsFor({ db, tableName, now }: Wiring): Omit<RefundDeps, 'checkWebhookUrl'> {
  return {
    refunds: createRefundRepository(db, tableName),
    payments: createPaymentRepository(db, tableName),
    balances: createBalanceStore(db, tableName),
    now,
    configuredUrls,
    cancelWindowSeconds: loadConfig().refundCancelWindowSeconds,
  };
}

const webhookUrlCheck = () => createWebhookUrlCheck(webhookSettingsHere());

/** The refund use cases ops, the local stack and tests drive, for a table of their own (createServices). */
export const refundsFor = (wiring: Wiring) => refundUseCases({ ...refundPortsFor(wiring), checkWebhookUrl: webhookUrlCheck() });

/**
 * The ports a refund operation's handler passes its use case (shared/use-cases/refunds.ts): a
 * handler names the use case it runs, so its bundle holds no other.
 */
export const refundMovePorts = /* @__PURE__ */ once(() => refundPortsFor(processWiring()));
/** The creation's ports: the others and the webhook-URL check. */
export const refundCreationPorts = /* @__PURE__ */ once(() => ({ ...refundMovePorts(), checkWebhookUrl: webhookUrlCheck() }));

/** What another area's commit calls when it credited a balance: the release of its held refunds. */
export const releaseWith = (ports: Omit<RefundDeps, 'checkWebhookUrl'>) => ({
  releaseAfterCommit: (ref: BalanceRef, urls: PublicUrls) => releaseAfterCommit(ports, ref, urls),
});
export const refundRelease = /* @__PURE__ */ once(() => releaseWith(refundMovePorts()));
