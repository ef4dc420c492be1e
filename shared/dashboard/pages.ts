import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { Chargeback } from '../domain/chargebacks';
import { CHARGEBACK_WINDOW, DELIVERY_EVENT_WINDOW, SECTION_LIMIT, type DeliveryAttempt, type Section } from '../domain/dashboard';
import { remainingPayments, type PaymentLink } from '../domain/payment-links';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { escapeHtml, htmlDocument } from '../http/page';
import { formatMinor } from '../money';
import type { Overview } from '../use-cases/dashboard';

/** The dashboard's additions to the house style: tables, text badges, alerts; pages with tables are wider. */
const WIDE = '  main { max-width: 72rem; }\n';
const STYLE = `
  header.bar { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; justify-content: space-between; }
  header.bar form button, .signin button { padding: .5rem 1rem; }
  .signin button { margin-top: 1rem; width: 100%; background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
  nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }
  h2 { font-size: 1.1rem; margin: 2rem 0 .25rem; }
  .scroll { overflow-x: auto; }
  table { width: 100%; border-collapse: collapse; font-size: .9rem; }
  caption { text-align: left; color: #555e6e; padding: .25rem 0 .5rem; }
  th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
  thead th { background: #f5f6f8; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  time { white-space: nowrap; }
  code { font-size: .85em; }
  .badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .1rem .45rem; border-radius: 999px; background: #e5e7eb; white-space: nowrap; }
  .badge.good { background: #dcfce7; color: #14532d; }
  .badge.warn { background: #fef3c7; color: #78350f; }
  .badge.bad { background: #fee2e2; color: #7f1d1d; }
  tr.failed { background: #fef2f2; }
  .mode.live { background: #bbf7d0; }
  [role="alert"] { background: #fee2e2; color: #7f1d1d; padding: .6rem .8rem; border-radius: 6px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
`;

const page = (title: string, body: string, wide = true) => htmlDocument(title, body, wide ? STYLE + WIDE : STYLE);

// ---------------------------------------------------------------------------------------------
// Small pieces

/** `2026-11-20T10:00:00.000Z` -> a `<time>` showing `2026-11-20 10:00 UTC`. */
function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

/** How far a deadline is: `in 2 days 23 hours`, `in 5 hours 10 minutes`, `in 12 minutes`, or `overdue` (rounded down). */
export function untilText(iso: string, now: Date): string {
  const minutes = Math.floor((Date.parse(iso) - now.getTime()) / 60_000);
  if (minutes < 0) return 'overdue';
  if (minutes === 0) return 'in under a minute';
  const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const parts: [number, string][] = days ? [[days, 'day'], [hours, 'hour']] : hours ? [[hours, 'hour'], [rest, 'minute']] : [[rest, 'minute']];
  return `in ${parts
    .filter(([amount], index) => index === 0 || amount > 0)
    .map(([amount, unit]) => `${amount} ${unit}${amount === 1 ? '' : 's'}`)
    .join(' ')}`;
}

const money = (minor: number, currency: string) => `${formatMinor(minor)} ${escapeHtml(currency.toUpperCase())}`;

const BADGE_TONE: Record<string, 'good' | 'warn' | 'bad' | ''> = {
  active: 'good',
  paid: 'good',
  refunded: 'good',
  won: 'good',
  open: 'warn',
  pending: 'warn',
  processing: 'warn',
  disputed: 'warn',
  inactive: '',
  expired: '',
  canceled: '',
  accepted: 'bad',
  lost: 'bad',
  failed: 'bad',
};

const badge = (text: string, tone: 'good' | 'warn' | 'bad' | '' = BADGE_TONE[text] ?? '') =>
  `<span class="badge${tone ? ` ${tone}` : ''}">${escapeHtml(text)}</span>`;

const code = (value: string) => `<code>${escapeHtml(value)}</code>`;

/** A section: heading, then its table, its empty state, or the scope the key lacks. */
function section<T>(
  { id, title }: { id: string; title: string },
  data: Section<T>,
  table: { caption: string; columns: string[]; row: (item: T) => string; empty: string },
): string {
  let content: string;
  if (!data.allowed) {
    content = `<p class="note">Not shown: this API key lacks the scope ${code(data.scope)}.</p>`;
  } else if (data.items.length === 0) {
    content = `<p class="note">${escapeHtml(table.empty)}</p>`;
  } else {
    content = `<div class="scroll"><table>
<caption>${escapeHtml(table.caption)}</caption>
<thead><tr>${table.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')}</tr></thead>
<tbody>
${data.items.map(table.row).join('\n')}
</tbody>
</table></div>`;
  }
  return `<section aria-labelledby="${id}">
<h2 id="${id}">${escapeHtml(title)}</h2>
${content}
</section>`;
}

