import { chargebackPorts, dashboardSessionServices } from '../../shared/services/dashboard';
import { chargebackPage } from '../../shared/dashboard/chargebacks';
import { dashboardPage } from '../../shared/dashboard/http';
import { chargebackView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = chargebackPorts();

/** GET /dashboard/chargebacks/{id}: one chargeback, its deadline counting down while it is open. */
export const handler = dashboardPage(sessions, async (request) => {
  const chargeback = await chargebackView(reads, request.principal, request.event.pathParameters?.id ?? '');
  return { status: 200, html: chargebackPage(request, chargeback, new Date()) };
});
