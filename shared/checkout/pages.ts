import type { Decline } from '../domain/acquirer';
import { collectedFields, type CustomerField, type DenialReason, type PaymentLink } from '../domain/payment-links';
import type { Payment } from '../domain/payments';
import { EMAIL_ADDRESS_PATTERN, PHONE_NUMBER_PATTERN } from '../domain/inputs';
import { LIMITS } from '../limits';
import { formatForCustomer } from '../money';
import { escapeHtml, htmlDocument, type ErrorPage } from '../http/page';
import type { FieldProblem, RefusedForm } from './form';

export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'expired'] as const;

const formatAmount = (link: PaymentLink) => formatForCustomer(link.amountMinor, link.currency);

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** The way back to the merchant, when the link gives one (its redirect_url). */
const backLink = (link: PaymentLink, merchant: string) =>
  link.redirectUrl ? `<p><a href="${escapeHtml(link.redirectUrl)}" data-testid="back">Back to ${escapeHtml(merchant)}</a></p>` : '';

/**
 * The checkout: whom the customer pays, the amount as the customer reads it, the description
 * and the expiry; in test mode one button per outcome, the ones other than Pay without the
 * collected fields (`formnovalidate`), so they work in one click; in live mode one Pay, which
 * keeps the collected fields and goes on to the acquirer's payment page (the card is typed
 * there, never here). A `refused` form comes back with what the customer typed and each
 * problem beside its field. Without a payment (a preview: a HEAD, a client that does not take
 * HTML) it has no form.
 */
export function checkoutPage(page: { link: PaymentLink; merchant: string; paymentId?: string; action: string; refused?: RefusedForm }): string {
  const { link, paymentId, action, refused } = page;
  const fields = collectedFields(link).map((name) => customerField(CUSTOMER_FIELDS[name], refused?.values[name] ?? '', refused?.problems[name]));
  const choices =
    link.mode === 'test'
      ? `<p class="note">Test mode: choose the outcome of this payment.</p>
  <div class="actions">
    ${TEST_OUTCOMES.map((outcome) => `<button type="submit" name="outcome" value="${outcome}"${outcome === 'paid' ? '' : ' formnovalidate'}>${outcomeLabel[outcome]}</button>`).join('\n    ')}
  </div>`
      : `<p class="note">You pay on the secure page of our payment provider.</p>
  <div class="actions">
    <button type="submit" name="outcome" value="paid">Pay</button>
  </div>`;
  const form =
    paymentId === undefined
      ? ''
      : `<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="payment_id" value="${escapeHtml(paymentId)}">
  ${fields.join('\n  ')}
  ${choices}
</form>`;
  return htmlDocument(
    `Pay ${formatAmount(link)}`,
    `${link.mode === 'test' ? '<span class="mode">Test mode</span>' : ''}
<p class="merchant">Pay <strong data-testid="merchant">${escapeHtml(page.merchant)}</strong></p>
<h1>${escapeHtml(link.description || 'Payment')}</h1>
<p class="amount" data-testid="amount">${escapeHtml(formatAmount(link))}</p>
${link.expiresAt ? `<p class="note" data-testid="expires">This link expires on ${escapeHtml(EXPIRY_FORMAT.format(new Date(link.expiresAt)))} UTC.</p>` : ''}
${form}
${backLink(link, page.merchant)}`,
    FIELD_STYLE,
  );
}

const outcomeLabel: Record<(typeof TEST_OUTCOMES)[number], string> = {
  paid: 'Pay',
  failed: 'Fail payment',
  canceled: 'Cancel payment',
  expired: 'Expire payment',
};

/**
 * The collected fields, each with the server's own rule in its markup (shared/domain/inputs.ts,
 * shared/limits.ts): the browser refuses what the server would, before the form is sent.
 */
interface CustomerFieldSpec {
  name: CustomerField;
  label: string;
  autocomplete: string;
  maxLength: number;
  /** An input of this type and pattern, and what the customer is told when a value does not match; a textarea without one. */
  input?: { type: 'email' | 'tel'; pattern: string; malformed: string };
}

const CUSTOMER_FIELDS: Record<CustomerField, CustomerFieldSpec> = {
  email: {
    name: 'email',
    label: 'Email address',
    autocomplete: 'email',
    maxLength: LIMITS.customer.emailLength,
    input: { type: 'email', pattern: EMAIL_ADDRESS_PATTERN, malformed: 'Enter an email address such as ann@example.com.' },
  },
  phone: {
    name: 'phone',
    label: 'Phone number',
    autocomplete: 'tel',
    maxLength: LIMITS.customer.phoneLength,
    input: { type: 'tel', pattern: PHONE_NUMBER_PATTERN, malformed: 'Enter a phone number with digits, spaces and + ( ) - . / only.' },
  },
  address: { name: 'address', label: 'Billing address', autocomplete: 'street-address', maxLength: LIMITS.customer.addressLength },
};

function problemText(spec: CustomerFieldSpec, problem: FieldProblem): string {
  if (problem === 'too_long') return `Use at most ${spec.maxLength} characters.`;
  if (problem === 'malformed' && spec.input) return spec.input.malformed;
  return `Enter your ${spec.label.toLowerCase()} to pay.`;
}

