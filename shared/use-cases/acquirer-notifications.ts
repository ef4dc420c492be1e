import type { BalanceRef } from '../domain/balance';
import type { AcquirerNotificationStore, StoredNotification } from '../db/acquirer-notification-store';
import type { TransactAction } from '../db/outbox';

import type { AcquirerNotification } from '../domain/acquirer';
import {
  amountOf,
  captureChange,
  disputeAmount,
  disputeRank,
  DUPLICATE,
  isNoChange,
  isOlderNews,
  NEWS_ORDER,
  OLDER,
  refundChange,
  unmatched,
  type LivePayment,
  type NoChange,
} from '../domain/acquirer-news';
import type { Chargeback } from '../domain/chargebacks';
import { newCommand, type AcquirerCommand } from '../domain/acquirer-commands';
import { balanceOf } from '../domain/balance';
import { PaymentNotOpenError, type CaptureChange, type Payment } from '../domain/payments';
import { formatMinor, sameMoney, type Money } from '../money';
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
  /** A notification that changes nothing and needs no word: marked processed with this outcome. */
  only(outcome: string): Promise<string>;
  /**
   * A notification that changes nothing (product-decisions §12): an unmatched one (another
   * account, reference or amount, a state that cannot take it), a repeat or older news; marked
   * with why, logged with its keys (never its payload) and counted.
   */
  nothing(result: NoChange): Promise<string>;
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
  const only = async (outcome: string, unmatched?: StoredNotification['unmatched']) =>
    (await deps.notifications.markProcessed(notification.id, outcome, at(), unmatched)) ? outcome : 'duplicate';
  const processing: Processing = {
    deps,
    notification,
    mark: (outcome) => deps.notifications.processedAction(notification.id, outcome, at()),
    only,
    async nothing(result) {
      const keys = { notificationId: notification.id, kind: notification.kind, ...subjectOf(notification) };
      if ('noChange' in result) {
        countMetric(METRIC.acquirerNotificationsNoChange, { name: DIMENSION.reason, value: result.noChange });
        logger.info('acquirer notification changes nothing', { ...keys, reason: result.noChange });
        return only(result.noChange);
      }
      countMetric(METRIC.acquirerNotificationsUnmatched, { name: DIMENSION.reason, value: result.unmatched });
      logger.warn('acquirer notification matches nothing here (runbook AcquirerNotificationsUnmatched)', { ...keys, reason: result.unmatched, why: result.why });
      return only('unmatched', { reason: result.unmatched, why: result.why });
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

/** What a notification names, by the service's ids and the acquirer's references: the keys of its log lines. */
function subjectOf(n: AcquirerNotification): Record<string, string> {
  if ('refundId' in n) return { refundId: n.refundId, acquirerReference: n.acquirerReference };
  if ('disputeReference' in n) return { paymentId: n.paymentId, disputeReference: n.disputeReference };
  return { paymentId: n.paymentId, acquirerReference: n.acquirerReference };
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


/** The live payment a notification names (its id), when the notification is for the payment's merchant account. */
async function boundPayment(deps: NotificationDeps, paymentId: string, merchantAccount: string): Promise<LivePayment | NoChange> {
  const payment = await deps.payments.get(paymentId);
  if (payment?.mode !== 'live' || !payment.acquirer) return unmatched('reference', 'no live payment has this reference');
  if (payment.acquirer.merchantAccount !== merchantAccount) return unmatched('account', "another merchant account than the payment's acceptor's");
  return payment as LivePayment;
}

/**
 * AUTHORISATION success, for a live payment of its merchant account:
 * 1. an open payment of that amount runs the test mode's race-free paid transition, with the
 *    authorisation's reference, the capture owed to the acquirer and the processed mark in its
 *    transaction, then the capture is sent; when the link can no longer be paid (limit reached,
 *    inactive, expired) the payment ends `canceled` with a cancel owed instead;
 * 2. a payment no longer open (or another amount): the authorisation is cancelled, the payment
 *    stays as it is; no customer is charged for a payment that lost.
 */
async function authorized({ deps, notification: n, mark, nothing }: Processing<Of<'payment.authorized'>>): Promise<string> {
  const payment = await boundPayment(deps, n.paymentId, n.merchantAccount);
  if (isNoChange(payment)) return nothing(payment);
  if (payment.acquirer.reference === n.acquirerReference) return nothing(DUPLICATE);
  const authorisation = { paymentId: payment.id, acquirerReference: n.acquirerReference, merchantAccount: n.merchantAccount };
  const owner = { orgId: payment.orgId, mode: payment.mode, amount: amountOf(payment) };
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
  // What a cancel gives back: the authorisation's own amount, when the service can hold it.
  const cancel = newCommand('cancel', authorisation, { ...owner, amount: n.amount ?? owner.amount }, deps.now());
  await deps.commands.put(cancel, [mark('authorisation_canceled')]);
  await sendCommand(deps, cancel);
  return 'authorisation_canceled';
}

/** AUTHORISATION refused: an open payment of that amount becomes `failed`, with the refused authorisation's reference and the acquirer's reason. */
async function refused({ deps, notification: n, mark, nothing }: Processing<Of<'payment.refused'>>): Promise<string> {
  const payment = await boundPayment(deps, n.paymentId, n.merchantAccount);
  if (isNoChange(payment)) return nothing(payment);
  if (payment.acquirer.reference === n.acquirerReference) return nothing(DUPLICATE);
  if (!sameMoney(n.amount, amountOf(payment))) return nothing(unmatched('amount', "not the payment's amount"));
  if (payment.status !== 'open') return nothing(unmatched('state', `the payment is ${payment.status}`));
  const acquirer = { merchantAccount: n.merchantAccount, reference: n.acquirerReference, decline: n.decline, ...(n.reason ? { refusalReason: n.reason } : {}) };
  try {
    await deps.checkout.updateOpenPayment({ ...payment, status: 'failed', acquirer }, [], undefined, [mark('failed')]);
    return 'failed';
  } catch (error) {
    if (error instanceof PaymentNotOpenError) return nothing(unmatched('state', 'the payment is no longer open'));
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
async function captureSettled({ deps, notification: n, mark, nothing }: Processing<Of<'payment.captured' | 'payment.capture_failed'>>): Promise<string> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const payment = await boundPayment(deps, n.paymentId, n.merchantAccount);
    if (isNoChange(payment)) return nothing(payment);
    const change = captureChange(payment, n);
    if (isNoChange(change)) return nothing(change);
    const from = payment.acquirer.capture;
    const outcome = `capture_${change.capture}`;
    if (!(await deps.checkout.recordCapture(payment, change, [deps.commands.doneAction(n.acquirerReference, 'capture'), mark(outcome)]))) continue;
    if (change.capture === 'failed') {
      countMetric(METRIC.acquirerModificationsFailed, { name: DIMENSION.operation, value: 'capture' });
      logger.error('capture failed at the acquirer: the payment stays paid, its credit is taken back (runbook AcquirerModificationsFailed)', {
        paymentId: payment.id,
        acquirerReference: n.acquirerReference,
        reason: 'reason' in n ? n.reason : null,
      });
    }
    if (from === 'failed' && change.capture !== 'failed') await deps.onBalanceCredited(balanceOf(payment));
    return outcome;
  }
  throw busy();
}

/**
 * CANCELLATION, for a live payment of its merchant account:
 * 1. of an authorisation the service cancelled (a payment that lost, another amount, a payment
 *    no longer open): the cancel is no longer owed; one that failed alarms (the authorisation
 *    lapses by itself unless captured);
 * 2. of a paid payment's own authorisation (never asked by the service: someone cancelled it in
 *    the acquirer's back office), before any capture succeeded: the authorisation is void, its
 *    capture `failed` for good, its credit taken back, the capture no longer owed (decisions 78);
 *    a captured payment is not cancelled at the acquirer, so that changes nothing.
 */
async function cancelSettled({ deps, notification: n, mark, nothing }: Processing<Of<'payment.canceled' | 'payment.cancel_failed'>>): Promise<string> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const payment = await boundPayment(deps, n.paymentId, n.merchantAccount);
    if (isNoChange(payment)) return nothing(payment);
    const own = payment.acquirer.reference === n.acquirerReference;
    if (!own || payment.status === 'canceled') {
      const owed = await deps.commands.get(n.acquirerReference, 'cancel');
      if (!own && !owed) return nothing(unmatched('reference', 'no cancel of this authorisation is owed'));
      if (!sameMoney(n.amount, owed?.amount ?? amountOf(payment))) return nothing(unmatched('amount', "not the cancelled authorisation's amount"));
      const outcome = n.kind === 'payment.canceled' ? 'authorisation_canceled' : 'cancel_failed';
      await deps.commands.settled(n.acquirerReference, 'cancel', [mark(outcome)]);
      if (n.kind === 'payment.cancel_failed') {
        countMetric(METRIC.acquirerModificationsFailed, { name: DIMENSION.operation, value: 'cancel' });
        logger.error('cancel failed at the acquirer (runbook AcquirerModificationsFailed)', { paymentId: n.paymentId, acquirerReference: n.acquirerReference, reason: n.reason });
      }
      return outcome;
    }
    if (!sameMoney(n.amount, amountOf(payment))) return nothing(unmatched('amount', "not the payment's amount"));
    const capture = payment.acquirer.capture;
    if (n.kind === 'payment.cancel_failed' || !capture || capture === 'captured' || payment.acquirer.voided) {
      return nothing(n.kind === 'payment.canceled' && payment.acquirer.voided ? DUPLICATE : unmatched('state', `the payment is ${payment.status}, its capture ${capture ?? 'none'}: the service asked no cancel of it`));
    }
    const voided: CaptureChange = { capture: 'failed', captureEventAt: n.occurredAt, voided: true };
    if (!(await deps.checkout.recordCapture(payment, voided, [deps.commands.doneAction(n.acquirerReference, 'capture'), mark('authorisation_voided')]))) continue;
    countMetric(METRIC.acquirerModificationsFailed, { name: DIMENSION.operation, value: 'capture' });
    logger.error("a paid payment's authorisation was cancelled at the acquirer: it stays paid, its credit is taken back (runbook AcquirerModificationsFailed)", {
      paymentId: payment.id,
      acquirerReference: n.acquirerReference,
    });
    return 'authorisation_voided';
  }
  throw busy();
}

/**
 * REFUND and REFUND_FAILED: a `processing` live refund becomes `refunded` or `failed` (its
 * reservation given back); a `refunded` one becomes `failed` when the scheme returned the money
 * (REFUND_FAILED after a REFUND success).
 */
async function refundSettled({ deps, notification: n, mark, nothing }: Processing<Of<'refund.refunded' | 'refund.failed'>>): Promise<string> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const refund = await deps.refundPorts.refunds.get(n.refundId);
    if (!refund || refund.mode !== 'live') return nothing(unmatched('reference', 'no live refund has this reference'));
    const change = refundChange(refund, await deps.payments.get(refund.paymentId), n);
    if (isNoChange(change)) return nothing(change);
    const outcome = await settleLiveRefund(deps.refundPorts, refund, change.to, { acquirerReference: n.acquirerReference, at: n.occurredAt }, [mark(change.to)]);
    if (outcome === 'moved') return change.to;
    if (outcome === 'conflict') throw busy();
  }
  throw busy();
}

