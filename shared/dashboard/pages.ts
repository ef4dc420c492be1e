import type { ApiOperation } from '../api/operation';
import { filterForm } from './filters';
import type { PublicUrls } from '../config';
import type { Acceptor } from '../db/directory';
import { CHARGEBACK_WINDOW, DELIVERY_EVENT_WINDOW, LINK_EVENT_WINDOW, SECTION_LIMIT, type PaidVolume, type Section } from '../domain/dashboard';
import { remainingPayments } from '../domain/payment-links';
import { captureOf, type Payment } from '../domain/payments';
import type { BalanceTransaction } from '../domain/balance';
import { refundableRestMinor, type Refund } from '../domain/refunds';
import { escapeHtml } from '../http/page';
import { currencyCodes, formatForCustomer } from '../money';
import { PAYMENT_CHARGEBACKS, type BalanceView, type LinkView, type ListView, type Overview, type PaymentView } from '../use-cases/dashboard';
import { paidVolumeChart } from './chart';
import { formOf, utcDatetimeValues, type FormState } from './forms';
import {
  badge,
  code,
  dashboardDocument,
  idLink,
  missingScope,
  money,
  pager,
  pageUrl,
  postForm,
  section,
  signedInPage,
  table,
  textOrDash,
  time,
  titledSection,
  tokenField,
  type Frame,
  type NavPath,
  type TableSpec,
} from './html';
import {
  attemptTable,
  balanceTable,
  balanceTransactionTable,
  chargebackTable,
  eventTable,
  linkPagePath,
  linkPaymentTable,
  linkTable,
  paymentChargebackTable,
  paymentPagePath,
  paymentTable,
  refundPagePath,
  refundStatus,
  refundTable,
} from './tables';

// ---------------------------------------------------------------------------------------------
// Signed out

/**
 * The sign-in form (product-decisions §16): email and password (the email kept after a refusal,
 * the password never), the form token of its own cookie, and the ways in without a password.
 */
export function signInPage(urls: PublicUrls, options: { error?: string; returnTo?: string; formToken: string; email?: string }): string {
  const invalid = options.error ? ' aria-describedby="signin-error" aria-invalid="true"' : '';
  return dashboardDocument(
    'Sign in to the dashboard',
    `<h1>Sign in to the dashboard</h1>
${options.error ? `<p role="alert" id="signin-error">${escapeHtml(options.error)}</p>` : ''}
<form class="signin" method="post" action="${escapeHtml(`${urls.dashboard}/session`)}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" value="${escapeHtml(options.email ?? '')}" autocomplete="username" spellcheck="false" required${invalid}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
  ${options.returnTo ? `<input type="hidden" name="return_to" value="${escapeHtml(options.returnTo)}">` : ''}
  ${tokenField(options.formToken)}
  <button class="primary" type="submit">Sign in</button>
</form>
<p class="signin-links"><a href="${escapeHtml(`${urls.dashboard}/forgot-password`)}">Forgot password?</a><a href="${escapeHtml(`${urls.dashboard}/sign-in/passkey`)}">Sign in with a passkey</a></p>`,
    false,
  );
}

// ---------------------------------------------------------------------------------------------
// Overview

/** What the balance table says, on the overview and the balance page: its caption, and when there is no balance. */
const BALANCE_CAPTION = 'Per currency: what is available (the sum of its movements) and the refunds waiting on hold for cover.';
const NO_BALANCE = 'No balance yet: nothing has been paid, refunded, charged back or adjusted.';

const SECTIONS = {
  links: { id: 'payment-links', title: 'Payment links', path: '/payment-links' },
  payments: { id: 'payments', title: 'Recent payments', path: '/payments' },
  refunds: { id: 'refunds', title: 'Refunds', path: '/refunds' },
  chargebacks: { id: 'chargebacks', title: 'Open chargebacks', path: '/chargebacks' },
  deliveries: { id: 'deliveries', title: 'Webhook deliveries', path: '/events' },
  balance: { id: 'balance', title: 'Balance', path: '/balance-transactions' },
};

