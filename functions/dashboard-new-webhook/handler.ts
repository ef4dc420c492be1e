import { dashboardSessionServices } from '../../shared/services/dashboard';
import { dashboardCreateWebhook } from '../../shared/api/pages';
import { requireScope } from '../../shared/domain/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { newEndpointPage } from '../../shared/dashboard/webhooks';

const sessions = dashboardSessionServices();

/** GET /dashboard/webhooks/new: the form adding an endpoint (a refused one again), for a key that may (403 otherwise). */
export const handler = dashboardPage(sessions, async (request) => {
  requireScope(request.principal, dashboardCreateWebhook.scope);
  return { status: 200, html: newEndpointPage(request, request.formState('create-endpoint')) };
});
