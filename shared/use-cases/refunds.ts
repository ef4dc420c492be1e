import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { BalanceStore } from '../db/balance';
import { balanceOf, type BalanceRef } from '../domain/balance';
import type { PaymentRepository } from '../db/payment-repository';
import type { MoveOutcome, RefundRepository } from '../db/refund-repository';
import type { TransactAction } from '../db/outbox';
import { AcquirerRefusedError, AcquirerUnavailableError, type PaymentAcquirer } from '../domain/acquirer';
import { authorisationOf, type Payment } from '../domain/payments';
import {
  balanceResource,
  isDueForProcessing,
  newRefund,
  planRefundAmount,
  refundEvent,
  transitionRefund,
  type Refund,
  type RefundCreateBody,
  type RefundStatus,
  REFUND_CURRENCY,
} from '../domain/refunds';
import { requireOwned } from '../domain/scope';
import { BusinessRuleError, DependencyUnavailableError } from '../errors';
import { newId } from '../ids';
import { parseMinor } from '../money';
import { inJobScope, type JobScope } from '../jobs';
import { logger } from '../observability/logger';
import { isoMillis } from '../time';
import { acquirerCall } from './acquirer-calls';

/** A create or transition re-reads and retries after a concurrent change at most this often. */
const MAX_ATTEMPTS = 60;
/** Held refunds read per query; only the head of the queue can ever be released first. */
const HOLD_BATCH = 25;
const PROCESSING_BATCH = 100;

/** Concurrent writes kept colliding after the retries with backoff: the client may retry (503). */
const busy = () => new DependencyUnavailableError('The resource is being changed concurrently; retry with exponential backoff');

export interface RefundDeps {
  refunds: RefundRepository;
  payments: Pick<PaymentRepository, 'get'>;
  balances: BalanceStore;
  now: () => Date;
  /** Public URLs outside a request (jobs, hooks of other resources): from configuration. */
  configuredUrls: () => PublicUrls;
  /** Refuses (422) a webhook_url that could never be delivered to (decisions §9). */
  checkWebhookUrl: (url: string, attribute: string) => Promise<void>;
  /** How long a covered pending refund can be canceled before the job processes it (§6). */
  cancelWindowSeconds: number;
  /**
   * Live refunds are paid out by the acquirer (product-decisions §12), built on first use; absent
   * where no live refund is ever moved (the test helper's jobs, which reach test mode only).
   */
  acquirer?: () => Promise<PaymentAcquirer>;
}

/**
 * The ports one use case needs: each is a function of its own ports, so a function's bundle
 * holds only what its operation calls (the webhook-URL check only where a refund is created).
 */
type Needs<K extends keyof RefundDeps> = Pick<RefundDeps, K>;
/** What moving refunds and releasing a balance's hold queue read and write. */
type HoldPorts = Needs<'refunds' | 'balances' | 'now' | 'configuredUrls'>;

/**
 * Applies one transition with its effects and events. Returns the outcome; a stale refund
 * (moved meanwhile by someone else) or an uncovered debit is reported, not thrown.
 */
async function move(deps: Needs<'refunds' | 'now'>, refund: Refund, to: RefundStatus, urls: PublicUrls, now = deps.now()) {
  const transition = transitionRefund(refund, to, isoMillis(now));
  const outcome = await deps.refunds.move(transition, refund, [refundEvent(transition.refund, urls, now)]);
  return { outcome, refund: transition.refund };
}

/**
 * Covers the held refunds of one balance, oldest first, for as long as the balance covers
 * the oldest one:
 * 1. read the head of the hold queue (DUE index, ascending id);
 * 2. cover it: reserve its amount under the cover condition, leave the queue; it stays
 *    `pending` (on_hold false) and its cancel window runs from its creation; event;
 * 3. stop at the first refund the balance cannot cover (a younger one never overtakes it);
 * 4. with the queue empty, drop the balance's held-refunds marker.
 * Safe to run concurrently: each move is conditional on the refund still being held.
 */
export async function processHeld(deps: HoldPorts, ref: BalanceRef, options: { urls?: PublicUrls; now?: Date } = {}): Promise<number> {
  const urls = options.urls ?? deps.configuredUrls();
  let processed = 0;
  for (;;) {
    const queue = await deps.refunds.holdQueue(ref, HOLD_BATCH);
    if (queue.length === 0) {
      await deps.balances.clearHoldMarker(ref);
      return processed;
    }
    let progressed = false;
    for (const refund of queue) {
      if (refund.status !== 'pending' || !refund.onHold) continue;
      const { outcome } = await move(deps, refund, 'pending', urls, options.now);
      if (outcome === 'not-covered') return processed;
      if (outcome === 'moved') {
        processed++;
        progressed = true;
      }
    }
    // Every entry was stale: the index lags a write; the next credit or the job retries.
    if (!progressed) return processed;
  }
}

