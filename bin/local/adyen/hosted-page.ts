import { escapeHtml, htmlPage } from '../../../shared/http/page';
import type { Card, Session } from './ledger';

/**
 * The hosted payment page of a Hosted Checkout session (its `url`): a card form whose Pay sends
 * the customer back to the session's `returnUrl`, as Adyen's page does, with `sessionId` and an
 * opaque `sessionResult`. The card never leaves this page's server.
 */

/** Adyen's look, with every text at WCAG AA's 4.5:1 at least (its green, #0abf53, under white is 2.4:1). */
const STYLE = `<style>
  body { font-family: system-ui, sans-serif; background: #f3f5f9; color: #00112c; margin: 0; }
  main { max-width: 26rem; margin: 3rem auto; background: #fff; border-radius: 10px; padding: 1.75rem; box-shadow: 0 2px 8px rgba(0,17,44,.1); }
  .merchant { color: #5c687c; font-size: .9rem; }
  .amount { font-size: 1.8rem; font-weight: 600; margin: .25rem 0 1.25rem; }
  label { display: block; margin: .7rem 0 .25rem; font-size: .9rem; }
  input { width: 100%; box-sizing: border-box; padding: .55rem; font: inherit; border: 1px solid #b9c4c9; border-radius: 6px; }
  .row { display: grid; grid-template-columns: 1fr 1fr 1fr; gap: .5rem; }
  button { width: 100%; margin-top: 1.25rem; padding: .75rem; font: inherit; font-weight: 600; color: #fff; background: #087f3b; border: 0; border-radius: 6px; cursor: pointer; }
  .error { color: #c12424; margin: .5rem 0 0; }
  .note { color: #5c687c; font-size: .8rem; margin-top: 1rem; }
</style>`;

/** The amount as the customer reads it; a code Intl does not know is shown as it is. */
function money(session: Session): string {
  const { currency, value } = session.amount;
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.format(value / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${value} ${currency} (minor units)`;
  }
}

const page = (title: string, body: string) => htmlPage(title, STYLE, `<main>\n${body}\n</main>`);

export function paymentForm(session: Session, action: string, error?: string, card?: Partial<Card>): string {
  const field = (name: keyof Card, label: string, attributes: string) =>
    `<div><label for="${name}">${label}</label><input id="${name}" name="${name}" ${attributes} value="${escapeHtml(name === 'number' || name === 'cvc' ? '' : card?.[name])}"></div>`;
  return page(
    `Pay ${money(session)}`,
    `<p class="merchant">${escapeHtml(session.merchantAccount)}</p>
<p class="amount">${escapeHtml(money(session))}</p>
<form method="post" action="${escapeHtml(action)}" autocomplete="off">
${field('holderName', 'Name on card', 'autocomplete="cc-name" required')}
${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" required')}
<div class="row">
${field('expiryMonth', 'Expiry month', 'inputmode="numeric" placeholder="MM" required')}
${field('expiryYear', 'Expiry year', 'inputmode="numeric" placeholder="YYYY" required')}
${field('cvc', 'Security code', 'inputmode="numeric" autocomplete="cc-csc" required')}
</div>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<button type="submit">Pay</button>
</form>
<p class="note">Local Adyen (test): the holder name DECLINED is refused; any other name is authorised.</p>`,
  );
}

export function closedPage(title: string, detail: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`);
}

/** Where Pay sends the customer: the session's `returnUrl` with Adyen's two parameters. */
export function returnTo(session: Session, sessionResult: string): string {
  const url = new URL(session.returnUrl);
  url.searchParams.set('sessionId', session.id);
  url.searchParams.set('sessionResult', sessionResult);
  return url.toString();
}
