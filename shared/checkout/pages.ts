import type { PaymentLink, DenialReason } from '../domain/payment-links';
import { formatForCustomer } from '../money';
import { escapeHtml, htmlDocument } from '../http/page';

export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'expired'] as const;

const formatAmount = (link: PaymentLink) => formatForCustomer(link.amountMinor, link.currency);

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** The way back to the merchant, when the link gives one (its redirect_url). */
const backLink = (link: PaymentLink, merchant: string) =>
  link.redirectUrl ? `<p><a href="${escapeHtml(link.redirectUrl)}" data-testid="back">Back to ${escapeHtml(merchant)}</a></p>` : '';

/**
 * The checkout: whom the customer pays, the amount as the customer reads it, the description
 * and the expiry; in test mode one button per outcome, the ones other than Pay without the
 * collected fields (`formnovalidate`), so they work in one click. Without a payment (a preview:
 * a HEAD, a client that does not take HTML) it has no form.
 */
export function checkoutPage(page: { link: PaymentLink; merchant: string; paymentId?: string; action: string; error?: string }): string {
  const { link, paymentId, action, error } = page;
  const fields = [
    link.collectEmail && field('email', 'Email address', 'email', 'email'),
    link.collectPhone && field('phone', 'Phone number', 'tel', 'tel'),
    link.collectAddress && textarea('address', 'Billing address', 'street-address'),
  ].filter(Boolean);
  const form =
    paymentId === undefined
      ? ''
      : link.mode === 'test'
      ? `<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="payment_id" value="${escapeHtml(paymentId)}">
  ${fields.join('\n  ')}
  <p class="note">Test mode: choose the outcome of this payment.</p>
  <div class="actions">
    ${TEST_OUTCOMES.map((outcome) => `<button type="submit" name="outcome" value="${outcome}"${outcome === 'paid' ? '' : ' formnovalidate'}>${outcomeLabel[outcome]}</button>`).join('\n    ')}
  </div>
</form>`
      : `<p class="note">In live mode this page hands the payment over to the acquirer's payment page, which is not part of this service.</p>`;
  return htmlDocument(
    `Pay ${formatAmount(link)}`,
    `${link.mode === 'test' ? '<span class="mode">Test mode</span>' : ''}
<p class="merchant">Pay <strong data-testid="merchant">${escapeHtml(page.merchant)}</strong></p>
<h1>${escapeHtml(link.description || 'Payment')}</h1>
<p class="amount" data-testid="amount">${escapeHtml(formatAmount(link))}</p>
${link.expiresAt ? `<p class="note" data-testid="expires">This link expires on ${escapeHtml(EXPIRY_FORMAT.format(new Date(link.expiresAt)))} UTC.</p>` : ''}
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
${form}
${backLink(link, page.merchant)}`,
  );
}

const outcomeLabel: Record<(typeof TEST_OUTCOMES)[number], string> = {
  paid: 'Pay',
  failed: 'Fail payment',
  canceled: 'Cancel payment',
  expired: 'Expire payment',
};

function field(name: string, label: string, type: string, autocomplete: string): string {
  return `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required>`;
}

function textarea(name: string, label: string, autocomplete: string): string {
  return `<label for="${name}">${label}</label><textarea id="${name}" name="${name}" rows="3" autocomplete="${autocomplete}" required></textarea>`;
}

const DENIAL_TEXT: Record<DenialReason, string> = {
  expired: 'This payment link has expired.',
  inactive: 'This payment link is no longer active.',
  limit_reached: 'This payment link has reached its maximum number of payments.',
};

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

export function outcomePage(status: string, retryHref: string): string {
  return htmlDocument(
    'Payment not completed',
    `<h1>Payment ${escapeHtml(status)}</h1>
<p>The payment was not completed.</p>
<p><a href="${escapeHtml(retryHref)}">Try again</a></p>`,
  );
}
