import { dashboardFormPorts } from '../../shared/services/dashboard';
import { paymentLinkPorts } from '../../shared/services/payment-links';
import { dashboardCreatePaymentLink } from '../../shared/api/pages';
import { type CreatePaymentLinkBody } from '../../shared/domain/payment-links';
import { checkbox, decimalAmount, defined, optionalInteger, optionalText, utcDatetime } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { linkPagePath } from '../../shared/dashboard/tables';
import { createPaymentLink } from '../../shared/use-cases/payment-links';

const ports = dashboardFormPorts();
const paymentLinks = paymentLinkPorts();

/** POST /dashboard/payment-links: `POST /v1/payment_links` from the create form; 303 to the new link's page, or back to the form with the refusal. */
export const handler = dashboardForm(ports, dashboardCreatePaymentLink, {
  body: (fields) => {
    const amount = defined({ value: decimalAmount(fields['amount.value']), currency: optionalText(fields['amount.currency']) });
    return defined({
      amount: Object.keys(amount).length ? amount : undefined,
      description: optionalText(fields.description),
      acceptor_id: optionalText(fields.acceptor_id),
      payments_limit: optionalInteger(fields.payments_limit),
      expires_at: utcDatetime(fields, 'expires_at'),
      collect_email: checkbox(fields.collect_email),
      collect_address: checkbox(fields.collect_address),
      collect_phone: checkbox(fields.collect_phone),
    });
  },
  submit: async ({ principal, urls, body }) => linkPagePath(urls, (await createPaymentLink(paymentLinks(urls), principal, body as CreatePaymentLinkBody)).id),
  home: (_path, _fields, urls) => ({ page: `${urls.dashboard}/payment-links/new`, form: 'create-link' }),
});
