import { dashboardWebhook } from '../../shared/api/pages';
import { dashboardSessionServices, deliveryPorts, endpointPorts } from '../../shared/services/dashboard';
import { dashboardPage, SCRIPT_FILE_PAGE_HEADERS } from '../../shared/dashboard/http';
import { endpointPage } from '../../shared/dashboard/webhooks';
import { endpointView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...endpointPorts(), ...deliveryPorts() };

/**
 * GET /dashboard/webhooks/{id}: the endpoint, its forms (a refused one again), its recent
 * deliveries, and once after its creation or a roll its new secret, with its Copy button's script.
 */
export const handler = dashboardPage(dashboardWebhook, sessions, async (request) => {
  const view = await endpointView(reads, request.principal, request.event.pathParameters?.id ?? '');
  const forms = {
    edit: request.formState('edit-endpoint'),
    status: request.formState('endpoint-status'),
    roll: request.formState('roll-secret'),
    remove: request.formState('delete-endpoint'),
    resend: request.formState('resend'),
  };
  return { status: 200, headers: SCRIPT_FILE_PAGE_HEADERS, html: endpointPage(request, view, forms, request.notice(view.endpoint.id)) };
});
