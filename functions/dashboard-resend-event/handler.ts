import { dashboardFormPorts } from '../../shared/services/dashboard';
import { eventServices } from '../../shared/services/events';
import { dashboardResendEvent } from '../../shared/api/pages';
import { defined, optionalText } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { eventPagePath, webhookPagePath } from '../../shared/dashboard/tables';
import { isId } from '../../shared/ids';

const ports = dashboardFormPorts();
const events = eventServices();

/** A resend to one endpoint comes from that endpoint's page (`subscription_id`); one to every target from the event's. */
const toEndpoint = (fields: Record<string, string>) => (isId('webhook', fields.subscription_id ?? '') ? fields.subscription_id : undefined);

/**
 * POST /dashboard/events/{id}/resend: `POST /v1/events/{id}/resend` from an event's page (every
 * endpoint it matches now) or from an endpoint's failed attempt (that endpoint only). 303 back to
 * that page, which says the event goes out again; a refusal (a disabled endpoint: 422) shows there.
 */
export const handler = dashboardForm(ports, dashboardResendEvent, {
  body: (fields) => defined({ subscription_id: optionalText(fields.subscription_id) }),
  submit: async ({ principal, urls, path, body }) => {
    await events.resend(principal, path.id, body.subscription_id);
    const endpoint = body.subscription_id;
    return {
      location: endpoint ? webhookPagePath(urls, endpoint) : eventPagePath(urls, path.id),
      notice: { key: endpoint ?? path.id, text: `Event ${path.id} is on its way again${endpoint ? ' to this endpoint' : ''}; its attempt shows here once made.` },
    };
  },
  home: (path, fields, urls) => {
    const endpoint = toEndpoint(fields);
    return { page: endpoint ? webhookPagePath(urls, endpoint) : eventPagePath(urls, path.id), form: 'resend' };
  },
});
