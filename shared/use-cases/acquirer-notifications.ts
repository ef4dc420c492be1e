import type { BalanceRef } from '../domain/balance';
import type { AcquirerNotificationStore, StoredNotification } from '../db/acquirer-notification-store';
import type { TransactAction } from '../db/outbox';
import type { AcquirerNotification } from '../domain/acquirer';
import { newCommand, type AcquirerCommand } from '../domain/acquirer-commands';
import { balanceOf } from '../domain/balance';
import { PaymentNotOpenError, type Payment } from '../domain/payments';
import { formatMinor, sameMoney } from '../money';
import { BusinessRuleError, DependencyUnavailableError } from '../errors';
import { METRIC, DIMENSION } from '../observability/catalog';
import { logger } from '../observability/logger';
import { countMetric } from '../observability/metrics';
import { isoMillis } from '../time';
import { sendCommand, type AcquirerCommandDeps } from './acquirer-commands';
import type { ChargebackUseCases } from './chargebacks';
import { payAuthorised, type CheckoutDeps } from './checkout';
import { settleLiveRefund, type RefundDeps } from './refunds';

/** What processing a notification reads and writes: the checkout's, the refunds' and the chargebacks' ports, the acquirer's commands. */
export interface NotificationDeps extends CheckoutDeps, AcquirerCommandDeps {
  notifications: AcquirerNotificationStore;
  refundPorts: Pick<RefundDeps, 'refunds' | 'balances' | 'now' | 'configuredUrls'>;
  chargebacks: ChargebackUseCases;
  /** The acquirer's name on the chargebacks its disputes open (`acquirer.name`). */
  acquirerName: string;
  /** A capture that succeeds after a failure gives the payment's credit back, which may cover held refunds. */
  onBalanceCredited: (ref: BalanceRef) => Promise<unknown>;
}

type Of<K extends AcquirerNotification['kind']> = Extract<AcquirerNotification, { kind: K }>;

/** Settling one notification, with the helpers that mark it processed. */
interface Processing<N extends AcquirerNotification = AcquirerNotification> {
  deps: NotificationDeps;
  notification: N;
  /** The processed mark, for the transaction of the change the notification makes. */
  mark(outcome: string): TransactAction;
  /** A notification that changes nothing: marked processed with this outcome. */
  only(outcome: string): Promise<string>;
  /** A notification that names nothing it could apply to: counted, logged for the runbook, marked. */
  unmatched(why: string): Promise<string>;
}

/**
 * Processes one kept notification of the acquirer exactly once (product-decisions §12), in any
 * order with the others: its change and its processed mark commit in one transaction, and a
 * notification already processed changes nothing. Answers what it did (the mark's outcome).
 * A failure throws, and the stream hands the notification over again.
 */
export async function processNotification(deps: NotificationDeps, stored: StoredNotification): Promise<string> {
  // The stream's image may be older than the item (a batch handed over again): the item decides.
  const kept = await deps.notifications.get(stored.id);
  if (!kept || kept.processedAt) return 'duplicate';
  const { notification } = kept;
  const at = () => isoMillis(deps.now());
  const processing: Processing = {
    deps,
    notification,
    mark: (outcome) => deps.notifications.processedAction(notification.id, outcome, at()),
    only: async (outcome) => ((await deps.notifications.markProcessed(notification.id, outcome, at())) ? outcome : 'duplicate'),
    async unmatched(why) {
      countMetric(METRIC.acquirerNotificationsUnmatched);
      logger.warn('acquirer notification matches nothing here (runbook AcquirerNotificationsUnmatched)', { notificationId: notification.id, kind: notification.kind, why });
      return processing.only('unmatched');
    },
  };
  try {
    return await apply(processing);
  } catch (error) {
    // A retried batch may have taken it to its commit already: then there is nothing more to do.
    if ((await deps.notifications.get(notification.id))?.processedAt) return 'duplicate';
    throw error;
  }
}

