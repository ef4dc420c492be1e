import type { PaymentLink, DenialReason } from '../domain/payment-links';
import { formatMinor } from '../money';
import { escapeHtml, htmlDocument } from '../http/page';

export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'expired'] as const;

const formatAmount = (link: PaymentLink) => `${formatMinor(link.amountMinor)} ${link.currency}`;

/** The checkout: amount, currency, description; in test mode one button per outcome. */
export function checkoutPage(link: PaymentLink, paymentId: string, action: string, error?: string): string {
  const fields = [
    link.collectEmail && field('email', 'Email address', 'email', 'email'),
    link.collectPhone && field('phone', 'Phone number', 'tel', 'tel'),
    link.collectAddress && textarea('address', 'Billing address', 'street-address'),
  ].filter(Boolean);
  const form =
    link.mode === 'test'
      ? `<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="payment_id" value="${escapeHtml(paymentId)}">
  ${fields.join('\n  ')}
  <p class="note">Test mode: choose the outcome of this payment.</p>
  <div class="actions">
    ${TEST_OUTCOMES.map((outcome) => `<button type="submit" name="outcome" value="${outcome}">${outcomeLabel[outcome]}</button>`).join('\n    ')}
  </div>
</form>`
      : `<p class="note">In live mode this page hands the payment over to the acquirer's payment page, which is not part of this service.</p>`;
  return htmlDocument(
    `Pay ${formatAmount(link)}`,
    `${link.mode === 'test' ? '<span class="mode">Test mode</span>' : ''}
<h1>${escapeHtml(link.description || 'Payment')}</h1>
<p class="amount" data-testid="amount">${escapeHtml(formatAmount(link))}</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
${form}`,
  );
}

const outcomeLabel: Record<(typeof TEST_OUTCOMES)[number], string> = {
  paid: 'Pay',
  failed: 'Fail payment',
  canceled: 'Cancel payment',
  expired: 'Let payment expire',
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

export function thankYouPage(paymentId: string, link: PaymentLink): string {
  return htmlDocument(
    'Thank you',
    `<h1>Thank you for your payment</h1>
<p class="amount">${escapeHtml(formatAmount(link))}</p>
<p>Payment reference: <strong data-testid="payment-id">${escapeHtml(paymentId)}</strong></p>`,
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
