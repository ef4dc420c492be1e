import { dashboardWebhooks } from '../../shared/api/pages';
import { dashboardSessionServices, deliveryPorts, endpointPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { WEBHOOKS_NOTICE, webhooksPage } from '../../shared/dashboard/webhooks';
import { endpointList } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...endpointPorts(), ...deliveryPorts() };

/** GET /dashboard/webhooks: the endpoints of the key's organization and mode, each with its most recent deliveries. */
export const handler = dashboardPage(dashboardWebhooks, sessions, async (request) => {
  const view = await endpointList(reads, request.principal, listQueryOf(request.event));
  return { status: 200, html: webhooksPage(request, view, request.notice(WEBHOOKS_NOTICE)) };
});
