import type { AcquirerNotification } from './acquirer';
import type { ChargebackStatus } from './chargebacks';
import type { CaptureChange, Payment, PaymentAtAcquirer } from './payments';
import type { Refund } from './refunds';
import { sameMoney, type Money } from '../money';

/**
 * What a notification of the acquirer may move (product-decisions §12, revised 2026-11-28), as
 * pure rules: a notification moves only the payment, capture, refund or dispute it names, and
 * for one capture, refund or dispute a notification older than the one that last moved it is
 * older news. The use case (shared/use-cases/acquirer-notifications.ts) reads the subject and
 * asks these; everything that changes nothing is recorded with one of the reasons below.
 */

/**
 * Why a notification names nothing it can move: another merchant account than the payment's,
 * a reference that is not the payment's, capture's, refund's or dispute's, an amount that is not
 * theirs (or a dispute of zero or less), or a state the subject cannot take it in. A bounded set:
 * the `Reason` of the AcquirerNotificationsUnmatched metric.
 */
export const UNMATCHED_REASONS = ['account', 'reference', 'amount', 'state'] as const;
export type UnmatchedReason = (typeof UNMATCHED_REASONS)[number];

/** A notification that names something it changes nothing about: a repeat of one applied, or older news. The `Reason` of AcquirerNotificationsNoChange. */
export const NO_CHANGE_REASONS = ['duplicate', 'older'] as const;
export type NoChangeReason = (typeof NO_CHANGE_REASONS)[number];

/** Changing nothing, and why. */
export type NoChange = { unmatched: UnmatchedReason; why: string } | { noChange: NoChangeReason };

export const unmatched = (reason: UnmatchedReason, why: string): NoChange => ({ unmatched: reason, why });
export const DUPLICATE: NoChange = { noChange: 'duplicate' };
export const OLDER: NoChange = { noChange: 'older' };

/**
 * The place of a state in a subject's life at the acquirer, for two notifications of the same
 * instant (Adyen's `eventDate` counts whole seconds): a CAPTURE_FAILED follows its CAPTURE (and a
 * cancellation of the authorisation comes last), a REFUND_FAILED its REFUND, a second chargeback
 * or a lost pre-arbitration the reversal before it.
 */
export const NEWS_ORDER = {
  // A capture of another reference, retried in the acquirer's back office, follows the failure it retries.
  capture: { requested: 0, captured: 1, failed: 2, retried: 3 },
  refund: { processing: 0, refunded: 1, failed: 2 },
  dispute: { open: 0, won: 1, lost: 2 },
} as const;

/**
 * Whether news of `at` taking the subject to a state of place `rank` is older than the news that
 * last moved it (`last`: its instant and the place of the state it left it in): older, or of the
 * same instant and not after it. A subject no notification has moved yet takes any.
 */
export function isOlderNews(at: string, rank: number, last: { at?: string; rank: number }): boolean {
  if (last.at === undefined) return false;
  const [news, latest] = [Date.parse(at), Date.parse(last.at)];
  return news < latest || (news === latest && rank < last.rank);
}

/** A live payment as a notification finds it: with its state at the acquirer. */
export type LivePayment = Payment & { acquirer: PaymentAtAcquirer };
export const isNoChange = (found: object): found is NoChange => 'unmatched' in found || 'noChange' in found;
export const amountOf = (payment: Payment): Money => ({ minor: payment.amountMinor, currency: payment.currency });

type Of<K extends AcquirerNotification['kind']> = Extract<AcquirerNotification, { kind: K }>;

/**
 * What a capture notification does to the paid live payment it names (pure): bound to the
 * payment's authorisation, its whole amount and its capture (a capture of another reference
 * only after a failure: one retried in the acquirer's back office), and older news than the
 * capture's last changes nothing.
 */
