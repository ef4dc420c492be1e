import { listReports } from '../../shared/api/reports';
import { apiHandler } from '../../shared/http/api';
import { reportReadPorts } from '../../shared/services/reports';
import { reportPage } from '../../shared/use-cases/reports';

const ports = reportReadPorts();

/** GET /v1/reports: newest first, each succeeded one with a download URL made now. */
export const handler = apiHandler(listReports, async ({ principal, query }) => ({ status: 200, body: await reportPage(ports, principal, query) }));
