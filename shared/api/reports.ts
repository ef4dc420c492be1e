import { REPORT_MAX_DAYS, REPORT_RETENTION_DAYS, REPORT_URL_SECONDS, ReportListSchema, ReportSchema, createReportBody, listReportsQuery } from '../domain/reports';
import { defineList, defineOperation, defineRetrieve, NoParams, NoQuery, pathParam } from './operation';

const reportId = /* @__PURE__ */ (() => pathParam('id', 'The report id (`rpt_…`).', 'rpt_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const createReport = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/reports',
  handler: 'create-report',
  audit: { action: 'report.created', target: 'created' },
  table: 'write',
  auth: { scope: 'report:create' },
  params: NoParams,
  query: NoQuery,
  body: createReportBody,
  tag: 'Reports',
  summary: 'Create a report',
  description:
    `A CSV of one list over a creation range of at most ${REPORT_MAX_DAYS} days: its rows are what \`GET /v1/{type}\` returns for that range ` +
    '(an acceptor-bound key\'s chargebacks: its acceptor\'s), newest first, each object\'s API fields as columns (a nested object\'s as `a.b`), ' +
    "amounts as the API writes them, and a cell a spreadsheet would run as a formula written with a leading `'`. The report is `pending` until " +
    'a function of its own has written the file (within seconds locally, a minute for a million rows in AWS), then `succeeded` (or `failed`), ' +
    `with the event \`transactions.report.succeeded\` (or \`.failed\`). The file is kept ${REPORT_RETENTION_DAYS} days.`,
  success: { status: 201, description: 'The new report, `pending`.', schema: ReportSchema },
  errors: {
    400: { description: 'The body is not the shape above: an unknown `type`, a malformed `created.gte` or `created.lt`, an unknown field.' },
    422: { description: `A value is missing, \`created.lt\` is not after \`created.gte\`, or the range spans more than ${REPORT_MAX_DAYS} days (attribute \`created.lt\`).` },
  },
});

export const getReport = /* @__PURE__ */ defineRetrieve({
  path: '/v1/reports/{id}',
  handler: 'get-report',
  reportFiles: 'read',
  auth: { scope: 'report:read' },
  params: reportId,
  tag: 'Reports',
  summary: 'Retrieve a report',
  description: `The report; a \`succeeded\` one with \`url\`, a download of its CSV made for this answer and valid ${REPORT_URL_SECONDS / 60} minutes (\`expires_at\`).`,
  success: { status: 200, description: 'The report.', schema: ReportSchema },
});

export const listReports = /* @__PURE__ */ defineList({
  path: '/v1/reports',
  handler: 'list-reports',
  reportFiles: 'read',
  auth: { scope: 'report:read' },
  params: NoParams,
  query: listReportsQuery,
  tag: 'Reports',
  summary: 'List reports',
  description: "The reports of the key's organization and mode, newest first; each succeeded one with a fresh download URL.",
  success: { status: 200, description: 'A page of reports.', schema: ReportListSchema },
});

export const reportOperations = [createReport, getReport, listReports];
