import type { PublicUrls } from '../config';
import { RECORD_TYPES, recordId, settlementDescription, transactionTime, type Settlement, type StoredClearingLine, type StoredRecord } from '../domain/settlements';
import { escapeHtml } from '../http/page';
import type { ListView, SettlementView } from '../use-cases/dashboard';
import { badge, code, idLink, may, money, pager, pageUrl, signedInPage, table, time, type Frame, type TableSpec } from './html';
import { chargebackPagePath, paymentPagePath, refundPagePath, settlementPagePath } from './tables';

/**
 * The settlements pages (live mode, `settlement:read`): the list, and a settlement with its
 * clearings and its records, a page at a time, of one type if chosen, with their CSV.
 */

export const LIVE_ONLY = 'Settlements exist in live mode only: the acquirer pays out live payments. Sign in with a live API key to see them.';

const settlementTable = (urls: PublicUrls): TableSpec<Settlement> => ({
  row: (settlement) => ` data-id="${escapeHtml(settlement.id)}"`,
  head: { label: 'Settlement', cell: (settlement) => idLink(settlementPagePath(urls, settlement.id), settlement.code) },
  columns: [
    { label: 'Date', cell: (settlement) => `<time datetime="${escapeHtml(settlement.settlementDate)}">${escapeHtml(settlement.settlementDate)}</time>` },
    { label: 'Amount', kind: 'num', cell: (settlement) => money(settlement.amountMinor, settlement.currency) },
    { label: 'Status', cell: (settlement) => badge(settlement.status, settlement.status === 'settled' ? 'good' : settlement.status === 'failed' ? 'bad' : 'warn') },
    { label: 'Records', kind: 'num', cell: (settlement) => String(settlement.recordCount) },
    { label: 'Description', kind: 'text', cell: (settlement) => escapeHtml(settlementDescription(settlement)) },
  ],
});

/** The settlements list; a test key's page says where settlements are. */
export function settlementsPage(frame: Frame, view: ListView<Settlement> | undefined): string {
  const { urls } = frame;
  const body = !view
    ? `<p class="note" data-field="live-only">${escapeHtml(LIVE_ONLY)}</p>`
    : view.items.length === 0
      ? `<p class="note">${view.request.startingAfter || view.request.endingBefore ? 'Nothing more in this direction.' : 'No settlements yet.'}</p>`
      : `${table(settlementTable(urls), view.items, 'Settlements, newest first; open one for its records and their CSV.')}
${pager('Settlements: pages', view, (cursor) => pageUrl(urls, '/settlements', cursor))}`;
  return signedInPage(frame, 'Settlements', body, '/settlements');
}

/** A record's id, linked to its dashboard page when it names an object of the service. */
function recordLink(urls: PublicUrls, id: string | null | undefined): string {
  if (!id) return '—';
  const path = id.startsWith('pay_') ? paymentPagePath : id.startsWith('rf_') ? refundPagePath : id.startsWith('cb_') ? chargebackPagePath : undefined;
  return path ? idLink(path(urls, id), id) : code(id);
}

const recordTable = (urls: PublicUrls): TableSpec<StoredRecord> => ({
  row: (record) => (recordId(record) ? ` data-id="${escapeHtml(recordId(record)!)}"` : ''),
  columns: [
    { label: 'Type', cell: (record) => escapeHtml(record.object.replace('_', ' ')) },
    { label: 'Record', cell: (record) => recordLink(urls, recordId(record)) },
    { label: 'Payment', cell: (record) => recordLink(urls, record.object === 'payment' ? record.id : record.payment_id) },
    { label: 'Direction', cell: (record) => escapeHtml(record.direction) },
    { label: 'Amount', kind: 'num', cell: (record) => money(record.amountMinor, record.currency) },
    { label: 'Status', cell: (record) => ('status' in record ? badge(record.status) : '—') },
    { label: 'Date', cell: (record) => time(transactionTime(record).replace(/(\.\d{3})\d*\+00:00$/, '$1Z')) },
  ],
});

