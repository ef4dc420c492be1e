import { paymentLinkPorts } from '../../shared/services/payment-links';
import { listPaymentLinks as listPaymentLinksOperation } from '../../shared/api/payment-links';
import { apiHandler } from '../../shared/http/api';
import { listPaymentLinks } from '../../shared/use-cases/payment-links';

const deps = paymentLinkPorts();

/** GET /v1/payment_links */
export const handler = apiHandler(listPaymentLinksOperation, async ({ principal, query, urls }) => ({
  status: 200,
  body: await listPaymentLinks(deps(urls), principal, query),
}));