/** Opening the dispute's chargeback refused by the money rules of §6 (beyond the payment, another currency, not paid): unmatched, for a human. */
function refusedOpening(error: BusinessRuleError): NoChange {
  return unmatched(error.attribute?.startsWith('amount') ? 'amount' : 'state', error.message);
}

/** The chargeback of a dispute, opened from any of its notifications (its identity claimed once). */
function openDispute(deps: NotificationDeps, n: Of<'dispute.opened' | 'dispute.won' | 'dispute.lost'>, payment: Payment, amount: Money, also: TransactAction[] = []) {
  return deps.chargebacks.openOnce(
    {
      // The write decides what the payment has left (money leaves once, decisions §6).
      payment: { ...payment, chargedBackMinor: 0 },
      reason: n.reason.code ? n.reason : undefined,
      amount: { value: formatMinor(amount.minor), currency: amount.currency },
      deadlineAt: n.kind === 'dispute.opened' ? (n.deadlineAt ?? undefined) : undefined,
      acquirer: { name: deps.acquirerName, reference: n.disputeReference, case_id: n.caseId },
      acquirerEventAt: n.occurredAt,
    },
    { acquirer: deps.acquirerName, reference: n.disputeReference },
    deps.urls,
    also,
  );
}

/**
 * NOTIFICATION_OF_CHARGEBACK or CHARGEBACK: the dispute's chargeback, `open`, once whichever
 * comes first (its identity is claimed in its transaction), with §6 and §7's money rules: the
 * balance debited, the payment's chargebacks within its amount. A notification not bound to the
 * payment, or a payment that cannot take it (not paid here, or charged back beyond its amount),
 * is unmatched: the runbook reconciles it.
 */
