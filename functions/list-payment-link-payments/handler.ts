import { paymentLinkPorts } from '../../shared/services/payment-links';
import { listPaymentLinkPayments } from '../../shared/api/payment-links';
import { linkPaymentPage } from '../../shared/domain/payments';
import { isId } from '../../shared/ids';
import { apiHandler } from '../../shared/http/api';
import { pageRequest } from '../../shared/pagination';
import { listLinkPayments } from '../../shared/use-cases/payment-links';

const deps = paymentLinkPorts();

/** GET /v1/payment_links/{id}/payments */
export const handler = apiHandler(
  listPaymentLinkPayments,
  async ({ principal, path, query, urls }) => {
    const page = pageRequest(query, (value) => isId('payment', value));
    const result = await listLinkPayments(deps(urls), principal, path.id, page);
    return { status: 200, body: linkPaymentPage(result) };
  },
);