/**
 * After a committed change that credited or freed a balance: tries its hold queue now, if
 * the balance has refunds on hold (a GetItem; the queue is not queried otherwise). A
 * failure here must not fail the request, whose change is committed (a retry with the same
 * Idempotency-Key would repeat it): it is logged, and the process-refunds job releases the queue.
 */
export async function releaseAfterCommit(deps: HoldPorts, ref: BalanceRef, urls: PublicUrls): Promise<number> {
  try {
    return (await deps.balances.hasHeldRefunds(ref)) ? await processHeld(deps, ref, { urls }) : 0;
  } catch (error) {
    logger.error('held refunds not released after a commit; the process-refunds job will', {
      orgId: ref.orgId,
      mode: ref.mode,
      error: (error as Error).name,
    });
    return 0;
  }
}

/**
 * POST /v1/payments/:id/refunds
 * 1. read the payment (404 unless the caller's organization and mode own it);
 * 2. apply the amount rules (422 with the attribute);
 * 3. write in one transaction: the payment's refunded total under the rule's ceiling, the
 *    refund, and its amount reserved from the balance, which must cover it while no older
 *    refund is held -> the refund is `pending` with `on_hold: false` (event pending);
 * 4. if the payment changed meanwhile, go back to 1; if the balance does not cover it,
 *    write it `pending` and on hold instead (event pending) and try the hold queue once.
 * The process-refunds job moves it to `processing` after the cancel window.
 */
export async function createRefund(
  deps: HoldPorts & Needs<'payments' | 'checkWebhookUrl'>,
  principal: Principal,
  paymentId: string,
  body: RefundCreateBody,
  urls: PublicUrls,
): Promise<Refund> {
  if (body.webhook_url !== undefined) await deps.checkWebhookUrl(body.webhook_url, 'webhook_url');
  const id = newId('refund');
  const now = deps.now();
  let held = false;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const payment = requireOwned(await deps.payments.get(paymentId), principal);
    const plan = planRefundAmount(payment, {
      amountMinor: body.amount ? parseMinor(body.amount.value) : undefined,
      currency: body.amount?.currency,
      allowOvercaptured: body.allow_overcaptured,
      overcapPct: body.overcap_pct,
    });
    const pending = newRefund({
      id,
      orgId: payment.orgId,
      mode: payment.mode,
      acceptorId: payment.acceptorId,
      paymentId: payment.id,
      paymentLinkId: payment.paymentLinkId,
      amountMinor: plan.amountMinor,
      currency: REFUND_CURRENCY,
      description: body.description ?? '',
      webhookUrl: body.webhook_url,
      metadata: body.metadata ?? {},
      createdAt: isoMillis(now),
    });
    if (held) {
      const outcome = await deps.refunds.create(pending, plan.limitMinor, [refundEvent(pending, urls, now)]);
      if (outcome === 'conflict') throw busy();
      if (outcome === 'payment-changed') {
        held = false;
        continue;
      }
      if (outcome !== 'created') throw new Error(`unexpected outcome ${outcome} for a held refund`);
      // A credit may have landed between the failed cover check and the hold.
      if ((await releaseAfterCommit(deps, balanceOf(pending), urls)) > 0) return (await deps.refunds.get(id)) ?? pending;
      return pending;
    }
    const covered = { ...pending, onHold: false };
    const outcome = await deps.refunds.create(covered, plan.limitMinor, [refundEvent(covered, urls, now)]);
    if (outcome === 'created') return covered;
    if (outcome === 'conflict') throw busy();
    held = outcome === 'not-covered';
  }
  throw busy();
}

/**
 * POST /v1/refunds/:id/cancel (§6): a `pending` refund, held or not, becomes `canceled` and
 * gives back what it reserved; any other status is a 422 on `status`. Conditional on the
 * refund being unchanged, so of a cancel and the job processing it exactly one wins.
 */
export async function cancelRefund(deps: HoldPorts, principal: Principal, id: string, urls: PublicUrls): Promise<Refund> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const refund = requireOwned(await deps.refunds.get(id), principal);
    if (refund.status !== 'pending') throw new BusinessRuleError(`A ${refund.status} refund cannot be canceled; only a pending one can`, 'status');
    const result = await move(deps, refund, 'canceled', urls);
    if (result.outcome === 'conflict') throw busy();
    if (result.outcome !== 'moved') continue;
    // Its amount came back, or it left the head of the hold queue: the next held refunds may proceed.
    await releaseAfterCommit(deps, balanceOf(refund), urls);
    return result.refund;
  }
  throw busy();
}

