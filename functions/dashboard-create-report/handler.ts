import { dashboardCreateReport } from '../../shared/api/pages';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { reportCreationPorts } from '../../shared/services/reports';
import { dashboardForm } from '../../shared/dashboard/http';
import { EXPORT_FORM, reportListPath, reportPagePath } from '../../shared/dashboard/reports';
import { REPORT_TYPES, type ReportType } from '../../shared/domain/reports';
import { createReport } from '../../shared/use-cases/reports';

const ports = dashboardFormPorts();
const creation = reportCreationPorts();

/**
 * POST /dashboard/reports: a list page's Export, `POST /v1/reports` with the list's type and the
 * range its filters show. 303 to the report's page, or back to the list with the refusal.
 */
export const handler = dashboardForm(ports, dashboardCreateReport, {
  body: (fields) => ({ type: fields.type, created: { gte: fields['created.gte'], lt: fields['created.lt'] } }),
  submit: async ({ principal, urls, body }) => reportPagePath(urls, (await createReport(creation, principal, body)).id),
  home: (_path, fields, urls) => ({
    page: reportListPath(urls, REPORT_TYPES.includes(fields.type as ReportType) ? (fields.type as ReportType) : 'payments'),
    form: EXPORT_FORM,
  }),
});
