import type { PublicUrls } from '../config';
import { REPORT_MAX_DAYS, REPORT_RETENTION_DAYS, type ReportResource, type ReportType } from '../domain/reports';
import { escapeHtml } from '../http/page';
import { isoMillis } from '../time';
import { asDatetime } from './filters';
import { formOf, type FormState } from './forms';
import { badge, code, may, postForm, signedInPage, time, type Frame, type NavPath } from './html';

/**
 * Export (product-decisions §18): each list page's Export button asks for the report of what its
 * filters show (`POST /v1/reports` through its form), and the report's page shows its state and,
 * once built, the file.
 */

/** Each report type's list page, and what its rows are called there. */
const REPORT_LISTS: Record<ReportType, { nav: NavPath; rows: string }> = {
  payments: { nav: '/payments', rows: 'payments' },
  refunds: { nav: '/refunds', rows: 'refunds' },
  chargebacks: { nav: '/chargebacks', rows: 'chargebacks' },
  balance_transactions: { nav: '/balance-transactions', rows: 'balance movements' },
};

export const reportListPath = (urls: PublicUrls, type: ReportType) => `${urls.dashboard}${REPORT_LISTS[type].nav}`;
export const reportPagePath = (urls: PublicUrls, id: string) => `${urls.dashboard}/reports/${encodeURIComponent(id)}`;

/** The Export form's id on its list page: a refused export comes back to it. */
export const EXPORT_FORM = 'export';

const DAY_MS = 86_400_000;

/**
 * The Export button of a list page: the report of the list's type over the creation range its
 * filters show (a date is its first instant in UTC, as the filter reads it), up to now and back
 * REPORT_MAX_DAYS when the filters leave an end open. A report is a range of a whole list, so
 * while another filter (a status, an email) narrows the page, the page says so instead.
 */
export function exportForm(frame: Frame, type: ReportType, filters: Record<string, string>, now: Date, state?: FormState): string {
  if (!may(frame, 'report:create')) return '';
  const { rows } = REPORT_LISTS[type];
  const narrowed = Object.keys(filters).filter((name) => !name.startsWith('created['));
  if (narrowed.length) {
    return `<p class="note export">Export takes a date range of all ${escapeHtml(rows)}: clear the ${narrowed.map((name) => escapeHtml(name.replace(/_/g, ' '))).join(' and ')} filter to export.</p>`;
  }
  const lt = filters['created[lt]'] ? asDatetime(filters['created[lt]']) : isoMillis(now);
  const gte = filters['created[gte]'] ? asDatetime(filters['created[gte]']) : isoMillis(Date.parse(lt) - REPORT_MAX_DAYS * DAY_MS);
  const form = formOf(EXPORT_FORM, state);
  const hidden = [
    ['type', type],
    ['created.gte', gte],
    ['created.lt', lt],
  ]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  // The page read its filters with the list's schema first: both ends are datetimes here.
  const range = ` created from ${time(isoMillis(Date.parse(gte)))} to before ${time(isoMillis(Date.parse(lt)))}`;
  return `<section class="export" aria-label="Export">
${postForm({ action: `${frame.urls.dashboard}/reports`, frame, kind: 'inline', fields: `${hidden}${form.fieldError('type')}${form.fieldError('created.gte')}${form.fieldError('created.lt')}`, button: 'Export CSV' })}
${form.alert()}<p class="hint">A CSV of the ${escapeHtml(rows)}${range} (at most ${REPORT_MAX_DAYS} days), built in the background: its page offers the file when it is ready.</p>
</section>`;
}

/** A report's page: what it holds, its state, and once it succeeded its file (a download made for this page view). */
export function reportPage(frame: Frame, report: ReportResource): string {
  const { urls } = frame;
  const { nav, rows } = REPORT_LISTS[report.type];
  const state =
    report.status === 'pending'
      ? `<p class="note" role="status">Being built. <a href="${escapeHtml(reportPagePath(urls, report.id))}">Refresh</a> to see whether it is ready.</p>`
      : report.status === 'failed'
        ? `<p role="alert">${escapeHtml(report.failure_reason ?? 'The report could not be built.')}</p>`
        : `<p><a class="button primary" href="${escapeHtml(report.url ?? '')}">Download CSV</a></p>
<p class="hint">The download works until ${time(report.expires_at)}; reload this page for a new one. The file is kept ${REPORT_RETENTION_DAYS} days.</p>`;
  return signedInPage(
    frame,
    `Report ${report.id}`,
    `${state}
<dl>
<dt>Status</dt><dd>${badge(report.status)}</dd>
<dt>Rows</dt><dd>${escapeHtml(`All ${rows} created from`)} ${time(report.created.gte)} to before ${time(report.created.lt)}</dd>
<dt>Row count</dt><dd>${report.row_count === null ? '—' : escapeHtml(String(report.row_count))}</dd>
<dt>Asked for</dt><dd>${time(report.created_at)}</dd>
<dt>Id</dt><dd>${code(report.id)}</dd>
</dl>
<p><a href="${escapeHtml(reportListPath(urls, report.type))}">Back to ${escapeHtml(rows)}</a></p>`,
    nav,
  );
}