export function captureChange(payment: LivePayment, n: Of<'payment.captured' | 'payment.capture_failed'>): CaptureChange | NoChange {
  const at = payment.acquirer;
  const to = n.kind === 'payment.captured' ? 'captured' : 'failed';
  if (at.reference !== n.acquirerReference) return unmatched('reference', "not the payment's authorisation");
  if (!at.capture) return unmatched('state', `the payment is ${payment.status}: no capture was asked`);
  if (at.voided) return unmatched('state', 'the authorisation was cancelled: nothing can be captured');
  if (!sameMoney(n.amount, amountOf(payment))) return unmatched('amount', "not the payment's amount (the service captures it whole)");
  const anotherCapture = at.captureReference !== undefined && at.captureReference !== n.modificationReference;
  if (anotherCapture && !(at.capture === 'failed' && to === 'captured')) return unmatched('reference', "another capture than the payment's");
  if (!anotherCapture && at.capture === to) return DUPLICATE;
  const rank = anotherCapture ? NEWS_ORDER.capture.retried : NEWS_ORDER.capture[to];
  if (isOlderNews(n.occurredAt, rank, { at: at.captureEventAt, rank: NEWS_ORDER.capture[at.capture] })) return OLDER;
  return { capture: to, captureReference: n.modificationReference, captureEventAt: n.occurredAt };
}

/**
 * What a refund notification does to the live refund it names (pure): bound to the refund's
 * payment (its merchant account and authorisation), the refund's reference at the acquirer once
 * known and its exact amount; a refund that failed is final, and older news than the refund's
 * last changes nothing.
 */
export function refundChange(refund: Refund, payment: Payment | undefined, n: Of<'refund.refunded' | 'refund.failed'>): { to: 'refunded' | 'failed' } | NoChange {
  const to = n.kind === 'refund.refunded' ? 'refunded' : 'failed';
  if (payment?.acquirer?.merchantAccount !== n.merchantAccount) return unmatched('account', "another merchant account than the refunded payment's");
  if (payment.acquirer.reference !== n.paymentAcquirerReference) return unmatched('reference', "not the refunded payment's authorisation");
  if (refund.acquirerReference !== undefined && refund.acquirerReference !== n.acquirerReference) return unmatched('reference', "another refund than this refund's at the acquirer");
  if (!sameMoney(n.amount, { minor: refund.amountMinor, currency: refund.currency })) return unmatched('amount', "not the refund's amount");
  if (refund.status === to) return DUPLICATE;
  // A REFUND_FAILED always follows its REFUND: news of a success after the failure is older.
  if (refund.status === 'failed') return OLDER;
  if (refund.status !== 'processing' && refund.status !== 'refunded') return unmatched('state', `the refund is ${refund.status}: it was not sent to the acquirer`);
  if (isOlderNews(n.occurredAt, NEWS_ORDER.refund[to], { at: refund.acquirerEventAt, rank: NEWS_ORDER.refund[refund.status] })) return OLDER;
  return { to };
}

/**
 * Whether a dispute notification is about a live payment of its merchant account (pure): its
 * disputed payment's authorisation (when it names it: a ruling need not), and an amount above
 * zero that the service can hold (a dispute of zero or less would give money back, §6).
 */
export function disputeAmount(payment: LivePayment, n: Of<'dispute.opened' | 'dispute.won' | 'dispute.lost'>, requireReference: boolean): Money | NoChange {
  if (n.paymentAcquirerReference === null ? requireReference : n.paymentAcquirerReference !== payment.acquirer.reference) {
    return unmatched('reference', "not the disputed payment's authorisation");
  }
  if (!n.amount || n.amount.minor <= 0) return unmatched('amount', n.amount ? 'a dispute of zero or less' : 'an amount the service cannot hold');
  return n.amount;
}

/** The place of a chargeback's status among the acquirer's news: its merchant's answers come before any ruling. */
export const disputeRank = (status: ChargebackStatus) => (status === 'won' || status === 'lost' ? NEWS_ORDER.dispute[status] : NEWS_ORDER.dispute.open);