async function disputeOpened({ deps, notification: n, mark, nothing }: Processing<Of<'dispute.opened'>>): Promise<string> {
  const payment = await boundPayment(deps, n.paymentId, n.merchantAccount);
  if (isNoChange(payment)) return nothing(payment);
  const amount = disputeAmount(payment, n, true);
  if (isNoChange(amount)) return nothing(amount);
  try {
    return (await openDispute(deps, n, payment, amount, [mark('chargeback_opened')])) === 'created' ? 'chargeback_opened' : await nothing(DUPLICATE);
  } catch (error) {
    if (error instanceof BusinessRuleError) return nothing(refusedOpening(error));
    throw error;
  }
}

/** The chargeback a ruling names: the dispute's, bound to its payment's account and authorisation and its amount. */
async function ruledChargeback(deps: NotificationDeps, n: Of<'dispute.won' | 'dispute.lost'>): Promise<{ chargeback: Chargeback; payment: LivePayment } | NoChange> {
  const identity = { acquirer: deps.acquirerName, reference: n.disputeReference };
  const found = await deps.chargebacks.chargebacks.byIdentity(identity);
  const payment = await boundPayment(deps, found?.paymentId ?? n.paymentId, n.merchantAccount);
  if (isNoChange(payment)) return payment;
  if (found && found.paymentId !== n.paymentId) return unmatched('reference', "not the disputed payment's reference");
  const amount = disputeAmount(payment, n, false);
  if (isNoChange(amount)) return amount;
  if (found) return sameMoney(amount, { minor: found.amountMinor, currency: found.currency }) ? { chargeback: found, payment } : unmatched('amount', "not the chargeback's amount");
  // A ruling before the opening opens the chargeback from the ruling's own data; the opening that follows is a duplicate.
  try {
    await openDispute(deps, n, payment, amount);
  } catch (error) {
    if (error instanceof BusinessRuleError) return refusedOpening(error);
    throw error;
  }
  return { chargeback: (await deps.chargebacks.chargebacks.byIdentity(identity))!, payment };
}