function apply(processing: Processing): Promise<string> {
  const { notification } = processing;
  switch (notification.kind) {
    case 'payment.authorized':
      return authorized(processing as Processing<Of<'payment.authorized'>>);
    case 'payment.refused':
      return refused(processing as Processing<Of<'payment.refused'>>);
    case 'payment.captured':
    case 'payment.capture_failed':
      return captureSettled(processing as Processing<Of<'payment.captured' | 'payment.capture_failed'>>);
    case 'payment.canceled':
    case 'payment.cancel_failed':
      return cancelSettled(processing as Processing<Of<'payment.canceled' | 'payment.cancel_failed'>>);
    case 'refund.refunded':
    case 'refund.failed':
      return refundSettled(processing as Processing<Of<'refund.refunded' | 'refund.failed'>>);
    case 'dispute.opened':
      return disputeOpened(processing as Processing<Of<'dispute.opened'>>);
    case 'dispute.won':
    case 'dispute.lost':
      return disputeDecided(processing as Processing<Of<'dispute.won' | 'dispute.lost'>>);
  }
}

/** The live payment a notification names, of the merchant account it came for. */
async function livePayment(deps: NotificationDeps, paymentId: string, merchantAccount: string): Promise<Payment | undefined> {
  const payment = await deps.payments.get(paymentId);
  return payment?.mode === 'live' && payment.acquirer?.merchantAccount === merchantAccount ? payment : undefined;
}

/**
 * AUTHORISATION success:
 * 1. an open payment of that amount runs the test mode's race-free paid transition, with the
 *    authorisation's reference, the capture owed to the acquirer and the processed mark in its
 *    transaction, then the capture is sent; when the link can no longer be paid (limit reached,
 *    inactive, expired) the payment ends `canceled` with a cancel owed instead;
 * 2. a payment no longer open (or another amount): the authorisation is cancelled, the payment
 *    stays as it is; no customer is charged for a payment that lost.
 */
async function authorized({ deps, notification: n, mark, only, unmatched }: Processing<Of<'payment.authorized'>>): Promise<string> {
  const payment = await livePayment(deps, n.paymentId, n.merchantAccount);
  if (!payment) return unmatched('no live payment of this merchant account has this reference');
  if (payment.acquirer!.reference === n.acquirerReference) return only('duplicate');
  const authorisation = { paymentId: payment.id, acquirerReference: n.acquirerReference, merchantAccount: n.merchantAccount };
  const owner = { orgId: payment.orgId, mode: payment.mode, amount: { minor: payment.amountMinor, currency: payment.currency } };
  if (payment.status === 'open' && sameMoney(n.amount, owner.amount)) {
    let command: AcquirerCommand | undefined;
    try {
      const settled = await payAuthorised(deps, payment, (outcome) => {
        command = newCommand(outcome.status === 'paid' ? 'capture' : 'cancel', authorisation, owner, deps.now());
        const capture = outcome.status === 'paid' ? ({ capture: 'requested' } as const) : {};
        return {
          payment: { ...outcome, acquirer: { merchantAccount: n.merchantAccount, reference: n.acquirerReference, ...capture } },
          also: [deps.commands.putAction(command), mark(outcome.status)],
        };
      });
      await sendCommand(deps, command!);
      return settled.status;
    } catch (error) {
      if (!(error instanceof PaymentNotOpenError)) throw error;
    }
  }
  const cancel = newCommand('cancel', authorisation, owner, deps.now());
  await deps.commands.put(cancel, [mark('authorisation_canceled')]);
  await sendCommand(deps, cancel);
  return 'authorisation_canceled';
}

/** AUTHORISATION refused: an open payment becomes `failed`, with the refused authorisation's reference. */
async function refused({ deps, notification: n, mark, only, unmatched }: Processing<Of<'payment.refused'>>): Promise<string> {
  const payment = await livePayment(deps, n.paymentId, n.merchantAccount);
  if (!payment) return unmatched('no live payment of this merchant account has this reference');
  if (payment.status !== 'open') return only('ignored');
  try {
    await deps.checkout.updateOpenPayment({ ...payment, status: 'failed', acquirer: { merchantAccount: n.merchantAccount, reference: n.acquirerReference } }, [], undefined, [mark('failed')]);
    return 'failed';
  } catch (error) {
    if (error instanceof PaymentNotOpenError) return only('ignored');
    throw error;
  }
}

