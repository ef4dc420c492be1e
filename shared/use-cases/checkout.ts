import {
  PAYMENT_LINK_EVENT,
  checkoutDenial,
  requireCollectedDetails,
  expiredPaymentLink,
  isDueToExpire,
  linkEvent,
  paidPaymentLink,
  remainingPayments,
  StaleLinkError,
  waitsForShardsClosing,
  type DenialReason,
  type PaymentLink,
  type VersionedLink,
} from '../domain/payment-links';
import type { CheckoutRepository, PaidTransaction } from '../db/checkout-repository';
import type { CustomerEmailIndex } from '../domain/customer-emails';
import type { TransactAction } from '../db/outbox';
import type { RateLimiter } from '../db/rate-limit';
import {
  lastActivityOf,
  OPEN_PAYMENT_IDLE_MS,
  PAYMENT_EVENT,
  paymentEvent,
  PaymentNotOpenError,
  type CustomerDetails,
  type Payment,
  type PaymentStatus,
} from '../domain/payments';
import { ConflictError, NotFoundError, OutrunError, TooManyRequestsError } from '../errors';
import { LIMITS } from '../limits';
import { newId } from '../ids';
import { inJobScope, type JobScope } from '../jobs';
import { backoff, isoMillis } from '../time';
import { changeLink, type PaymentLinkDeps } from './payment-links';

/** What a checkout needs: the links' ports and the checkout's own writes. */
export interface CheckoutDeps extends PaymentLinkDeps {
  checkout: CheckoutRepository;
  /** The digest a customer's email is found by (product-decisions §18). */
  customerEmails: CustomerEmailIndex;
  /**
   * The checkout page's bound on new open payments per link (anonymous visits); the test
   * helper, called with the merchant's own key, has none.
   */
  newPayments?: Pick<RateLimiter, 'take'>;
}

export class CheckoutDeniedError extends ConflictError {
  constructor(
    readonly denial: DenialReason,
    readonly link: VersionedLink,
  ) {
    super(DENIAL_DETAIL[denial], denial);
  }
}

/** A live link whose acceptor has no merchant account at the acquirer: nothing can be paid on it yet. */
export class NoMerchantAccountError extends ConflictError {
  constructor() {
    super('This payment link cannot take live payments yet: its merchant has no account at the acquirer');
  }
}

const DENIAL_DETAIL: Record<DenialReason, string> = {
  expired: 'This payment link has expired',
  inactive: 'This payment link is no longer active',
  limit_reached: 'This payment link has reached its payment limit',
};


/** The customer, known by the `client_key` cookie; not `returning` when the key was made for this request. */
export interface CheckoutCustomer {
  clientKey: string;
  /** False for a key made just now: no session can exist yet, so none is read. */
  returning: boolean;
}

/**
 * Opens the checkout of a link for one customer (the page and the test helper share this).
 * 1. Load the link (unless the caller just read it); unknown ids are 404.
 * 2. An active link whose `expires_at` has passed is expired now (`expired` + `checkout.denied`).
 * 3. An expired, inactive or limit-reached link is denied with the contract's reason precedence
 *    (`checkout.denied`); the caller answers 409.
 * 4. Otherwise `checkout.requested`, and a returning customer's still-open payment is reused
 *    (`payment.reused`, its activity renewed) or a new open payment is created
 *    (`payment.created`), within the link's bound on new payments when there is one (429); a
 *    live one carries its acceptor's merchant account at the acquirer (none: 409, nothing written).
 */