const more = (data: Section<unknown>, text: string) => (data.allowed && data.more ? ` ${text}` : '');

const modeBadge = (principal: Principal) =>
  principal.mode === 'test' ? '<span class="mode">Test mode</span>' : '<span class="mode live">Live mode</span>';

// ---------------------------------------------------------------------------------------------
// Pages

/** The sign-in form: one password field for the API key. */
export function signInPage(urls: PublicUrls, options: { error?: string; returnTo?: string } = {}): string {
  return page(
    'Sign in to the dashboard',
    `<h1>Sign in to the dashboard</h1>
<p class="note">Sign in with an API key of your organization. The dashboard shows the data of the key's mode (test or live) and the sections its read scopes allow.</p>
${options.error ? `<p role="alert" id="signin-error">${escapeHtml(options.error)}</p>` : ''}
<form class="signin" method="post" action="${escapeHtml(`${urls.dashboard}/session`)}">
  <label for="token">API key</label>
  <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required${options.error ? ' aria-describedby="signin-error" aria-invalid="true"' : ''}>
  ${options.returnTo ? `<input type="hidden" name="return_to" value="${escapeHtml(options.returnTo)}">` : ''}
  <button type="submit">Sign in</button>
</form>`,
    false,
  );
}

function header(principal: Principal, urls: PublicUrls, title: string): string {
  return `<header class="bar">
<div>${modeBadge(principal)}
<h1>${escapeHtml(title)}</h1>
<p class="note">Organization ${code(principal.orgId)} · signed in with key ${code(principal.keyId)}</p></div>
<form method="post" action="${escapeHtml(`${urls.dashboard}/sign-out`)}"><button type="submit">Sign out</button></form>
</header>`;
}

const SECTIONS = {
  links: { id: 'payment-links', title: 'Payment links' },
  payments: { id: 'payments', title: 'Recent payments' },
  refunds: { id: 'refunds', title: 'Refunds' },
  chargebacks: { id: 'chargebacks', title: 'Open chargebacks' },
  deliveries: { id: 'deliveries', title: 'Webhook deliveries' },
};

