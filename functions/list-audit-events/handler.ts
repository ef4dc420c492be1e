import { listAuditEvents } from '../../shared/api/audit-events';
import { apiHandler } from '../../shared/http/api';
import { auditPorts } from '../../shared/services/audit';
import { auditPage } from '../../shared/use-cases/audit';

const ports = auditPorts();

/** GET /v1/audit_events */
export const handler = apiHandler(listAuditEvents, async ({ principal, query }) => {
  const page = await auditPage(ports, principal, query);
  return { status: 200, body: { has_more: page.hasMore, data: page.items } };
});
