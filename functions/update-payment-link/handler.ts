import { paymentLinkPorts } from '../../shared/services/payment-links';
import { updatePaymentLink as updatePaymentLinkOperation } from '../../shared/api/payment-links';
import { apiHandler } from '../../shared/http/api';
import { updatePaymentLink } from '../../shared/use-cases/payment-links';

const deps = paymentLinkPorts();

/** POST /v1/payment_links/{id} (partial update) */
export const handler = apiHandler(
  updatePaymentLinkOperation,
  async ({ principal, path, body, urls }) => ({ status: 200, body: await updatePaymentLink(deps(urls), principal, path.id, body) }),
);
