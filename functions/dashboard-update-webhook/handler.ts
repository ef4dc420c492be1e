import { dashboardFormPorts } from '../../shared/services/dashboard';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';
import { dashboardUpdateWebhook } from '../../shared/api/pages';
import { lines, optionalText } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { webhookPagePath } from '../../shared/dashboard/tables';

const ports = dashboardFormPorts();
const endpoints = webhookEndpointServices();

/** The status form (disable, enable) sends only `status`; the edit form the URL, the patterns and the description. */
const isStatusForm = (fields: Record<string, string>) => 'status' in fields;

/**
 * POST /dashboard/webhooks/{id}: `POST /v1/webhook_endpoints/{id}` from the endpoint page's
 * forms; an empty description removes it; disabling only once confirmed. 303 back to the
 * endpoint's page, with the refusal if any.
 */
export const handler = dashboardForm(ports, dashboardUpdateWebhook, {
  body: (fields) =>
    isStatusForm(fields)
      ? { status: fields.status }
      : { url: (fields.url ?? '').trim(), enabled_events: lines(fields.enabled_events), description: optionalText(fields.description) ?? null },
  submit: async ({ principal, urls, path, body }) => webhookPagePath(urls, (await endpoints.update(principal, path.id, body)).id),
  home: (path, fields, urls) => ({ page: webhookPagePath(urls, path.id), form: isStatusForm(fields) ? 'endpoint-status' : 'edit-endpoint' }),
  confirm: (fields) => (fields.status === 'disabled' ? 'Tick the box to confirm disabling the endpoint' : undefined),
});
