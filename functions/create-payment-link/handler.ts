import { paymentLinkPorts } from '../../shared/services/payment-links';
import { createPaymentLink as createPaymentLinkOperation } from '../../shared/api/payment-links';
import { type CreatePaymentLinkBody } from '../../shared/domain/payment-links';
import { apiHandler } from '../../shared/http/api';
import { createPaymentLink } from '../../shared/use-cases/payment-links';

const deps = paymentLinkPorts();

/** POST /v1/payment_links */
export const handler = apiHandler(createPaymentLinkOperation, async ({ principal, body, urls }) => ({
  status: 201,
  body: await createPaymentLink(deps(urls), principal, body as CreatePaymentLinkBody),
}));