export async function openCheckout(deps: CheckoutDeps, linkOrId: string | VersionedLink, customer: CheckoutCustomer) {
  const read = typeof linkOrId === 'string' ? await linkToCheckOut(deps, linkOrId) : linkOrId;
  const now = deps.now();
  const expiry = await changeLink(deps, read, (current) => {
    if (!isDueToExpire(current, now)) return undefined;
    const expired = expiredPaymentLink(current, now);
    return { next: expired, events: [linkEvent(deps.urls, PAYMENT_LINK_EVENT.expired, expired), linkEvent(deps.urls, PAYMENT_LINK_EVENT.checkoutDenied, expired, { reason: 'expired' })] };
  });
  const link = expiry.link;
  if (expiry.changed) throw new CheckoutDeniedError('expired', link);
  const denial = checkoutDenial(link, now);
  if (denial) {
    await deps.links.recordEvent(linkEvent(deps.urls, PAYMENT_LINK_EVENT.checkoutDenied, link, { reason: denial }));
    throw new CheckoutDeniedError(denial, link);
  }

  const { clientKey } = customer;
  const requested = linkEvent(deps.urls, PAYMENT_LINK_EVENT.checkoutRequested, link);
  const at = isoMillis(deps.now());
  const openPaymentId = customer.returning ? await deps.checkout.sessionPayment(link.id, clientKey) : undefined;
  const openPayment = openPaymentId ? await deps.payments.get(openPaymentId) : undefined;
  if (openPayment?.status === 'open') {
    const renewed = { ...openPayment, lastActivityAt: at };
    try {
      await deps.checkout.updateOpenPayment(renewed, [requested, linkEvent(deps.urls, PAYMENT_LINK_EVENT.paymentReused, link, { payment_id: openPayment.id })]);
      return { link, payment: renewed, reused: true };
    } catch (error) {
      // Ended meanwhile (paid in another tab, expired by the sweep): the customer gets a new one.
      if (!(error instanceof PaymentNotOpenError)) throw error;
    }
  }
  const merchantAccount = link.mode === 'live' ? await merchantAccountOf(deps, link) : undefined;
  if (deps.newPayments) await admitNewPayment(deps.newPayments, link.id);
  const payment: Payment = {
    id: newId('payment'),
    orgId: link.orgId,
    mode: link.mode,
    acceptorId: link.acceptorId,
    paymentLinkId: link.id,
    status: 'open',
    amountMinor: link.amountMinor,
    currency: link.currency,
    createdAt: at,
    lastActivityAt: at,
    clientKey,
    ...(merchantAccount ? { acquirer: { merchantAccount } } : {}),
  };
  await deps.checkout.openPayment(payment, clientKey, [requested, linkEvent(deps.urls, PAYMENT_LINK_EVENT.paymentCreated, link, { payment_id: payment.id })]);
  return { link, payment, reused: false };
}

async function merchantAccountOf(deps: PaymentLinkDeps, link: PaymentLink): Promise<string> {
  const merchantAccount = (await deps.directory.getAcceptor(link.orgId, link.acceptorId))?.merchantAccount;
  if (!merchantAccount) throw new NoMerchantAccountError();
  return merchantAccount;
}

/** One more new open payment on the link within its bound (LIMITS.checkoutOpenings), or 429 until its window ends. */
async function admitNewPayment(limiter: Pick<RateLimiter, 'take'>, linkId: string): Promise<void> {
  const { perLink, windowSeconds } = LIMITS.checkoutOpenings;
  const wait = await limiter.take(`checkout#${linkId}`, perLink, windowSeconds);
  if (wait !== undefined) throw new TooManyRequestsError(`Too many customers are opening this payment link right now; try again in ${wait} seconds`, wait);
}

/** The link a checkout is for, or 404: a checkout's link is public, so any id is looked up. */
async function linkToCheckOut(deps: PaymentLinkDeps, linkId: string): Promise<VersionedLink> {
  const link = await deps.links.get(linkId);
  if (!link) throw new NotFoundError();
  return link;
}

/**
 * Whether a link's checkout would be denied, and why, without opening anything or writing an
 * event: what a HEAD or a request that does not take HTML (a link preview, a mail scanner) is
 * answered with (product-decisions §4). Unknown ids are 404.
 */
export async function checkoutPreview(deps: PaymentLinkDeps, linkId: string): Promise<{ link: VersionedLink; denial?: DenialReason }> {
  const link = await linkToCheckOut(deps, linkId);
  return { link, denial: checkoutDenial(link, deps.now()) };
}

/** Whom the customer pays: the name of the link's acceptor. */
export async function merchantOf(deps: PaymentLinkDeps, link: PaymentLink): Promise<string> {
  return (await deps.directory.getAcceptor(link.orgId, link.acceptorId))?.name ?? 'the merchant';
}