/** A transition read again after another writer moved its subject first, at most this often. */
const MAX_ROUNDS = 10;
const busy = () => new DependencyUnavailableError('The acquirer notification kept colliding with other writes');

/**
 * CAPTURE (success or not) and CAPTURE_FAILED: the paid payment's capture as the acquirer reports
 * it, with the capture no longer owed. A failed capture takes the payment's credit back from the
 * balance and alarms (AcquirerModificationsFailed); a capture that succeeds after all (retried in
 * the acquirer's back office) gives it back. The payment stays `paid` and counted on its link.
 */
async function captureSettled({ deps, notification: n, mark, only, unmatched }: Processing<Of<'payment.captured' | 'payment.capture_failed'>>): Promise<string> {
  const to = n.kind === 'payment.captured' ? 'captured' : 'failed';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const payment = await livePayment(deps, n.paymentId, n.merchantAccount);
    const from = payment?.acquirer?.capture;
    if (!payment || payment.acquirer?.reference !== n.acquirerReference || !from) return unmatched('no paid payment holds this authorisation');
    if (from === to) return only('duplicate');
    const outcome = `capture_${to}`;
    if (!(await deps.checkout.recordCapture(payment, from, to, [deps.commands.doneAction(n.acquirerReference, 'capture'), mark(outcome)]))) continue;
    if (to === 'failed') {
      countMetric(METRIC.acquirerModificationsFailed, { name: DIMENSION.operation, value: 'capture' });
      logger.error('capture failed at the acquirer: the payment stays paid, its credit is taken back (runbook AcquirerModificationsFailed)', {
        paymentId: payment.id,
        acquirerReference: n.acquirerReference,
        reason: 'reason' in n ? n.reason : null,
      });
    }
    if (from === 'failed') await deps.onBalanceCredited(balanceOf(payment));
    return outcome;
  }
  throw busy();
}

/** CANCELLATION: the cancel is no longer owed; one that failed alarms (the authorisation lapses by itself unless captured). */
async function cancelSettled({ deps, notification: n, mark }: Processing<Of<'payment.canceled' | 'payment.cancel_failed'>>): Promise<string> {
  const outcome = n.kind === 'payment.canceled' ? 'authorisation_canceled' : 'cancel_failed';
  await deps.commands.settled(n.acquirerReference, 'cancel', [mark(outcome)]);
  if (n.kind === 'payment.cancel_failed') {
    countMetric(METRIC.acquirerModificationsFailed, { name: DIMENSION.operation, value: 'cancel' });
    logger.error('cancel failed at the acquirer (runbook AcquirerModificationsFailed)', { paymentId: n.paymentId, acquirerReference: n.acquirerReference, reason: n.reason });
  }
  return outcome;
}

/**
 * REFUND and REFUND_FAILED: a `processing` live refund becomes `refunded` or `failed` (its
 * reservation given back); a `refunded` one becomes `failed` when the scheme returned the money
 * (REFUND_FAILED after a REFUND success). A success after the refund's failure is older news
 * (a REFUND_FAILED always follows its REFUND) and changes nothing.
 */
async function refundSettled({ deps, notification: n, mark, only, unmatched }: Processing<Of<'refund.refunded' | 'refund.failed'>>): Promise<string> {
  const to = n.kind === 'refund.refunded' ? 'refunded' : 'failed';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const refund = await deps.refundPorts.refunds.get(n.refundId);
    if (!refund || refund.mode !== 'live') return unmatched('no live refund has this reference');
    if (refund.status === to) return only('duplicate');
    if (refund.status === 'failed') return only('ignored');
    if (refund.status !== 'processing' && refund.status !== 'refunded') return unmatched(`the refund is ${refund.status}`);
    const outcome = await settleLiveRefund(deps.refundPorts, refund, to, n.acquirerReference, [mark(to)]);
    if (outcome === 'moved') return to;
    if (outcome === 'conflict') throw busy();
  }
  throw busy();
}

