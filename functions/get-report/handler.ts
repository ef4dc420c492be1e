import { getReport } from '../../shared/api/reports';
import { apiHandler } from '../../shared/http/api';
import { reportReadPorts } from '../../shared/services/reports';
import { reportView } from '../../shared/use-cases/reports';

const ports = reportReadPorts();

/** GET /v1/reports/{id}: a succeeded report with a download URL made now. */
export const handler = apiHandler(getReport, async ({ principal, path }) => ({ status: 200, body: await reportView(ports, principal, path.id) }));