/**
 * Test helper: moves a refund as the lifecycle allows (422 otherwise), without waiting for
 * the cancel window. A held refund moved to `processing` must be covered by the balance (422
 * otherwise); `failed` and `canceled` give back what the refund reserved, after which the
 * hold queue is tried.
 */
export async function moveRefundAsTold(deps: HoldPorts, principal: Principal, id: string, to: RefundStatus, urls: PublicUrls): Promise<Refund> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const refund = requireOwned(await deps.refunds.get(id), principal);
    const result = await move(deps, refund, to, urls);
    if (result.outcome === 'not-covered') {
      throw new BusinessRuleError('The balance does not cover the refund; it stays on hold', 'status');
    }
    if (result.outcome === 'conflict') throw busy();
    if (result.outcome === 'stale') continue;
    if (to === 'failed' || to === 'canceled') await releaseAfterCommit(deps, balanceOf(refund), urls);
    return result.refund;
  }
  throw busy();
}

/**
 * Test helper: adds a signed amount to the caller's balance, then releases the held
 * refunds it now covers, and answers the resulting balance.
 */
export async function adjustBalance(deps: HoldPorts, principal: Principal, amount: { value: string; currency: string }, urls: PublicUrls) {
  const ref: BalanceRef = { orgId: principal.orgId, mode: principal.mode, currency: amount.currency.toUpperCase() };
  await deps.balances.adjust(ref, parseMinor(amount.value));
  await releaseAfterCommit(deps, ref, urls);
  return balanceResource(await deps.balances.read(ref), ref.currency);
}

/**
 * Visits every refund of one DUE partition read by `due` (up to `upTo`) in the run's scope;
 * `visit` answers whether it processed the refund. Each move it makes is conditional, so a
 * cancel or another run that got there first wins.
 */
async function eachDue(
  due: RefundRepository['processingDue'],
  upTo: Date,
  only: JobScope | undefined,
  visit: (refund: Refund) => Promise<boolean>,
): Promise<number> {
  let processed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await due(isoMillis(upTo), PROCESSING_BATCH, startKey);
    for (const refund of page.refunds) if (inJobScope(refund, only) && (await visit(refund))) processed++;
    startKey = page.nextKey;
  } while (startKey);
  return processed;
}

type RefundJobPorts = HoldPorts & Needs<'cancelWindowSeconds' | 'payments' | 'acquirer'>;
interface RefundJobRun {
  now: Date;
  urls: PublicUrls;
  only?: JobScope;
}

/**
 * A live refund in `processing` goes to the acquirer (product-decisions §12), the refund id its
 * idempotency key, so sending it again after a lost answer repeats the same refund:
 * 1. once the payment's capture is confirmed (a refund moves to `processing` only then);
 * 2. taken: its reference is kept, the job sends it no more, its notification settles it;
 * 3. unreachable: it stays unsent and the next run sends it again;
 * 4. refused, or the payment's capture failed: `failed`, its reservation given back.
 * The job never completes a live refund by itself.
 */
async function sendToAcquirer(deps: RefundJobPorts, refund: Refund, payment: Payment | undefined, run: RefundJobRun): Promise<boolean> {
  if (!deps.acquirer) throw new Error(`live refund ${refund.id} is due, but these jobs have no acquirer`);
  const authorisation = payment && authorisationOf(payment);
  if (!authorisation || payment.acquirer?.capture === 'failed') return failAtAcquirer(deps, refund, 'the payment holds no captured authorisation', run);
  if (payment.acquirer?.capture !== 'captured') return false;
  try {
    const acquirer = await deps.acquirer();
    const receipt = await acquirerCall('refund', () => acquirer.refund({ refundId: refund.id, payment: authorisation, amount: { minor: refund.amountMinor, currency: refund.currency } }));
    await deps.refunds.recordAcquirerReference(refund.id, receipt.acquirerReference);
    return true;
  } catch (error) {
    if (error instanceof AcquirerUnavailableError) return false;
    if (error instanceof AcquirerRefusedError) return failAtAcquirer(deps, refund, error.message, run);
    throw error;
  }
}

/**
 * A live refund waits, `pending` and still cancelable, while its payment's capture is not
 * confirmed: the acquirer refunds only captured money, and `processing` means sent to it. Moved
 * then, it would wait unsent for the job's next run, a minute or more (issue 40 item 13).
 */
