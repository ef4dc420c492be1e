import type { PublicUrls } from '../config';
import type { BalanceTransaction, CurrencyBalance } from '../domain/balance';
import type { Chargeback } from '../domain/chargebacks';
import type { DeliveryAttempt, EventDeliveries } from '../domain/dashboard';
import { remainingPayments, type PaymentLink } from '../domain/payment-links';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { escapeHtml } from '../http/page';
import { badge, code, dueText, eventType, idLink, money, textOrDash, time, type TableSpec } from './html';

/**
 * How each kind of object shows as a table row, on the overview and on its own list page alike.
 * Ids lead to the object's dashboard page, never to the public checkout.
 */

const rowId = (item: { id: string }) => ` data-id="${escapeHtml(item.id)}"`;

export const linkPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/payment-links/${id}`;
export const paymentPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/payments/${id}`;
export const refundPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/refunds/${id}`;
export const chargebackPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/chargebacks/${id}`;
export const eventPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/events/${id}`;
export const webhookPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/webhooks/${id}`;
export const settlementPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/settlements/${id}`;

/** An open chargeback's deadline, as a badge: `due in …`, or `overdue` until the minute job accepts it. */
export const dueBadge = (chargeback: Chargeback, now: Date) =>
  chargeback.status === 'open' ? ` <span class="badge warn">${escapeHtml(dueText(chargeback.deadlineAt, now))}</span>` : '';

export const refundStatus = (refund: Refund) => `${badge(refund.status)}${refund.onHold ? ` ${badge('On hold', 'bad')}` : ''}`;

export const linkTable = (urls: PublicUrls): TableSpec<PaymentLink> => ({
  row: rowId,
  head: { label: 'Link', cell: (link) => idLink(linkPagePath(urls, link.id), link.id) },
  columns: [
    { label: 'Description', kind: 'text', cell: (link) => textOrDash(link.description) },
    { label: 'Amount', kind: 'num', cell: (link) => money(link.amountMinor, link.currency) },
    { label: 'Status', cell: (link) => badge(link.status) },
    { label: 'Paid', kind: 'num', attributes: 'data-field="paid_count"', cell: (link) => String(link.paidCount) },
    { label: 'Limit', kind: 'num', attributes: 'data-field="payments_limit"', cell: (link) => String(link.paymentsLimit ?? 'unlimited') },
    { label: 'Remaining', kind: 'num', attributes: 'data-field="remaining_payments"', cell: (link) => String(remainingPayments(link) ?? 'unlimited') },
    { label: 'Created', cell: (link) => time(link.createdAt) },
  ],
});

const paymentColumns: TableSpec<Payment>['columns'] = [
  { label: 'Amount', kind: 'num', cell: (payment) => money(payment.amountMinor, payment.currency) },
  { label: 'Status', cell: (payment) => badge(payment.status) },
  { label: 'Created', cell: (payment) => time(payment.createdAt) },
  { label: 'Paid', cell: (payment) => time(payment.paidAt) },
];

export const paymentTable = (urls: PublicUrls): TableSpec<Payment> => ({
  row: rowId,
  head: { label: 'Payment', cell: (payment) => idLink(paymentPagePath(urls, payment.id), payment.id) },
  columns: [{ label: 'Payment link', cell: (payment) => idLink(linkPagePath(urls, payment.paymentLinkId), payment.paymentLinkId) }, ...paymentColumns],
});

/** A link's own payments: the link column would repeat the page's link. */
export const linkPaymentTable = (urls: PublicUrls): TableSpec<Payment> => ({ ...paymentTable(urls), columns: paymentColumns });

export const refundTable = (urls: PublicUrls): TableSpec<Refund> => ({
  row: rowId,
  head: { label: 'Refund', cell: (refund) => idLink(refundPagePath(urls, refund.id), refund.id) },
  columns: [
    { label: 'Payment', cell: (refund) => idLink(paymentPagePath(urls, refund.paymentId), refund.paymentId) },
    { label: 'Amount', kind: 'num', cell: (refund) => money(refund.amountMinor, refund.currency) },
    { label: 'Status', cell: refundStatus },
    { label: 'Created', cell: (refund) => time(refund.createdAt) },
    { label: 'Description', kind: 'text', cell: (refund) => textOrDash(refund.description) },
  ],
});

export const chargebackTable = (urls: PublicUrls, now: Date): TableSpec<Chargeback> => ({
  row: rowId,
  head: { label: 'Chargeback', cell: (chargeback) => idLink(chargebackPagePath(urls, chargeback.id), chargeback.id) },
  columns: [
    { label: 'Payment', cell: (chargeback) => idLink(paymentPagePath(urls, chargeback.paymentId), chargeback.paymentId) },
    { label: 'Amount', kind: 'num', cell: (chargeback) => money(chargeback.amountMinor, chargeback.currency) },
    { label: 'Status', cell: (chargeback) => badge(chargeback.status) },
    { label: 'Reason', kind: 'text', cell: (chargeback) => `${escapeHtml(chargeback.reason.code)} · ${escapeHtml(chargeback.reason.description)}` },
    {
      label: 'Deadline',
      attributes: 'data-field="deadline_at"',
      cell: (chargeback) => `${time(chargeback.deadlineAt)}${dueBadge(chargeback, now)}`,
    },
    { label: 'Received', cell: (chargeback) => time(chargeback.createdAt) },
  ],
});

/** A payment's own chargebacks: the payment column would repeat the page's payment. */
export const paymentChargebackTable = (urls: PublicUrls, now: Date): TableSpec<Chargeback> => ({
  ...chargebackTable(urls, now),
  columns: chargebackTable(urls, now).columns.filter((column) => column.label !== 'Payment'),
});

const attemptResult = (attempt: DeliveryAttempt) =>
  `${attempt.succeeded ? badge('Delivered', 'good') : badge('Failed', 'bad')} ${attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : 'no response'}`;

const attemptColumns = (urls: PublicUrls): TableSpec<DeliveryAttempt>['columns'] => [
  { label: 'Attempted', cell: (attempt) => time(attempt.attemptedAt) },
  { label: 'Event', kind: 'text', cell: (attempt) => `${eventType(attempt.eventType)}<br>${idLink(eventPagePath(urls, attempt.eventId), attempt.eventId)}` },
  { label: 'Endpoint', kind: 'text', cell: (attempt) => escapeHtml(attempt.url) },
  { label: 'Result', kind: 'text', cell: (attempt) => `${attemptResult(attempt)}${attempt.error ? `<br>${escapeHtml(attempt.error)}` : ''}` },
  { label: 'Duration', kind: 'num', cell: (attempt) => (attempt.durationMs !== undefined ? `${attempt.durationMs} ms` : '—') },
];

/**
 * One row per attempt (the overview's recent deliveries, an endpoint's); failed ones carry the
 * class `failed`. `action`: a last cell for each attempt (an endpoint's Resend of a failed one).
 */
export const attemptTable = (urls: PublicUrls, action?: { label: string; cell: (attempt: DeliveryAttempt) => string }): TableSpec<DeliveryAttempt> => ({
  row: (attempt) => (attempt.succeeded ? '' : ' class="failed"'),
  columns: [...attemptColumns(urls), ...(action ? [action] : [])],
});

/** One row per event, its attempts listed in it, newest first. */
export const eventTable = (urls: PublicUrls): TableSpec<EventDeliveries> => ({
  row: rowId,
  head: { label: 'Event', cell: (event) => idLink(eventPagePath(urls, event.id), event.id) },
  columns: [
    { label: 'Type', kind: 'type', cell: (event) => eventType(event.type) },
    { label: 'Triggered', cell: (event) => time(event.triggeredAt) },
    {
      label: 'Delivery attempts',
      kind: 'list',
      cell: (event) =>
        event.attempts.length === 0
          ? '<span class="note">None</span>'
          : `<ul class="attempts">${event.attempts
              .map(
                (attempt) =>
                  `<li${attempt.succeeded ? '' : ' class="failed"'}>${attemptResult(attempt)} · ${time(attempt.attemptedAt)} · ${escapeHtml(attempt.url)}${
                    attempt.durationMs !== undefined ? ` · ${attempt.durationMs} ms` : ''
                  }${attempt.error ? ` · ${escapeHtml(attempt.error)}` : ''}</li>`,
              )
              .join('')}</ul>`,
    },
  ],
});

/** The page of a movement's source: its payment, refund or chargeback. */
function sourcePath(urls: PublicUrls, source: string): string {
  if (source.startsWith('rf_')) return refundPagePath(urls, source);
  if (source.startsWith('cb_')) return chargebackPagePath(urls, source);
  return paymentPagePath(urls, source);
}

/** One currency's balance: what is available and what waits on hold for it. */
export const balanceTable = (): TableSpec<CurrencyBalance> => ({
  row: (balance) => ` data-currency="${escapeHtml(balance.currency)}"`,
  head: { label: 'Currency', cell: (balance) => escapeHtml(balance.currency) },
  columns: [
    { label: 'Available', kind: 'num', attributes: 'data-field="available"', cell: (balance) => money(balance.availableMinor, balance.currency) },
    { label: 'On hold', kind: 'num', attributes: 'data-field="on_hold"', cell: (balance) => (balance.heldCount > 0 ? money(balance.heldMinor, balance.currency) : '—') },
    { label: 'Refunds on hold', kind: 'num', cell: (balance) => String(balance.heldCount) },
  ],
});

/** One movement of a balance: its type, signed amount and the object behind it. */
export const balanceTransactionTable = (urls: PublicUrls): TableSpec<BalanceTransaction> => ({
  row: rowId,
  head: { label: 'Movement', cell: (entry) => code(entry.id) },
  columns: [
    { label: 'Type', cell: (entry) => badge(entry.type.replace('_', ' ')) },
    { label: 'Amount', kind: 'num', cell: (entry) => money(entry.amountMinor, entry.currency) },
    { label: 'Source', cell: (entry) => (entry.source ? idLink(sourcePath(urls, entry.source), entry.source) : '—') },
    { label: 'Created', cell: (entry) => time(entry.createdAt) },
  ],
});