/** Everything at a glance: each section capped, and each says what it shows. */
export function overviewPage(overview: Overview, urls: PublicUrls, now: Date): string {
  return page(
    'Dashboard',
    `${header(overview.principal, urls, 'Dashboard')}
<nav aria-label="Sections"><ul>${Object.values(SECTIONS).map(({ id, title }) => `<li><a href="#${id}">${title}</a></li>`).join('')}</ul></nav>
${section(SECTIONS.links, overview.paymentLinks, {
  caption: `The ${SECTION_LIMIT} newest payment links, newest first.${more(overview.paymentLinks, 'Older links are not shown.')}`,
  columns: ['Link', 'Description', 'Amount', 'Status', 'Paid', 'Limit', 'Remaining', 'Created'],
  empty: 'No payment links yet.',
  row: (link: PaymentLink) => {
    const remaining = remainingPayments(link);
    return `<tr data-id="${escapeHtml(link.id)}">
<th scope="row"><a href="${escapeHtml(`${urls.checkout}/${link.id}`)}">${code(link.id)}</a></th>
<td>${escapeHtml(link.description ?? '')}</td>
<td class="num">${money(link.amountMinor, link.currency)}</td>
<td>${badge(link.status)}</td>
<td class="num" data-field="paid_count">${link.paidCount}</td>
<td class="num" data-field="payments_limit">${link.paymentsLimit ?? 'unlimited'}</td>
<td class="num" data-field="remaining_payments">${remaining ?? 'unlimited'}</td>
<td>${time(link.createdAt)}</td>
</tr>`;
  },
})}
${section(SECTIONS.payments, overview.payments, {
  caption: `The ${SECTION_LIMIT} newest payments, newest first.${more(overview.payments, 'Older payments are not shown.')}`,
  columns: ['Payment', 'Payment link', 'Amount', 'Status', 'Created', 'Paid'],
  empty: 'No payments yet.',
  row: (payment: Payment) => `<tr data-id="${escapeHtml(payment.id)}">
<th scope="row">${code(payment.id)}</th>
<td>${code(payment.paymentLinkId)}</td>
<td class="num">${money(payment.amountMinor, payment.currency)}</td>
<td>${badge(payment.status)}</td>
<td>${time(payment.createdAt)}</td>
<td>${time(payment.paidAt)}</td>
</tr>`,
})}
${section(SECTIONS.refunds, overview.refunds, {
  caption: `The ${SECTION_LIMIT} newest refunds, newest first; refunds waiting for the balance are marked On hold.${more(overview.refunds, 'Older refunds are not shown.')}`,
  columns: ['Refund', 'Payment', 'Amount', 'Status', 'Created', 'Description'],
  empty: 'No refunds yet.',
  row: (refund: Refund) => `<tr data-id="${escapeHtml(refund.id)}">
<th scope="row"><a href="${escapeHtml(`${urls.dashboard}/refunds/${refund.id}`)}">${code(refund.id)}</a></th>
<td>${code(refund.paymentId)}</td>
<td class="num">${money(refund.amountMinor, refund.currency)}</td>
<td>${refundStatus(refund)}</td>
<td>${time(refund.createdAt)}</td>
<td>${escapeHtml(refund.description)}</td>
</tr>`,
})}
${section(SECTIONS.chargebacks, overview.chargebacks, {
  caption: `Open chargebacks, soonest deadline first (up to ${SECTION_LIMIT}); respond before the deadline or they are accepted automatically.${more(overview.chargebacks, `Only the ${CHARGEBACK_WINDOW} most recent chargebacks were checked.`)}`,
  columns: ['Chargeback', 'Payment', 'Amount', 'Reason', 'Deadline', 'Received'],
  empty: 'No open chargebacks.',
  row: (chargeback: Chargeback) => `<tr data-id="${escapeHtml(chargeback.id)}">
<th scope="row">${code(chargeback.id)}</th>
<td>${code(chargeback.paymentId)}</td>
<td class="num">${money(chargeback.amountMinor, chargeback.currency)}</td>
<td>${escapeHtml(chargeback.reason.code)} · ${escapeHtml(chargeback.reason.description)}</td>
<td data-field="deadline_at">${time(chargeback.deadlineAt)} <span class="badge warn">${escapeHtml(untilText(chargeback.deadlineAt, now))}</span></td>
<td>${time(chargeback.createdAt)}</td>
</tr>`,
})}
${section(SECTIONS.deliveries, overview.deliveries, {
  caption: `The ${SECTION_LIMIT} most recent delivery attempts of the ${DELIVERY_EVENT_WINDOW} most recent events, newest first; failed attempts are marked Failed.`,
  columns: ['Attempted', 'Event', 'Endpoint', 'Result', 'Duration'],
  empty: 'No webhook deliveries yet.',
  row: (attempt: DeliveryAttempt) => `<tr${attempt.succeeded ? '' : ' class="failed"'}>
<td>${time(attempt.attemptedAt)}</td>
<td>${escapeHtml(attempt.eventType)}<br>${code(attempt.eventId)}</td>
<td>${escapeHtml(attempt.url)}</td>
<td>${attempt.succeeded ? badge('Delivered', 'good') : badge('Failed', 'bad')} ${attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : 'no response'}${attempt.error ? `<br>${escapeHtml(attempt.error)}` : ''}</td>
<td class="num">${attempt.durationMs !== undefined ? `${attempt.durationMs} ms` : '—'}</td>
</tr>`,
})}`,
  );
}

function refundStatus(refund: Refund): string {
  return `${badge(refund.status)}${refund.onHold ? ` ${badge('On hold', 'bad')}` : ''}`;
}

/** One refund: the page its `links.dashboard` points at. */
export function refundPage(refund: Refund, principal: Principal, urls: PublicUrls): string {
  const metadata = Object.entries(refund.metadata);
  return page(
    `Refund ${refund.id}`,
    `${header(principal, urls, `Refund ${refund.id}`)}
<p><a href="${escapeHtml(urls.dashboard)}">Back to the dashboard</a></p>
${refund.onHold ? '<p class="note">On hold: the balance does not cover this refund yet. It is processed automatically, oldest first, as soon as it does.</p>' : ''}
<dl>
<dt>Status</dt><dd>${refundStatus(refund)}</dd>
<dt>Amount</dt><dd>${money(refund.amountMinor, refund.currency)}</dd>
<dt>Payment</dt><dd>${code(refund.paymentId)}</dd>
<dt>Description</dt><dd>${escapeHtml(refund.description) || '—'}</dd>
<dt>Webhook URL</dt><dd>${escapeHtml(refund.webhookUrl ?? '—')}</dd>
<dt>Created</dt><dd>${time(refund.createdAt)}</dd>
<dt>Updated</dt><dd>${time(refund.updatedAt)}</dd>
<dt>Metadata</dt><dd>${metadata.length ? metadata.map(([key, value]) => `${code(key)}: ${escapeHtml(value)}`).join('<br>') : '—'}</dd>
</dl>`,
  );
}
