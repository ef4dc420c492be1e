import { dashboardFormPorts } from '../../shared/services/dashboard';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';
import { dashboardDeleteWebhook } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { webhookPagePath } from '../../shared/dashboard/tables';
import { WEBHOOKS_NOTICE } from '../../shared/dashboard/webhooks';

const ports = dashboardFormPorts();
const endpoints = webhookEndpointServices();

/**
 * POST /dashboard/webhooks/{id}/delete: `DELETE /v1/webhook_endpoints/{id}`, once confirmed.
 * 303 to the webhooks page, which says so; or back to the endpoint's page with the refusal.
 */
export const handler = dashboardForm(ports, dashboardDeleteWebhook, {
  body: () => undefined,
  submit: async ({ principal, urls, path }) => {
    await endpoints.remove(principal, path.id);
    return { location: `${urls.dashboard}/webhooks`, notice: { key: WEBHOOKS_NOTICE, text: `Endpoint ${path.id} deleted: it receives nothing more.` } };
  },
  home: (path, _fields, urls) => ({ page: webhookPagePath(urls, path.id), form: 'delete-endpoint' }),
  confirm: () => 'Tick the box to confirm the deletion',
});
