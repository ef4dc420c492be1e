import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import { csvLine } from '../csv';
import type { ChargebackReader } from '../db/chargeback-repository';
import type { ReportRepository } from '../db/report-repository';
import type { BalanceTransaction } from '../domain/balance';
import type { Chargeback } from '../domain/chargebacks';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { cellsOf, columnsOf, REPORT_ROWS } from '../domain/report-rows';
import {
  REPORT_EVENT,
  REPORT_FAILURE_REASON,
  REPORT_URL_SECONDS,
  reportObjectKey,
  reportRange,
  reportResource,
  type CreateReportBody,
  type Report,
  type ReportFiles,
  type ReportFileWriter,
  type ReportResource,
} from '../domain/reports';
import { requireOwned, type Owner } from '../domain/scope';
import { resourceEvent } from '../events';
import { isId, newId } from '../ids';
import { inJobScope, type JobScope } from '../jobs';
import { logger } from '../observability/logger';
import { pageRequest, type CreatedRange } from '../pagination';
import { isoMillis } from '../time';

/**
 * Reports (product-decisions §18): asked for on the request path (one item, pending), built by a
 * function of its own (`buildReport`: the list's rows, page by page, into a multipart upload),
 * read with a fresh download URL while it is kept.
 */

export async function createReport(deps: { reports: Pick<ReportRepository, 'create'>; now: () => Date }, principal: Principal, body: CreateReportBody): Promise<ReportResource> {
  const created = reportRange(body.created);
  const report: Report = {
    id: newId('report'),
    orgId: principal.orgId,
    mode: principal.mode,
    ...(principal.acceptorId ? { acceptorId: principal.acceptorId } : {}),
    type: body.type,
    created,
    status: 'pending',
    createdAt: isoMillis(deps.now()),
  };
  await deps.reports.create(report);
  return reportResource(report);
}

/** What reading a report needs: the reports, and the files to presign a download of. */
export interface ReportReadPorts {
  reports: Pick<ReportRepository, 'get' | 'list'>;
  files: Pick<ReportFiles, 'presignDownload'>;
  now: () => Date;
}

/** The report object as a reader gets it: a succeeded one with a download URL made now. */
async function readerView(deps: ReportReadPorts, report: Report): Promise<ReportResource> {
  if (report.status !== 'succeeded' || !report.objectKey) return reportResource(report);
  return reportResource(report, await deps.files.presignDownload(report.objectKey, REPORT_URL_SECONDS, deps.now()));
}

export async function reportView(deps: ReportReadPorts, principal: Principal, id: string): Promise<ReportResource> {
  return readerView(deps, requireOwned(await deps.reports.get(id), principal));
}

export async function reportPage(deps: ReportReadPorts, principal: Principal, query: { limit?: string; starting_after?: string; ending_before?: string }) {
  const page = await deps.reports.list(principal, pageRequest(query, (value) => isId('report', value)));
  return { has_more: page.hasMore, data: await Promise.all(page.items.map((report) => readerView(deps, report))) };
}

/** Port: each list's rows of a scope (and an acceptor-bound key's acceptor) in a creation range, in the list's order. */
export interface ReportSources {
  payments: (owner: Owner, created: CreatedRange) => AsyncIterable<Payment>;
  refunds: (owner: Owner, created: CreatedRange) => AsyncIterable<Refund>;
  chargebacks: (reader: ChargebackReader, created: CreatedRange) => AsyncIterable<Chargeback>;
  balance_transactions: (owner: Owner, created: CreatedRange) => AsyncIterable<BalanceTransaction>;
}

export interface ReportBuildPorts {
  reports: Pick<ReportRepository, 'get' | 'finish'>;
  files: Pick<ReportFiles, 'open'>;
  sources: ReportSources;
  urls: PublicUrls;
  now: () => Date;
}