/** A label, its control with the typed value, and the problem right after the control, which names it (aria-describedby). */
function customerField(spec: CustomerFieldSpec, value: string, problem?: FieldProblem): string {
  const { name, input } = spec;
  const refusal = problem ? ` aria-invalid="true" aria-describedby="${name}-error"` : '';
  const attributes = `id="${name}" name="${name}" autocomplete="${spec.autocomplete}" maxlength="${spec.maxLength}" required${refusal}`;
  const control = input
    ? `<input ${attributes} type="${input.type}" pattern="${escapeHtml(input.pattern)}" value="${escapeHtml(value)}">`
    : `<textarea ${attributes} rows="3">${escapeHtml(value)}</textarea>`;
  const message = problem ? `<p id="${name}-error" class="field-error">${escapeHtml(problemText(spec, problem))}</p>` : '';
  return `<label for="${name}">${spec.label}</label>${control}${message}`;
}

const FIELD_STYLE = `  .field-error { color: #b42318; font-size: .9rem; margin: .25rem 0 0; }
  [aria-invalid="true"] { border-color: #b42318; }
`;

const DENIAL_TEXT: Record<DenialReason, string> = {
  expired: 'This payment link has expired.',
  inactive: 'This payment link is no longer active.',
  limit_reached: 'This payment link has reached its maximum number of payments.',
};

/**
 * The checkout's errors where the API's words would not do for a customer: a link, a payment or a
 * checkout that is not there (404) is a link that does not work; other statuses keep the house page.
 */
export const checkoutErrorPage: ErrorPage = (status) =>
  status === 404
    ? htmlDocument(
        'Payment link not found',
        `<h1>This payment link does not work</h1>
<p>There is no payment at this address. Check that the link is complete (copy it again from the message you received), or ask whoever sent it to you for a new one.</p>`,
      )
    : undefined;

/** The 409 page of a link that cannot be paid. */
export function deniedPage(reason: DenialReason): string {
  return htmlDocument(
    'Payment not available',
    `<h1>Payment not available</h1>
<p data-reason="${reason}">${DENIAL_TEXT[reason]}</p>`,
  );
}

export function thankYouPage(paymentId: string, link: PaymentLink, merchant: string): string {
  return htmlDocument(
    'Thank you',
    `<h1>Thank you for your payment</h1>
<p class="amount">${escapeHtml(formatAmount(link))}</p>
<p class="merchant">Paid to <strong data-testid="merchant">${escapeHtml(merchant)}</strong></p>
<p>Payment reference: <strong data-testid="payment-id">${escapeHtml(paymentId)}</strong></p>
${backLink(link, merchant)}`,
  );
}

/**
 * A live payment whose outcome the acquirer has not told yet, after the request waited for it:
 * no timed reload (WCAG 2.2.1), but a Check again button (this page's request, `checkAgain`,
 * which waits again); what the page says is a polite live region.
 */
export function processingPage(paymentId: string, link: PaymentLink, merchant: string, checkAgain: string): string {
  return htmlDocument(
    'Processing your payment',
    `<h1>Processing your payment</h1>
<p class="amount">${escapeHtml(formatAmount(link))}</p>
<p class="merchant">To <strong data-testid="merchant">${escapeHtml(merchant)}</strong></p>
<div role="status" aria-live="polite">
<p data-testid="processing">We do not have the payment provider's answer yet. It usually comes within a minute: check again in a moment.</p>
</div>
<form method="get" action="${escapeHtml(checkAgain)}">
  <input type="hidden" name="payment_id" value="${escapeHtml(paymentId)}">
  <button type="submit">Check again</button>
</form>
<p>Payment reference: <strong data-testid="payment-id">${escapeHtml(paymentId)}</strong></p>`,
  );
}

/** What a customer is told of a declined live payment: never the acquirer's own words, which may name a fraud suspicion. */
const DECLINE_TEXT: Record<Decline, string> = {
  insufficient_funds: 'Your card does not have enough funds for this payment.',
  expired_card: 'Your card has expired.',
  card_details: 'The card details were not accepted. Check them, or use another card.',
  authentication: 'The payment was not confirmed with your bank.',
  try_again_later: 'Your bank could not be reached. Try again in a few minutes.',
  declined: 'Your bank declined the payment.',
};

/** A live payment the acquirer refused: why, that nothing was charged, another try (a new payment) and the way back to the shop. */
export function declinedPage(payment: Payment, link: PaymentLink, merchant: string, retryHref: string): string {
  return htmlDocument(
    'Payment declined',
    `<h1>Payment declined</h1>
<p class="amount">${escapeHtml(formatAmount(link))}</p>
<p class="merchant">To <strong data-testid="merchant">${escapeHtml(merchant)}</strong></p>
<p data-testid="decline-reason">${DECLINE_TEXT[payment.acquirer?.decline ?? 'declined']} You have not been charged.</p>
<p><a href="${escapeHtml(retryHref)}" data-testid="retry">Try again</a></p>
${backLink(link, merchant)}`,
  );
}

export function outcomePage(status: string, retryHref: string): string {
  return htmlDocument(
    'Payment not completed',
    `<h1>Payment ${escapeHtml(status)}</h1>
<p>The payment was not completed.</p>
<p><a href="${escapeHtml(retryHref)}">Try again</a></p>`,
  );
}