/** The chargeback of a dispute, opened from any of its notifications (its identity claimed once). */
function openDispute(deps: NotificationDeps, n: Of<'dispute.opened' | 'dispute.won' | 'dispute.lost'>, payment: Payment, also: TransactAction[] = []) {
  if (!n.amount) throw new BusinessRuleError('the dispute names an amount the service cannot hold');
  return deps.chargebacks.openOnce(
    {
      // The write decides what the payment has left (money leaves once, decisions §6).
      payment: { ...payment, chargedBackMinor: 0 },
      reason: n.reason.code ? n.reason : undefined,
      amount: { value: formatMinor(n.amount.minor), currency: n.amount.currency },
      deadlineAt: n.kind === 'dispute.opened' ? (n.deadlineAt ?? undefined) : undefined,
      acquirer: { name: deps.acquirerName, reference: n.disputeReference, case_id: n.caseId },
    },
    { acquirer: deps.acquirerName, reference: n.disputeReference },
    deps.urls,
    also,
  );
}

/**
 * NOTIFICATION_OF_CHARGEBACK or CHARGEBACK: the dispute's chargeback, `open`, once whichever
 * comes first (its identity is claimed in its transaction), with §6 and §7's money rules: the
 * balance debited, the payment's chargebacks within its amount. A payment that cannot take it
 * (not paid here, or charged back beyond its amount) is unmatched: the runbook reconciles it.
 */
async function disputeOpened({ deps, notification: n, mark, only, unmatched }: Processing<Of<'dispute.opened'>>): Promise<string> {
  const payment = await livePayment(deps, n.paymentId, n.merchantAccount);
  if (!payment) return unmatched('no live payment of this merchant account has this reference');
  try {
    return (await openDispute(deps, n, payment, [mark('chargeback_opened')])) === 'created' ? 'chargeback_opened' : await only('duplicate');
  } catch (error) {
    if (error instanceof BusinessRuleError) return unmatched(error.message);
    throw error;
  }
}

/**
 * CHARGEBACK_REVERSED or PREARBITRATION_WON (`won`), SECOND_CHARGEBACK or PREARBITRATION_LOST
 * (`lost`): the dispute's chargeback moves as the scheme ruled (shared/domain/chargebacks.ts,
 * ACQUIRER_NEXT), with its balance change. An outcome that comes before the dispute's opening
 * opens it first, from the outcome's own data; the opening that follows is then a duplicate.
 */
async function disputeDecided({ deps, notification: n, mark, only, unmatched }: Processing<Of<'dispute.won' | 'dispute.lost'>>): Promise<string> {
  const identity = { acquirer: deps.acquirerName, reference: n.disputeReference };
  let chargeback = await deps.chargebacks.chargebacks.byIdentity(identity);
  if (!chargeback) {
    const payment = await livePayment(deps, n.paymentId, n.merchantAccount);
    if (!payment) return unmatched('no live payment of this merchant account has this reference');
    try {
      await openDispute(deps, n, payment);
    } catch (error) {
      if (error instanceof BusinessRuleError) return unmatched(error.message);
      throw error;
    }
    chargeback = (await deps.chargebacks.chargebacks.byIdentity(identity))!;
  }
  const to = n.kind === 'dispute.won' ? 'won' : 'lost';
  if (chargeback.status === to) return only('duplicate');
  try {
    await deps.chargebacks.transition(chargeback, to, deps.urls, 'acquirer', deps.now(), undefined, [mark(`chargeback_${to}`)]);
    return `chargeback_${to}`;
  } catch (error) {
    if (error instanceof BusinessRuleError) return unmatched(error.message);
    throw error;
  }
}
