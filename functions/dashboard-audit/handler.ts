import { dashboardAudit } from '../../shared/api/pages';
import { listAuditEventsQuery } from '../../shared/domain/audit';
import { InvalidRequestError } from '../../shared/errors';
import { parseWith } from '../../shared/http/validation';
import { auditPorts } from '../../shared/services/audit';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { auditPage } from '../../shared/dashboard/audit';
import { dashboardPage } from '../../shared/dashboard/http';
import { auditPage as readAuditPage, type AuditQuery } from '../../shared/use-cases/audit';

const sessions = dashboardSessionServices();
const ports = auditPorts();

const PARAMETERS = ['limit', 'starting_after', 'ending_before', 'action', 'actor_id', 'target_id'] as const;

/**
 * GET /dashboard/audit: a page of the trail, filtered as `GET /v1/audit_events` filters (the
 * filter form leaves its empty fields out). A filter that names nothing, or two at once, comes
 * back above the form with the API's 400; a bad cursor or limit is the 422 page.
 */
export const handler = dashboardPage(dashboardAudit, sessions, async (request) => {
  const given = request.event.queryStringParameters ?? {};
  const query = Object.fromEntries(PARAMETERS.flatMap((name) => (given[name] ? [[name, given[name]]] : []))) as AuditQuery;
  try {
    const page = await readAuditPage(ports, request.principal, parseWith(listAuditEventsQuery, query, 'query'));
    return { status: 200, html: auditPage(request, { query, page }) };
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    return { status: 400, html: auditPage(request, { query, problem: { status: 400, detail: error.message, ...(error.attribute ? { attribute: error.attribute } : {}) } }) };
  }
});
