import { dashboardReport } from '../../shared/api/pages';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { reportReadPorts } from '../../shared/services/reports';
import { dashboardPage } from '../../shared/dashboard/http';
import { reportPage } from '../../shared/dashboard/reports';
import { reportView } from '../../shared/use-cases/reports';

const sessions = dashboardSessionServices();
const reads = reportReadPorts();

/** GET /dashboard/reports/{id}: a report's state, and once built its file (a download made for this view). */
export const handler = dashboardPage(dashboardReport, sessions, async (request) => ({
  status: 200,
  html: reportPage(request, await reportView(reads, request.principal, request.event.pathParameters?.id ?? '')),
}));
