import { createReport } from '../../shared/api/reports';
import { apiHandler } from '../../shared/http/api';
import { reportCreationPorts } from '../../shared/services/reports';
import { createReport as askForReport } from '../../shared/use-cases/reports';

const ports = reportCreationPorts();

/** POST /v1/reports: the report, pending; its builder starts from the table stream. */
export const handler = apiHandler(createReport, async ({ principal, body }) => ({ status: 201, body: await askForReport(ports, principal, body) }));