/**
 * The checkout page's opening (`openCheckout`) and whom the customer pays, read together: both
 * need only the link, so the acceptor's read waits for no write of the opening.
 */
export async function openCheckoutWithMerchant(deps: CheckoutDeps, linkId: string, customer: CheckoutCustomer) {
  const read = await linkToCheckOut(deps, linkId);
  const [opened, merchant] = await Promise.all([openCheckout(deps, read, customer), merchantOf(deps, read)]);
  return { ...opened, merchant };
}

/** A customer's details as a payment keeps them: the email with the digest it is found by. */
export type IndexedDetails = CustomerDetails & { emailDigest?: string };

/** The details with their email's digest, when they hold an email. */
export async function indexedDetails(deps: Pick<CheckoutDeps, 'customerEmails'>, details: CustomerDetails): Promise<IndexedDetails> {
  return details.email ? { ...details, emailDigest: await deps.customerEmails.digest(details.email) } : details;
}

/** The payment with the customer's details in its fields (`customer`, `billing`, the email's digest). */
export function withDetails(payment: Payment, details: IndexedDetails): Payment {
  const customer = { ...payment.customer, ...(details.email ? { email: details.email } : {}), ...(details.phone ? { phone: details.phone } : {}) };
  return {
    ...payment,
    ...(Object.keys(customer).length ? { customer } : {}),
    ...(details.email && details.emailDigest ? { customerEmailDigest: details.emailDigest } : {}),
    ...(details.address ? { billing: { address: details.address } } : {}),
  };
}

/**
 * The customer's checkout, as its page posts it back (POST /checkout/{id}): the link and the
 * payment, read once each and at the same time, which must belong together and to this customer
 * (the `client_key` cookie); anything else is 404, whoever asks. A live payment is paid or not on
 * the acquirer's page, so its checkout takes Pay only (409).
 */
export async function customerCheckout(deps: CheckoutDeps, linkId: string, paymentId: string, clientKey: string | undefined, outcome: PaymentStatus) {
  const [link, payment] = await Promise.all([deps.links.get(linkId), deps.payments.get(paymentId)]);
  if (!link || !payment || payment.paymentLinkId !== link.id || clientKey === undefined || payment.clientKey !== clientKey) {
    throw new NotFoundError('This checkout session does not exist');
  }
  if (link.mode === 'live' && outcome !== 'paid') throw new ConflictError('A live payment is paid or not on the acquirer payment page');
  return { link, payment };
}

/**
 * Ends the customer's checkout with their outcome, from what `customerCheckout` read (nothing is
 * read again), while the payment is still open (409 otherwise).
 * - `paid`: one transaction moves the payment to paid, counts it on the link (auto-inactivating
 *   it at its limit), writes its pending credit and `transactions.payment.paid` with the link's
 *   limit events, under the condition that the link is still active, unexpired and at the
 *   limit it was read with (and, when limited, at the paid count read). A payment that loses
 *   the race for the last slot ends `canceled` and is never counted.
 * - `failed`, `canceled`, `expired`: the payment takes that status (`expired` with
 *   `transactions.payment.expired`).
 * `deadline`: when the invocation ends (epoch ms); a payer still losing rounds near it gets a 503 to retry, never a timeout.
 */
export async function endCustomerCheckout(deps: CheckoutDeps, checkout: { link: VersionedLink; payment: Payment }, outcome: PaymentStatus, details: CustomerDetails, deadline: number) {
  return completeOpenPayment(deps, checkout.payment, checkout.link, outcome, await indexedDetails(deps, details), deadline);
}

/**
 * Opens a checkout and ends it with `outcome` in one call (the test helper): what the open step
 * read and wrote (the link, the open payment) is not read again: with the helper's own read of
 * the link, a new customer, paid or not, costs one read and two transactions.
 */
export async function checkoutAtOnce(deps: CheckoutDeps, link: VersionedLink, customer: CheckoutCustomer, outcome: PaymentStatus, details: CustomerDetails, deadline: number) {
  const indexed = await indexedDetails(deps, details);
  const opened = await openCheckout(deps, link, customer);
  return completeOpenPayment(deps, opened.payment, opened.link, outcome, indexed, deadline);
}

