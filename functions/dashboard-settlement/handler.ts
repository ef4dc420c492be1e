import { dashboardSettlement } from '../../shared/api/pages';
import { dashboardSessionServices, settlementPorts } from '../../shared/services/dashboard';
import { listSettlementRecords } from '../../shared/api/settlements';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { settlementPage } from '../../shared/dashboard/settlements';
import { parseWith } from '../../shared/http/validation';
import { settlementView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = settlementPorts();

/**
 * GET /dashboard/settlements/{id}: a live settlement (by `stl_` id or code) with a page of its
 * records, of one `type` if chosen (read with `GET /v1/settlements/{code}/records`' query
 * schema: an unknown type is its 400). A test key gets the 404, as on the API.
 */
export const handler = dashboardPage(dashboardSettlement, sessions, async (request) => {
  const { principal, event } = request;
  const type = event.queryStringParameters?.type || undefined;
  const query = parseWith(listSettlementRecords.query, { ...listQueryOf(event), ...(type ? { type } : {}) }, 'query');
  const view = await settlementView(reads, principal, event.pathParameters?.id ?? '', query);
  return { status: 200, html: settlementPage(request, view) };
});