const clearingTable: TableSpec<StoredClearingLine> = {
  row: () => '',
  columns: [
    { label: 'Cleared', cell: (line) => escapeHtml(line.clearing_date) },
    { label: 'Method', kind: 'text', cell: (line) => escapeHtml([line.payment_method, line.brand].filter(Boolean).join(' · ')) },
    { label: 'Direction', cell: (line) => escapeHtml(line.direction) },
    { label: 'Amount', kind: 'num', cell: (line) => money(line.amountMinor, line.currency) },
    { label: 'Transactions', kind: 'num', cell: (line) => String(line.transaction_count) },
  ],
};

/** A settlement: its figures, its clearings, its records (a page at a time, `type` kept across pages) and, for a role that may export them, their CSV. */
export function settlementPage(frame: Frame, view: SettlementView): string {
  const { urls } = frame;
  const { settlement, records, type } = view;
  const page = settlementPagePath(urls, settlement.id);
  const lines = settlement.clearings.flatMap((group) => group.clearing_lines);
  const filter = `<form class="filter" method="get" action="${escapeHtml(page)}">
<label for="record-type">Type</label>
<select id="record-type" name="type"><option value="">All records</option>${RECORD_TYPES.map(
    (option) => `<option value="${option}"${option === type ? ' selected' : ''}>${escapeHtml(option.replace('_', ' '))}</option>`,
  ).join('')}</select>
<button type="submit">Show</button>
</form>`;
  // Cursors are record ids (product-decisions §8): records without one (rollbacks, reversals) cannot start a page.
  const withIds = records.items.filter((record) => recordId(record)).map((record) => ({ id: recordId(record)! }));
  const account = settlement.clearingAccount;
  return signedInPage(
    frame,
    `Settlement ${settlement.code}`,
    `<dl>
<dt>Amount</dt><dd data-field="amount">${money(settlement.amountMinor, settlement.currency)}</dd>
<dt>Status</dt><dd>${badge(settlement.status, settlement.status === 'settled' ? 'good' : settlement.status === 'failed' ? 'bad' : 'warn')}</dd>
<dt>Settlement date</dt><dd>${escapeHtml(settlement.settlementDate)}</dd>
<dt>Confirmed</dt><dd>${escapeHtml(settlement.confirmationDate)}</dd>
<dt>Description</dt><dd>${escapeHtml(settlementDescription(settlement))}</dd>
<dt>Paid to</dt><dd>${escapeHtml(account.owner)}<br>${code(account.iban)} ${code(account.bic)}</dd>
<dt>Id</dt><dd>${code(settlement.id)}</dd>
</dl>
<section aria-labelledby="clearings">
<h2 id="clearings">Clearings</h2>
${lines.length ? table(clearingTable, lines, 'The clearings this settlement pays out.') : '<p class="note">No clearings.</p>'}
</section>
<section aria-labelledby="records">
<div class="heading"><h2 id="records">Records</h2>${may(frame, 'settlement:export') ? `<a class="button" href="${escapeHtml(`${page}/records.csv`)}" download>Download CSV (${settlement.recordCount} records)</a>` : ''}</div>
${filter}
${
  records.items.length === 0
    ? `<p class="note">${records.request.startingAfter || records.request.endingBefore ? 'Nothing more in this direction.' : type ? `No ${escapeHtml(type.replace('_', ' '))} records.` : 'No records.'}</p>`
    : table(recordTable(urls), records.items, `Records${type ? ` of type ${type.replace('_', ' ')}` : ''}, newest first by transaction time.`)
}
${pager('Records: pages', { ...records, items: withIds }, (cursor) => pageUrl(urls, `/settlements/${settlement.id}`, { ...cursor, type }))}
</section>`,
    '/settlements',
  );
}