/** `link`: the payment's link as just read, if the caller has it (a stale one costs a round, never a wrong count). */
async function completeOpenPayment(deps: CheckoutDeps, payment: Payment, link: VersionedLink | undefined, outcome: PaymentStatus, details: IndexedDetails, deadline: number) {
  if (payment.status !== 'open') throw new ConflictError(`This payment is already ${payment.status}`);
  if (outcome === 'open') return payment;
  if (outcome !== 'paid') return finish(deps, withDetails({ ...payment, status: outcome }, details));
  return payOnLink(deps, payment, link, { details, checkDetails: true, deadline, settle: asItIs });
}

/**
 * What a payment's outcome carries and commits besides, paid or lost (`canceled`): in test mode
 * nothing; in live mode the acquirer's reference of the authorisation, the capture or cancel owed
 * to the acquirer and the notification's processed mark (shared/use-cases/acquirer-notifications.ts).
 */
export type Settle = (outcome: Payment) => { payment: Payment; also: TransactAction[] };
const asItIs: Settle = (payment) => ({ payment, also: [] });

interface PaidTransition {
  details: IndexedDetails;
  /** The details must hold what the link collects (the page's Pay and the helper; a live payment's were checked before the acquirer's page). */
  checkDetails: boolean;
  deadline: number;
  settle: Settle;
}

/**
 * The live payment an acquirer authorised: the same paid transition as the test mode's Pay,
 * with what `settle` adds. The payment ends `paid`, or `canceled` when the link can no longer
 * be paid (limit reached, inactive, expired); PaymentNotOpenError when it is no longer open.
 */
export function payAuthorised(deps: CheckoutDeps, payment: Payment, settle: Settle): Promise<Payment> {
  return payOnLink(deps, payment, undefined, { details: {}, checkDetails: false, deadline: Infinity, settle });
}

/**
 * A payer loses a round to another payment counted on the same limited link (at most
 * `payments_limit` + 1 rounds) or to a transaction in flight on one of its items (the link, the
 * balance: a conflict); this bound, with the invocation's deadline, guards against a link
 * changing endlessly (503, to be retried by the client).
 */
const MAX_PAID_ATTEMPTS = 250;

/**
 * A round is not started this close to the invocation's deadline: the transaction and the
 * answer must fit before the function's timeout, or the payer would get the gateway's error
 * instead of a 503 it can retry (its payment stays open and can be paid again).
 */
const LAST_ROUND_MS = 2_000;

async function payOnLink(deps: CheckoutDeps, payment: Payment, known: VersionedLink | undefined, transition: PaidTransition): Promise<Payment> {
  const { details, deadline, settle } = transition;
  let link = known ?? (await deps.links.get(payment.paymentLinkId));
  if (!link) throw new NotFoundError();
  if (transition.checkDetails) requireCollectedDetails(link, details);
  let round: PaidRound | undefined;
  for (let attempt = 0; attempt < MAX_PAID_ATTEMPTS; attempt++) {
    const now = deps.now();
    if (attempt > 0 && now.getTime() > deadline - LAST_ROUND_MS) break;
    if (!round) {
      if (checkoutDenial(link, now)) {
        const lost = settle(withDetails({ ...payment, status: 'canceled' }, details));
        return finish(deps, lost.payment, undefined, lost.also);
      }
      if (waitsForShardsClosing(link, now)) {
        // A change of the link is under way: it decides where (and whether) this payment counts.
        await backoff(attempt);
        link = (await deps.links.get(link.id)) ?? link;
        continue;
      }
      round = paidRound(deps, payment, link, transition, now);
    }
    try {
      await deps.checkout.recordPaid(round.transaction);
    } catch (error) {
      if (error instanceof StaleLinkError) {
        // Payers of one link take its slots one at a time; back off so the losers of a round
        // do not all retry at once. A round refused for what the link is now is built again
        // from the link as it is after the wait, read then: the other payers commit during
        // the wait, and a round built before it would be stale again and hold the link only
        // to be refused (docs/decisions.md 159). One lost to a transaction in
        // flight or a throttle is sent again as it was: if it had committed and its answer was
        // lost, DynamoDB answers it as that success (the same request, the same
        // ClientRequestToken: recordPaid).
        await backoff(attempt);
        if (error.current) {
          const current = await deps.links.get(link.id);
          if (!current) throw new NotFoundError();
          link = current;
          round = undefined;
        }
        continue;
      }
      throw error;
    }
    return round.paid;
  }
  throw new OutrunError('The payment link is being changed concurrently; retry with exponential backoff');
}

