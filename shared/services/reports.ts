import { configuredUrls } from '../config';
import { createLedgerReads } from '../db/balance';
import { createChargebackRepository } from '../db/chargeback-repository';
import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { createReportRepository } from '../db/report-repository';
import { bucketClient } from '../storage/s3-client';
import { s3ReportFiles } from '../storage/s3-reports';
import type { ReportBuildPorts, ReportReadPorts } from '../use-cases/reports';
import { documentsBucket, once, processWiring } from './wiring';

const reportRepository = /* @__PURE__ */ once(() => createReportRepository(processWiring().db, processWiring().tableName));
const reportFiles = /* @__PURE__ */ once(() => s3ReportFiles(bucketClient(), documentsBucket()));

/** What asking for a report uses: the reports alone (the builder starts from the table stream). */
export const reportCreationPorts = /* @__PURE__ */ once(() => ({ reports: reportRepository(), now: processWiring().now }));

/** What reading reports uses: the reports, and the files to presign downloads of (`GET /v1/reports…`, the dashboard's report page). */
export const reportReadPorts = /* @__PURE__ */ once((): ReportReadPorts => ({ reports: reportRepository(), files: reportFiles(), now: processWiring().now }));

/** What the builder uses: the reports, the files, and the four lists it reads whole. */
export const reportBuildPorts = /* @__PURE__ */ once((): ReportBuildPorts => {
  const { db, tableName, now } = processWiring();
  const payments = createPaymentRepository(db, tableName);
  const refunds = createRefundRepository(db, tableName);
  const chargebacks = createChargebackRepository(db, tableName);
  const ledger = createLedgerReads(db, tableName);
  return {
    reports: reportRepository(),
    files: reportFiles(),
    sources: { payments: payments.readAll, refunds: refunds.readAll, chargebacks: chargebacks.readAll, balance_transactions: ledger.readAll },
    urls: configuredUrls(),
    now,
  };
});
