import { dashboardSessionServices } from '../../shared/services/dashboard';
import { dashboardNewWebhook } from '../../shared/api/pages';
import { dashboardPage } from '../../shared/dashboard/http';
import { newEndpointPage } from '../../shared/dashboard/webhooks';

const sessions = dashboardSessionServices();

/** GET /dashboard/webhooks/new: the form adding an endpoint (a refused one again), for a role that may (403 otherwise). */
export const handler = dashboardPage(dashboardNewWebhook, sessions, async (request) => ({ status: 200, html: newEndpointPage(request, request.formState('create-endpoint')) }));
