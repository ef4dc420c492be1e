import { paymentLinkPorts } from '../../shared/services/payment-links';
import { getPaymentLink as getPaymentLinkOperation } from '../../shared/api/payment-links';
import { paymentLinkResource } from '../../shared/domain/payment-links';
import { apiHandler } from '../../shared/http/api';
import { getPaymentLink } from '../../shared/use-cases/payment-links';

const deps = paymentLinkPorts();

/** GET /v1/payment_links/{id} */
export const handler = apiHandler(getPaymentLinkOperation, async ({ principal, path, urls }) => ({
  status: 200,
  body: paymentLinkResource(await getPaymentLink(deps(urls), principal, path.id), urls),
}));