const awaitsCapture = (payment: Payment | undefined) => payment?.acquirer?.capture === 'requested';

async function failAtAcquirer(deps: RefundJobPorts, refund: Refund, why: string, run: RefundJobRun): Promise<boolean> {
  logger.warn('live refund failed before the acquirer took it', { refundId: refund.id, paymentId: refund.paymentId, why });
  const { outcome } = await move(deps, refund, 'failed', run.urls, run.now);
  if (outcome === 'moved') await releaseAfterCommit(deps, balanceOf(refund), run.urls);
  return outcome === 'moved';
}

/**
 * The process-refunds job, in this order so that each refund takes one step a run:
 * 1. `processing` refunds: a test one becomes `refunded` (the job pays out); a live one the
 *    acquirer has not taken yet is sent to it (again);
 * 2. covered `pending` refunds older than the cancel window become `processing`, and a live one
 *    is sent to the acquirer at once (it waits, `pending`, until its payment's capture is confirmed);
 * 3. held refunds of every balance that has some are covered, oldest first.
 */
export async function runRefundJob(deps: RefundJobPorts, now: Date, only?: JobScope): Promise<number> {
  const { refunds, cancelWindowSeconds } = deps;
  const run: RefundJobRun = { now, urls: deps.configuredUrls(), only };
  const moved = async (refund: Refund, to: RefundStatus) => (await move(deps, refund, to, run.urls, now)).outcome === 'moved';
  let processed = await eachDue(refunds.processingDue, now, only, async (refund) => {
    if (refund.status !== 'processing') return false;
    if (refund.mode === 'test') return moved(refund, 'refunded');
    return !refund.acquirerReference && sendToAcquirer(deps, refund, await deps.payments.get(refund.paymentId), run);
  });
  const windowStart = new Date(now.getTime() - cancelWindowSeconds * 1000);
  processed += await eachDue(refunds.coveredDue, windowStart, only, async (refund) => {
    if (!isDueForProcessing(refund, now, cancelWindowSeconds)) return false;
    const payment = refund.mode === 'live' ? await deps.payments.get(refund.paymentId) : undefined;
    if (awaitsCapture(payment)) return false;
    const { outcome, refund: processing } = await move(deps, refund, 'processing', run.urls, now);
    if (outcome !== 'moved') return false;
    if (processing.mode === 'live') await sendToAcquirer(deps, processing, payment, run);
    return true;
  });
  for (const ref of await deps.balances.withHeldRefunds()) if (inJobScope(ref, only)) processed += await processHeld(deps, ref, { urls: run.urls, now });
  return processed;
}

/**
 * A live refund as the acquirer reports it (shared/use-cases/acquirer-notifications.ts):
 * `refunded`, or `failed` with its reservation given back, from `processing` or, when the
 * scheme returned the money after the acquirer had refunded it, from `refunded`. The refund keeps
 * the acquirer's reference and the instant of the news (`news`); `also` commits with the move.
 * Answers the move's outcome.
 */
export async function settleLiveRefund(
  deps: HoldPorts,
  refund: Refund,
  to: 'refunded' | 'failed',
  news: { acquirerReference: string; at: string },
  also: TransactAction[],
): Promise<MoveOutcome> {
  const now = deps.now();
  const urls = deps.configuredUrls();
  const transition = transitionRefund({ ...refund, acquirerReference: news.acquirerReference, acquirerEventAt: news.at }, to, isoMillis(now), 'acquirer');
  const outcome = await deps.refunds.move(transition, refund, [refundEvent(transition.refund, urls, now)], also);
  if (outcome === 'moved' && to === 'failed') await releaseAfterCommit(deps, balanceOf(refund), urls);
  return outcome;
}

/**
 * The refund use cases that run outside a refund's own request, bound to one set of ports: the
 * release after another area's commit, and (ops, the local stack and tests) the hold queue and
 * the creation. A handler calls its use case with its ports instead (shared/services/refunds.ts).
 */
export function refundUseCases(deps: RefundDeps) {
  return {
    processHeld: (ref: BalanceRef, options?: { urls?: PublicUrls; now?: Date }) => processHeld(deps, ref, options),
    releaseAfterCommit: (ref: BalanceRef, urls: PublicUrls) => releaseAfterCommit(deps, ref, urls),
    create: (principal: Principal, paymentId: string, body: RefundCreateBody, urls: PublicUrls) => createRefund(deps, principal, paymentId, body, urls),
  };
}

export type RefundUseCases = ReturnType<typeof refundUseCases>;