/** One round of the paid transition: the payment paid at `now` and its transaction, prepared once. */
interface PaidRound {
  paid: Payment;
  transaction: PaidTransaction;
}

function paidRound(deps: Pick<CheckoutDeps, 'urls' | 'checkout'>, payment: Payment, link: VersionedLink, { details, settle }: PaidTransition, now: Date): PaidRound {
  const paidAt = isoMillis(now);
  const { payment: paid, also } = settle(withDetails({ ...payment, status: 'paid', paidAt }, details));
  const next = paidPaymentLink(link, paidAt);
  const remaining = remainingPayments(next);
  const events = [paymentEvent(PAYMENT_EVENT.paid, paid, deps.urls)];
  if (remaining !== null) {
    events.push(linkEvent(deps.urls, PAYMENT_LINK_EVENT.remainingDecremented, next, { payment_id: paid.id }));
  }
  if (remaining === 0) {
    events.push(linkEvent(deps.urls, PAYMENT_LINK_EVENT.autoInactivated, next, { payment_id: paid.id, paid_count_at_inactivation: next.paidCount, reason: 'limit_reached' }));
  }
  return { paid, transaction: deps.checkout.preparePaid(link, next, paid, events, also) };
}

/**
 * An open payment's outcome other than paid, while it is still open (and, with `activityRead`,
 * untouched since), with `also`: an expiry, whoever decides it, comes with `transactions.payment.expired`.
 */
async function finish(deps: Pick<CheckoutDeps, 'checkout' | 'urls'>, next: Payment, activityRead?: string, also: TransactAction[] = []): Promise<Payment> {
  await deps.checkout.updateOpenPayment(next, next.status === 'expired' ? [paymentEvent(PAYMENT_EVENT.expired, next, deps.urls)] : [], activityRead, also);
  return next;
}

/**
 * The minute job `expire-open-payments`: every open payment without activity for 30 minutes
 * becomes `expired`, with `transactions.payment.expired`. It reads each shard of the sparse
 * index of open payments up to the idle bound, so its cost follows the payments due, not the
 * table. A payment paid, failed, canceled or reused in the same moment keeps that: the write
 * requires it still open and at the activity read, and one that lost is skipped.
 */
export async function expireIdlePayments(deps: Pick<CheckoutDeps, 'checkout' | 'urls'>, now: Date, only?: JobScope): Promise<number> {
  const idleSince = isoMillis(new Date(now.getTime() - OPEN_PAYMENT_IDLE_MS));
  let processed = 0;
  for await (const payment of deps.checkout.idlePayments(idleSince)) {
    if (!inJobScope(payment, only)) continue;
    try {
      await finish(deps, { ...payment, status: 'expired' }, lastActivityOf(payment));
      processed++;
    } catch (error) {
      if (!(error instanceof PaymentNotOpenError)) throw error;
    }
  }
  return processed;
}

/**
 * The minute job: expires every active link whose `expires_at` has passed. It reads only the
 * sparse expiry index, so its cost follows the number of links due, not the table's size.
 */
export async function expireDueLinks(deps: PaymentLinkDeps, now: Date, only?: JobScope): Promise<number> {
  let processed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.links.dueForExpiry(now, 100, startKey);
    for (const due of page.links) {
      if (!inJobScope(due, only)) continue;
      // The index holds the link item alone: its shards are read with it before it is changed.
      const link = await deps.links.get(due.id);
      if (!link) continue;
      const expiry = await changeLink(deps, link, (current) => {
        if (!isDueToExpire(current, now)) return undefined;
        const expired = expiredPaymentLink(current, now);
        return { next: expired, events: [linkEvent(deps.urls, PAYMENT_LINK_EVENT.expired, expired)] };
      });
      if (expiry.changed) processed++;
    }
    startKey = page.nextKey;
  } while (startKey);
  return processed;
}
