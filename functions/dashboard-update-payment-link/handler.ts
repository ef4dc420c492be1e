import { dashboardFormPorts } from '../../shared/services/dashboard';
import { paymentLinkPorts } from '../../shared/services/payment-links';
import { dashboardUpdatePaymentLink } from '../../shared/api/pages';
import { optionalInteger, utcDatetime } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { linkPagePath } from '../../shared/dashboard/tables';
import { updatePaymentLink } from '../../shared/use-cases/payment-links';

const ports = dashboardFormPorts();
const paymentLinks = paymentLinkPorts();

/** The status form (deactivate, reactivate) sends only `status`; the edit form the three editable fields. */
const isStatusForm = (fields: Record<string, string>) => 'status' in fields;

/**
 * POST /dashboard/payment-links/{id}: `POST /v1/payment_links/{id}` from the link page's forms;
 * an empty limit or expiry removes it; a deactivation only once confirmed. 303 back to the
 * link's page, with the refusal if any.
 */
export const handler = dashboardForm(ports, dashboardUpdatePaymentLink, {
  body: (fields) =>
    isStatusForm(fields)
      ? { status: fields.status }
      : { description: fields.description ?? '', payments_limit: optionalInteger(fields.payments_limit) ?? null, expires_at: utcDatetime(fields, 'expires_at') ?? null },
  submit: async ({ principal, urls, path, body }) => {
    await updatePaymentLink(paymentLinks(urls), principal, path.id, body);
    return linkPagePath(urls, path.id);
  },
  home: (path, fields, urls) => ({ page: linkPagePath(urls, path.id), form: isStatusForm(fields) ? 'link-status' : 'edit-link' }),
  confirm: (fields) => (fields.status === 'inactive' ? 'Tick the box to confirm the deactivation' : undefined),
});
