import { dashboardFormPorts } from '../../shared/services/dashboard';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';
import { dashboardCreateWebhook } from '../../shared/api/pages';
import { defined, lines, optionalText } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { webhookPagePath } from '../../shared/dashboard/tables';

const ports = dashboardFormPorts();
const endpoints = webhookEndpointServices();

/**
 * POST /dashboard/webhooks: `POST /v1/webhook_endpoints` from the add form (patterns one a
 * line). 303 to the new endpoint's page, which shows its signing secret once; or back to the
 * form with the refusal.
 */
export const handler = dashboardForm(ports, dashboardCreateWebhook, {
  body: (fields) => defined({ url: optionalText(fields.url), enabled_events: lines(fields.enabled_events), description: optionalText(fields.description) }),
  submit: async ({ principal, urls, body }) => {
    const endpoint = await endpoints.create(principal, body);
    return {
      location: webhookPagePath(urls, endpoint.id),
      notice: { key: endpoint.id, text: 'Endpoint added. Keep its signing secret to verify its deliveries.', secret: endpoint.secret },
    };
  },
  home: (_path, _fields, urls) => ({ page: `${urls.dashboard}/webhooks/new`, form: 'create-endpoint' }),
});