/** The API objects of a report's rows, as its list returns them, one at a time. */
async function* rowsOf(deps: ReportBuildPorts, report: Report): AsyncGenerator<object> {
  const created = { gte: Date.parse(report.created.gte), lt: Date.parse(report.created.lt) };
  const reader = { orgId: report.orgId, mode: report.mode, acceptorId: report.acceptorId };
  switch (report.type) {
    case 'payments':
      for await (const payment of deps.sources.payments(reader, created)) yield REPORT_ROWS.payments.view(payment, deps.urls);
      return;
    case 'refunds':
      for await (const refund of deps.sources.refunds(reader, created)) yield REPORT_ROWS.refunds.view(refund, deps.urls);
      return;
    case 'chargebacks':
      for await (const chargeback of deps.sources.chargebacks(reader, created)) yield REPORT_ROWS.chargebacks.view(chargeback, deps.urls);
      return;
    case 'balance_transactions':
      for await (const entry of deps.sources.balance_transactions(reader, created)) yield REPORT_ROWS.balance_transactions.view(entry, deps.urls);
      return;
  }
}

/** A report failed at `at`, with the one reason a merchant is given (the cause goes to the log). */
const failedReport = (report: Report, at: Date): Report => ({ ...report, status: 'failed', failureReason: REPORT_FAILURE_REASON, completedAt: isoMillis(at) });

/**
 * A pending report's outcome and its event, written once, in one transaction (the builder's, and
 * the minute job's for a report its builder never finished): false when it was finished already.
 */
async function finishReport(reports: Pick<ReportRepository, 'finish'>, finished: Report, at: Date): Promise<boolean> {
  const event = resourceEvent(REPORT_EVENT[finished.status as 'succeeded' | 'failed'], finished, reportResource(finished), { at });
  const written = await reports.finish(finished, event);
  if (!written) logger.info('report finished already', { report_id: finished.id });
  return written;
}

/**
 * Builds a pending report (its builder's one job): the header, then each row as the list returns
 * it, written to the file as it is read, so that only a page of the list and a part of the file
 * are held at once; then the report succeeded with its row count, or failed (the file dropped),
 * with its event, once. A report found finished (a second run) is left as it is.
 */
export async function buildReport(deps: ReportBuildPorts, reportId: string): Promise<void> {
  const report = await deps.reports.get(reportId);
  if (!report || report.status !== 'pending') return;
  const objectKey = reportObjectKey(report);
  const columns = columnsOf(REPORT_ROWS[report.type].schema);
  let finished: Report;
  let file: ReportFileWriter | undefined;
  try {
    file = await deps.files.open(objectKey, `${report.type}-${report.id}.csv`);
    await file.write(csvLine(columns.map((column) => column.header)));
    let rowCount = 0;
    for await (const row of rowsOf(deps, report)) {
      await file.write(csvLine(cellsOf(columns, row)));
      rowCount++;
    }
    await file.finish();
    finished = { ...report, status: 'succeeded', rowCount, objectKey, completedAt: isoMillis(deps.now()) };
  } catch (error) {
    logger.error('report not built', { report_id: report.id, type: report.type, error: (error as Error).message });
    await file?.abort().catch((abortError: unknown) => logger.warn('report upload not aborted', { report_id: report.id, error: (abortError as Error).message }));
    finished = failedReport(report, deps.now());
  }
  await finishReport(deps.reports, finished, deps.now());
}

/**
 * The minute job `fail-overdue-reports`: every report still pending at its build deadline
 * (REPORT_BUILD_DEADLINE_MINUTES after it was asked for, past the builder's every attempt) is
 * failed, with its event, as its builder fails one; a report finished meanwhile is left as it
 * is (the write's condition). Reads only the sparse DUE index.
 */
export async function failOverdueReports(reports: Pick<ReportRepository, 'overdue' | 'finish'>, at: Date, only?: JobScope): Promise<number> {
  let failed = 0;
  for await (const report of reports.overdue(at)) {
    if (!inJobScope(report, only)) continue;
    logger.error('report not built by its deadline', { report_id: report.id, type: report.type, created_at: report.createdAt });
    if (await finishReport(reports, failedReport(report, at), at)) failed++;
  }
  return failed;
}
