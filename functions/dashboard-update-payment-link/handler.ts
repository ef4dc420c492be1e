import { dashboardSessionServices, deliveryPorts, linkPorts, paymentPorts } from '../../shared/services/dashboard';
import { paymentLinkServices } from '../../shared/services/payment-links';
import { dashboardUpdatePaymentLink } from '../../shared/api/pages';
import { optionalInteger, optionalUtcDatetime } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { linkPage } from '../../shared/dashboard/pages';
import { linkPagePath } from '../../shared/dashboard/tables';
import { paymentLinkView } from '../../shared/use-cases/dashboard';
import { updatePaymentLink } from '../../shared/use-cases/payment-links';

const sessions = dashboardSessionServices();
const reads = { ...linkPorts(), ...paymentPorts(), ...deliveryPorts() };
const paymentLinks = paymentLinkServices();

/** The status form (deactivate, reactivate) sends only `status`; the edit form the three editable fields. */
const isStatusForm = (fields: Record<string, string>) => 'status' in fields;

/**
 * POST /dashboard/payment-links/{id}: `POST /v1/payment_links/{id}` from the link page's forms;
 * an empty limit or expiry removes it. 303 back to the link's page.
 */
export const handler = dashboardForm(sessions, dashboardUpdatePaymentLink, {
  body: (fields) =>
    isStatusForm(fields)
      ? { status: fields.status }
      : { description: fields.description ?? '', payments_limit: optionalInteger(fields.payments_limit) ?? null, expires_at: optionalUtcDatetime(fields.expires_at) ?? null },
  submit: async ({ principal, urls, path, body }) => {
    await updatePaymentLink(paymentLinks(urls), principal, path.id, body);
    return linkPagePath(urls, path.id);
  },
  invalid: async (request, problem) =>
    linkPage(request, await paymentLinkView(reads, request.principal, request.path.id, {}), {
      [isStatusForm(request.fields) ? 'status' : 'edit']: { values: request.fields, problem },
    }),
});
