import { dashboardFormPorts } from '../../shared/services/dashboard';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';
import { dashboardRollWebhookSecret } from '../../shared/api/pages';
import { defined, optionalInteger } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { webhookPagePath } from '../../shared/dashboard/tables';

const ports = dashboardFormPorts();
const endpoints = webhookEndpointServices();

/**
 * POST /dashboard/webhooks/{id}/roll-secret: `POST /v1/webhook_endpoints/{id}/roll_secret`.
 * 303 back to the endpoint's page, which shows the new secret once.
 */
export const handler = dashboardForm(ports, dashboardRollWebhookSecret, {
  body: (fields) => defined({ expires_in_seconds: optionalInteger(fields.expires_in_seconds) }),
  submit: async ({ principal, urls, path, body }) => {
    const endpoint = await endpoints.rollSecret(principal, path.id, body);
    return {
      location: webhookPagePath(urls, endpoint.id),
      notice: { key: endpoint.id, text: 'Secret rolled. Deliveries are signed with this new secret from now on.', secret: endpoint.secret },
    };
  },
  home: (path, _fields, urls) => ({ page: webhookPagePath(urls, path.id), form: 'roll-secret' }),
});