/**
 * CHARGEBACK_REVERSED or PREARBITRATION_WON (`won`), SECOND_CHARGEBACK or PREARBITRATION_LOST
 * (`lost`): the dispute's chargeback moves as the scheme ruled (shared/domain/chargebacks.ts,
 * ACQUIRER_NEXT), with its balance change; older news than the chargeback's last changes
 * nothing. An outcome that comes before the dispute's opening opens it first, from the outcome's
 * own data; the opening that follows is then a duplicate.
 */
async function disputeDecided({ deps, notification: n, mark, nothing }: Processing<Of<'dispute.won' | 'dispute.lost'>>): Promise<string> {
  const ruled = await ruledChargeback(deps, n);
  if (isNoChange(ruled)) return nothing(ruled);
  const { chargeback, payment } = ruled;
  const to = n.kind === 'dispute.won' ? 'won' : 'lost';
  if (chargeback.status === to) return nothing(DUPLICATE);
  if (isOlderNews(n.occurredAt, NEWS_ORDER.dispute[to], { at: chargeback.acquirerEventAt, rank: disputeRank(chargeback.status) })) return nothing(OLDER);
  try {
    await deps.chargebacks.rule(chargeback, to, deps.urls, { at: n.occurredAt, paymentAmountMinor: payment.amountMinor }, [mark(`chargeback_${to}`)]);
    return `chargeback_${to}`;
  } catch (error) {
    if (error instanceof BusinessRuleError) return nothing(unmatched('state', error.message));
    throw error;
  }
}
