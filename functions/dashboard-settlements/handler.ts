import { dashboardSettlements } from '../../shared/api/pages';
import { dashboardSessionServices, settlementPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { settlementsPage } from '../../shared/dashboard/settlements';
import { settlementList, settlementsExist } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = settlementPorts();

/** GET /dashboard/settlements: a live key's settlements, newest first; a test key reads that they exist in live mode only. */
export const handler = dashboardPage(dashboardSettlements, sessions, async (request) => {
  const { principal, event } = request;
  const view = settlementsExist(principal) ? await settlementList(reads, principal, listQueryOf(event)) : undefined;
  return { status: 200, html: settlementsPage(request, view) };
});