const heading = (urls: PublicUrls, entry: { id: string; title: string; path: string }, more: string) => ({
  id: entry.id,
  title: entry.title,
  more: `<a href="${escapeHtml(`${urls.dashboard}${entry.path}`)}">${escapeHtml(more)}</a>`,
});

const more = (data: Section<unknown>, text: string) => (data.allowed && data.more ? ` ${text}` : '');

/** Everything at a glance: the paid-volume chart, then each section capped, each saying what it shows. */
export function overviewPage(frame: Frame, overview: Overview, volume: Section<PaidVolume>, now: Date): string {
  const { urls } = frame;
  const chart = volume.allowed ? paidVolumeChart(volume.items[0]) : missingScope(volume.scope);
  return signedInPage(
    frame,
    'Dashboard',
    `<section aria-labelledby="paid-volume">
<h2 id="paid-volume">Paid volume, last 30 days</h2>
${chart}
</section>
${section(heading(urls, SECTIONS.balance, 'All movements'), overview.balance, {
  spec: balanceTable(),
  caption: BALANCE_CAPTION,
  empty: NO_BALANCE,
})}
${section(heading(urls, SECTIONS.links, 'All payment links'), overview.paymentLinks, {
  spec: linkTable(urls),
  caption: `The ${SECTION_LIMIT} newest payment links, newest first.${more(overview.paymentLinks, 'Older links are not shown.')}`,
  empty: 'No payment links yet.',
})}
${section(heading(urls, SECTIONS.payments, 'All payments'), overview.payments, {
  spec: paymentTable(urls),
  caption: `The ${SECTION_LIMIT} newest payments, newest first.${more(overview.payments, 'Older payments are not shown.')}`,
  empty: 'No payments yet.',
})}
${section(heading(urls, SECTIONS.refunds, 'All refunds'), overview.refunds, {
  spec: refundTable(urls),
  caption: `The ${SECTION_LIMIT} newest refunds, newest first; refunds waiting for the balance are marked On hold.${more(overview.refunds, 'Older refunds are not shown.')}`,
  empty: 'No refunds yet.',
})}
${section(heading(urls, SECTIONS.chargebacks, 'All chargebacks'), overview.chargebacks, {
  spec: chargebackTable(urls, now),
  caption: `Open chargebacks, soonest deadline first (up to ${SECTION_LIMIT}); respond before the deadline or they are accepted automatically.${more(overview.chargebacks, `Only the ${CHARGEBACK_WINDOW} most recent chargebacks were checked.`)}`,
  empty: 'No open chargebacks.',
})}
${section(heading(urls, SECTIONS.deliveries, 'All events'), overview.deliveries, {
  spec: attemptTable(urls),
  caption: `The ${SECTION_LIMIT} most recent delivery attempts of the ${DELIVERY_EVENT_WINDOW} most recent events, newest first; failed attempts are marked Failed.`,
  empty: 'No webhook deliveries yet.',
})}`,
    '',
  );
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface ListPage<T extends { id: string }> {
  title: string;
  nav: NavPath;
  spec: TableSpec<T>;
  view: ListView<T>;
  /** What the list holds, in its order. */
  caption: string;
  empty: string;
  /** Links or buttons above the list. */
  actions?: string;
  /** The list's filters (its `/v1` list's) and the values given: a form above it, kept by its pager. */
  filters?: { operation: ApiOperation; values: Record<string, string> };
  /** Its Export button (shared/dashboard/reports.ts), under the filters. */
  exporting?: string;
}

/** A list's page of items (or what it says when there are none), with links to the newer and the older page. */
function listBody<T extends { id: string }>(frame: Frame, page: ListPage<T>): string {
  const { view, filters } = page;
  const filtered = Object.keys(filters?.values ?? {}).length > 0;
  const empty = view.request.startingAfter || view.request.endingBefore ? 'Nothing more in this direction.' : filtered ? 'Nothing matches these filters.' : page.empty;
  const body = view.items.length === 0 ? `<p class="note">${escapeHtml(empty)}</p>` : table(page.spec, view.items, page.caption);
  const form = filters ? `${filterForm(`${frame.urls.dashboard}${page.nav}`, filters.operation, filters.values)}\n` : '';
  return `${form}${page.exporting ? `${page.exporting}\n` : ''}${body}
${pager(`${page.title}: pages`, view, (cursor) =>
  pageUrl(frame.urls, page.nav, { ...filters?.values, ...cursor, limit: view.request.limit === SECTION_LIMIT ? undefined : String(view.request.limit) }),
)}`;
}

/** A list page: its table, one page at a time. */
export function listPage<T extends { id: string }>(frame: Frame, page: ListPage<T>): string {
  return signedInPage(frame, page.title, `${page.actions ?? ''}\n${listBody(frame, page)}`, page.nav);
}

/** The balance (the navigation's Balance): every currency's available total and what is on hold, then the movements behind them, a page at a time. */
export function balancePage(frame: Frame, view: BalanceView, filters?: ListPage<BalanceTransaction>['filters'], exporting?: string): string {
  const movements: ListPage<BalanceTransaction> = {
    filters,
    exporting,
    title: 'Movements',
    nav: '/balance-transactions',
    spec: balanceTransactionTable(frame.urls),
    view: view.movements,
    caption: 'Every movement of the balances, newest first: payments, refunds and their reversals, chargebacks and their reversals, adjustments.',
    empty: 'No movements yet.',
  };
  return signedInPage(
    frame,
    'Balance',
    `${titledSection('available', 'Available', view.balances.length ? table(balanceTable(), view.balances, BALANCE_CAPTION) : `<p class="note">${NO_BALANCE}</p>`)}
${titledSection('movements', 'Movements', listBody(frame, movements))}`,
    movements.nav,
  );
}

// ---------------------------------------------------------------------------------------------
// Payment links

export interface NewLinkForm {
  acceptors: Acceptor[];
  state?: FormState;
}

/** The values a new link's form starts with. */
export const newLinkDefaults = (acceptors: Acceptor[]): FormState => ({ values: { 'amount.currency': 'EUR', acceptor_id: acceptors[0]?.id ?? '' } });

/** The currencies a merchant most likely charges in, first in the create form's list; every other ISO 4217 code follows. */
const MAJOR_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'];

/** The create form's currency choices: the major ones, then the rest of ISO 4217 alphabetically. */
export const currencyChoices = (): [string, string][] =>
  [...MAJOR_CURRENCIES, ...currencyCodes().filter((code) => !MAJOR_CURRENCIES.includes(code))].map((code) => [code, code]);

/** The form creating a link (`POST /v1/payment_links`): amount, description, limit, expiry, acceptor, collected fields. */
export function newLinkPage(frame: Frame, form: NewLinkForm): string {
  const { urls } = frame;
  const fields = formOf('create-link', form.state ?? newLinkDefaults(form.acceptors));
  const inputs = `<div class="row">
${fields.field({ name: 'amount.value', label: 'Amount', hint: 'For example 19.99 or 19,99', attributes: 'inputmode="decimal" autocomplete="off" required' })}
${fields.field({ name: 'amount.currency', label: 'Currency', type: 'select', hint: 'ISO 4217', options: currencyChoices() })}
</div>
${fields.field({ name: 'description', label: 'Description', hint: 'Shown to the customer at checkout.', attributes: 'maxlength="500"' })}
${fields.field({ name: 'acceptor_id', label: 'Acceptor', type: 'select', options: form.acceptors.map((acceptor) => [acceptor.id, acceptor.name]) })}
${fields.field({ name: 'payments_limit', label: 'Payment limit', type: 'number', hint: 'Empty: unlimited.', attributes: 'min="1" step="1"' })}
${fields.dateTime({ name: 'expires_at', legend: 'Expires (UTC)', hint: 'Both empty: never.' })}
<fieldset class="checks"><legend>Collect from the customer</legend>
${fields.field({ name: 'collect_email', label: 'Email address', type: 'checkbox' })}
${fields.field({ name: 'collect_address', label: 'Billing address', type: 'checkbox' })}
${fields.field({ name: 'collect_phone', label: 'Phone number', type: 'checkbox' })}
</fieldset>`;
  return signedInPage(
    frame,
    'Create a payment link',
    `${fields.alert()}
${postForm({ action: `${urls.dashboard}/payment-links`, frame, fields: inputs, button: 'Create payment link', primary: true })}`,
    '/payment-links',
  );
}

/** The two forms of a link's page; the one that was submitted shows its problem. */
export interface LinkForms {
  edit?: FormState;
  status?: FormState;
}

const yesNo = (flags: [boolean, string][]) => flags.filter(([on]) => on).map(([, name]) => name).join(', ') || 'nothing';

/**
 * A link's own page, reached without opening its public checkout (which would create an open
 * payment and events): its fields, activation, the edit form, its payments and its events with
 * their delivery attempts.
 */
export function linkPage(frame: Frame, view: LinkView, forms: LinkForms = {}): string {
  const { urls, principal } = frame;
  const { link, payments, events } = view;
  const remaining = remainingPayments(link);
  const action = linkPagePath(urls, link.id);
  const canUpdate = principal.scopes.includes('payment_link:update');

  const status = formOf('link-status', forms.status);
  const toggle =
    link.status === 'expired'
      ? '<p class="note">An expired link cannot be activated again.</p>'
      : link.status === 'active'
        ? postForm({
            action,
            frame,
            kind: 'act',
            fields: `<input type="hidden" name="status" value="inactive">\n${status.confirm('Stop taking payments through this link: its checkout refuses new payments until it is reactivated')}`,
            button: 'Deactivate',
          })
        : postForm({ action, frame, kind: 'inline', fields: '<input type="hidden" name="status" value="active">', button: 'Reactivate' });

  const edit = formOf('edit-link', forms.edit ?? { values: { description: link.description ?? '', payments_limit: String(link.paymentsLimit ?? ''), ...utcDatetimeValues('expires_at', link.expiresAt) } });
  const editFields = `${edit.field({ name: 'description', label: 'Description', attributes: 'maxlength="500"' })}
${edit.field({ name: 'payments_limit', label: 'Payment limit', type: 'number', hint: `Empty: unlimited. At least the ${link.paidCount} already paid.`, attributes: 'min="1" step="1"' })}
${edit.dateTime({ name: 'expires_at', legend: 'Expires (UTC)', hint: link.status === 'expired' ? 'The link has expired: its expiry no longer changes.' : 'Both empty: never.' })}`;
  const editForm = titledSection('edit', 'Edit', `${edit.alert()}\n${postForm({ action, frame, fields: editFields, button: 'Save changes', primary: true })}`);

  const eventsBody = events.allowed
    ? events.items.length === 0
      ? `<p class="note">${events.after ? 'No older events of this link.' : 'No events of this link among its most recent ones.'}</p>`
      : table(eventTable(urls), events.items, `Events about this link, newest first, with every delivery attempt (up to ${LINK_EVENT_WINDOW} events of all links are searched per page).`)
    : missingScope(events.scope);
  const eventsPager =
    events.allowed && events.next
      ? `<nav class="pager" aria-label="Events of this link: pages"><a rel="next" href="${escapeHtml(pageUrl(urls, `/payment-links/${link.id}`, { events_after: events.next }))}">Older events</a></nav>`
      : '';

  return signedInPage(
    frame,
    `Payment link ${link.id}`,
    `<div class="actions-row">${canUpdate ? toggle : ''}</div>
${status.alert()}
<dl>
<dt>Status</dt><dd>${badge(link.status)}</dd>
<dt>Amount</dt><dd>${money(link.amountMinor, link.currency)}</dd>
<dt>Description</dt><dd>${textOrDash(link.description)}</dd>
<dt>Paid</dt><dd data-field="paid_count">${link.paidCount}</dd>
<dt>Limit</dt><dd data-field="payments_limit">${link.paymentsLimit ?? 'unlimited'}</dd>
<dt>Remaining</dt><dd data-field="remaining_payments">${remaining ?? 'unlimited'}</dd>
<dt>Expires</dt><dd data-field="expires_at">${link.expiresAt ? time(link.expiresAt) : 'never'}${link.status === 'inactive' && link.expiresAt ? ' (while inactive the API shows none)' : ''}</dd>
<dt>Expired</dt><dd>${time(link.expiredAt)}</dd>
<dt>Collects</dt><dd>${yesNo([[link.collectEmail, 'email'], [link.collectAddress, 'billing address'], [link.collectPhone, 'phone']])}</dd>
<dt>Acceptor</dt><dd>${code(link.acceptorId)}</dd>
<dt>Created</dt><dd>${time(link.createdAt)}</dd>
<dt>First paid</dt><dd>${time(link.firstPaidAt)}</dd>
<dt>Last paid</dt><dd>${time(link.lastPaidAt)}</dd>
<dt>Checkout</dt><dd class="url">${code(`${urls.checkout}/${link.id}`)}<br><span class="note">Copy it to share the link; opening it starts a payment.</span></dd>
</dl>
${canUpdate ? editForm : ''}
<section aria-labelledby="link-payments">
<h2 id="link-payments">Payments</h2>
${payments.items.length === 0 ? '<p class="note">No payments through this link yet.</p>' : table(linkPaymentTable(urls), payments.items, "The link's payments, newest first.")}
${pager('Payments of this link: pages', payments, (cursor) => pageUrl(urls, `/payment-links/${link.id}`, cursor))}
</section>
<section aria-labelledby="link-events">
<h2 id="link-events">Events and deliveries</h2>
${eventsBody}
${eventsPager}
</section>`,
    '/payment-links',
  );
}

// ---------------------------------------------------------------------------------------------
// Payments and refunds

/** A payment's page: its fields, the refund form (full or partial), and its refunds. */
export function paymentPage(frame: Frame, view: PaymentView, now: Date, refundForm?: FormState): string {
  const { urls, principal } = frame;
  const { payment, refunds, chargebacks } = view;
  const rest = refundableRestMinor(payment);
  const form = formOf('refund', refundForm);
  const refundable = payment.status === 'paid' && principal.scopes.includes('refund:create');
  // Said before the form is filled in, as the API would refuse it (decisions §6).
  const blocked = (payment.unwonChargebacks ?? 0) > 0 ? 'Not refundable while one of its chargebacks is not won.' : rest === 0 ? 'Refunded in full.' : undefined;
  const refundFormSection = () => {
    const fields = `${form.field({ name: 'amount.value', label: 'Amount (EUR)', hint: `Empty: the whole refundable rest, ${formatForCustomer(rest, payment.currency)}. A smaller amount is a partial refund.`, attributes: 'inputmode="decimal" autocomplete="off"' })}
${form.field({ name: 'description', label: 'Description', attributes: 'maxlength="500"' })}
${form.confirm('Send this refund to the customer (empty amount: the whole refundable rest)')}`;
    return titledSection('refund', 'Refund', `${form.alert()}\n${postForm({ action: `${paymentPagePath(urls, payment.id)}/refunds`, frame, fields, button: 'Refund', primary: true })}`);
  };
  const refundSection = !refundable ? '' : blocked && !refundForm ? titledSection('refund', 'Refund', `<p class="note">${blocked}</p>`) : refundFormSection();
  const refundList = refunds.allowed
    ? `${refunds.items.length === 0 ? '<p class="note">No refunds of this payment.</p>' : table(refundTable(urls), refunds.items, "The payment's refunds, newest first.")}
${pager('Refunds of this payment: pages', refunds, (cursor) => pageUrl(urls, `/payments/${payment.id}`, cursor))}`
    : missingScope(refunds.scope);
  const chargebackList = section({ id: 'payment-chargebacks', title: 'Chargebacks of this payment' }, chargebacks, {
    spec: paymentChargebackTable(urls, now),
    caption: `The payment's chargebacks, newest first.${chargebacks.allowed && chargebacks.more ? ` Only the ${PAYMENT_CHARGEBACKS} newest are shown.` : ''}`,
    empty: 'No chargebacks of this payment.',
  });
  return signedInPage(
    frame,
    `Payment ${payment.id}`,
    `<dl>
<dt>Status</dt><dd>${badge(payment.status)}</dd>
<dt>Amount</dt><dd>${money(payment.amountMinor, payment.currency)}</dd>
<dt>Refunded</dt><dd data-field="amount_refunded">${money(payment.refundedMinor ?? 0, payment.currency)}</dd>
<dt>Charged back</dt><dd data-field="amount_chargedback">${money(payment.chargedBackMinor ?? 0, payment.currency)}</dd>
<dt>Refundable rest</dt><dd data-field="refundable">${money(rest, payment.currency)}</dd>
<dt>Payment link</dt><dd>${idLink(linkPagePath(urls, payment.paymentLinkId), payment.paymentLinkId)}</dd>
<dt>Created</dt><dd>${time(payment.createdAt)}</dd>
<dt>Paid</dt><dd>${time(payment.paidAt)}</dd>
${payment.customer?.email ? `<dt>Email</dt><dd>${escapeHtml(payment.customer.email)}</dd>` : ''}
${payment.customer?.phone ? `<dt>Phone</dt><dd>${escapeHtml(payment.customer.phone)}</dd>` : ''}
${payment.billing?.address ? `<dt>Billing address</dt><dd>${escapeHtml(payment.billing.address)}</dd>` : ''}
${payment.mode === 'live' ? atAcquirer(payment) : ''}
</dl>
${refundSection}
<section aria-labelledby="payment-refunds">
<h2 id="payment-refunds">Refunds of this payment</h2>
${refundList}
</section>
${chargebackList}`,
    '/payments',
  );
}

/** A live payment at the acquirer, as in its reports (§12): its reference, its capture, why it was refused. */
function atAcquirer(payment: Payment): string {
  const capture = captureOf(payment);
  const reference = (value: string | null | undefined) => (value ? code(value) : '—');
  return `<dt>PSP reference</dt><dd data-field="acquirer_reference">${reference(payment.acquirer?.reference)}</dd>
<dt>Capture</dt><dd data-field="capture">${capture ? `${badge(capture.status)} ${reference(capture.acquirer_reference)}` : '—'}</dd>
${payment.status === 'failed' ? `<dt>Failure reason</dt><dd data-field="failure_reason">${textOrDash(payment.acquirer?.refusalReason)}</dd>` : ''}`;
}

/** One refund: the page its `links.dashboard` points at. */
export function refundPage(frame: Frame, refund: Refund, cancelForm?: FormState): string {
  const metadata = Object.entries(refund.metadata);
  const { urls, principal } = frame;
  const cancel = formOf('cancel-refund', cancelForm);
  // The API's cancel (decisions §6): a pending refund, held or not, until the job processes it.
  const cancelSection =
    refund.status === 'pending' && principal.scopes.includes('refund:create')
      ? `${cancel.alert()}${postForm({ action: `${refundPagePath(urls, refund.id)}/cancel`, frame, kind: 'inline', button: 'Cancel refund' })}`
      : cancel.alert();
  return signedInPage(
    frame,
    `Refund ${refund.id}`,
    `${refund.onHold ? '<p class="note">On hold: the balance does not cover this refund yet. It is processed automatically, oldest first, as soon as it does.</p>' : ''}
${cancelSection}
<dl>
<dt>Status</dt><dd>${refundStatus(refund)}</dd>
<dt>Amount</dt><dd>${money(refund.amountMinor, refund.currency)}</dd>
<dt>Payment</dt><dd>${idLink(paymentPagePath(frame.urls, refund.paymentId), refund.paymentId)}</dd>
<dt>Description</dt><dd>${textOrDash(refund.description)}</dd>
<dt>Webhook URL</dt><dd>${textOrDash(refund.webhookUrl)}</dd>
${refund.mode === 'live' ? `<dt>PSP reference</dt><dd data-field="acquirer_reference">${refund.acquirerReference ? code(refund.acquirerReference) : '—'}</dd>` : ''}
<dt>Created</dt><dd>${time(refund.createdAt)}</dd>
<dt>Updated</dt><dd>${time(refund.updatedAt)}</dd>
<dt>Metadata</dt><dd>${metadata.length ? metadata.map(([key, value]) => `${code(key)}: ${escapeHtml(value)}`).join('<br>') : '—'}</dd>
</dl>`,
    '/refunds',
  );
}

// ---------------------------------------------------------------------------------------------
// Search

/** A search that found nothing (or was no id): the reason, with the search field filled in again. */
export function searchPage(frame: Frame, id: string, problem: string): string {
  return signedInPage(frame, 'Search', `<p role="alert">${escapeHtml(problem)}</p>`, undefined, id);
}
