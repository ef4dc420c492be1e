import type { PublicUrls } from '../config';
import type { PaymentRepository } from '../db/payment-repository';
import type { HostedPayment, PaymentAcquirer } from '../domain/acquirer';
import type { PaymentLink } from '../domain/payment-links';
import { OPEN_PAYMENT_IDLE_MS, PaymentNotOpenError, thankYouUrl, type CustomerDetails, type Payment } from '../domain/payments';
import { isoMillis, sleep } from '../time';
import { acquirerCall } from './acquirer-calls';
import { indexedDetails, withDetails, type CheckoutDeps } from './checkout';

/** What the live checkout needs: the payments' writes and the acquirer, built on first use. */
export interface LiveCheckoutDeps {
  payments: Pick<PaymentRepository, 'attachSession'>;
  acquirer: () => Promise<PaymentAcquirer>;
  now: () => Date;
}

/**
 * How long the thank-you page's request waits for a live payment's outcome before it says
 * "processing" (with a Check again button, never a timed reload): the acquirer notifies the
 * outcome as it sends the customer back, so it is usually known within a second or two; well
 * within the page function's timeout (ROUTE_TIMEOUT_SECONDS).
 */
export const OUTCOME_WAIT_MS = 4_000;

/** The wait ends at least this long before the invocation's deadline, for the page to be answered. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * A live payment as its thank-you page shows it: while it is open (the acquirer has not told
 * its outcome yet), read again after growing pauses (100 ms, doubling up to 1 s: six reads in
 * OUTCOME_WAIT_MS) until it is not, or the wait is over: OUTCOME_WAIT_MS from now, and never
 * past the invocation's `deadline` less a margin.
 */
export async function awaitOutcome(deps: { payments: Pick<PaymentRepository, 'get'> }, payment: Payment, deadline: number): Promise<Payment> {
  const until = Math.min(Date.now() + OUTCOME_WAIT_MS, deadline - ANSWER_MARGIN_MS);
  let current = payment;
  for (let pause = 100; current.status === 'open' && Date.now() + pause < until; pause = Math.min(pause * 2, 1_000)) {
    await sleep(pause);
    current = (await deps.payments.get(payment.id)) ?? current;
  }
  return current;
}

/** A page that closes within this is not handed to a customer: a new one is opened instead. */
const STILL_OPEN_MS = 60_000;

/** The payment's hosted page, while it stays open long enough for the customer to pay on it. */
export function openHostedPage(payment: Payment, now: Date): HostedPayment | undefined {
  const session = payment.acquirer?.session;
  return session && Date.parse(session.expiresAt) - now.getTime() > STILL_OPEN_MS ? session : undefined;
}

/**
 * The acquirer's hosted payment page of an open live payment (product-decisions §12):
 * 1. the payment's own page, while it stays open (a returning customer pays on the same one);
 * 2. otherwise a new one: the payment id as reference, the thank-you page to come back to, the
 *    capture held back; closing when the open payment would expire without activity
 *    (product-decisions §4) or the link expires, whichever comes first;
 * 3. kept on the payment, which must still be open (PaymentNotOpenError otherwise).
 * The acquirer unreachable: 503 with Retry-After, the payment still open without a page.
 */
export async function hostedPaymentPage(deps: LiveCheckoutDeps, link: PaymentLink, payment: Payment, urls: PublicUrls): Promise<HostedPayment> {
  const now = deps.now();
  const open = openHostedPage(payment, now);
  if (open) return open;
  const closes = Math.min(now.getTime() + OPEN_PAYMENT_IDLE_MS, link.expiresAt ? Date.parse(link.expiresAt) : Infinity);
  const acquirer = await deps.acquirer();
  const session = await acquirerCall('session', () =>
    acquirer.startHostedPayment({
      paymentId: payment.id,
      amount: { minor: payment.amountMinor, currency: payment.currency },
      merchantAccount: payment.acquirer!.merchantAccount,
      returnUrl: thankYouUrl(urls, payment),
      expiresAt: isoMillis(closes),
    }),
  );
  await deps.payments.attachSession(payment.id, session);
  return session;
}

/**
 * The live checkout's Pay: where the customer goes next.
 * 1. A payment no longer open: its thank-you page, which tells its outcome.
 * 2. The details the link collects (checked by the caller) are kept on the open payment.
 * 3. The payment's hosted page while it stays open; otherwise back to the checkout, which
 *    opens a new one.
 */
export async function continueToAcquirer(
  deps: Pick<CheckoutDeps, 'customerEmails'> & { payments: Pick<PaymentRepository, 'saveDetails'>; now: () => Date },
  payment: Payment,
  details: CustomerDetails,
  urls: PublicUrls,
): Promise<string> {
  if (payment.status !== 'open') return thankYouUrl(urls, payment);
  try {
    await deps.payments.saveDetails(withDetails(payment, await indexedDetails(deps, details)));
  } catch (error) {
    if (error instanceof PaymentNotOpenError) return thankYouUrl(urls, payment);
    throw error;
  }
  return openHostedPage(payment, deps.now())?.url ?? `${urls.checkout}/${payment.paymentLinkId}`;
}
