import { chargebackReads } from '../../shared/services/chargeback-reads';
import { listPaymentChargebacks } from '../../shared/api/chargebacks';
import { chargebackPage } from '../../shared/domain/chargebacks';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';
import { isId } from '../../shared/ids';
import { pageRequest } from '../../shared/pagination';

const { chargebacks, payments } = chargebackReads();

/** GET /v1/payments/{id}/chargebacks: the payment's chargebacks as list items (organization-wide). */
export const handler = apiHandler(
  listPaymentChargebacks,
  async ({ principal, path, query, urls }) => {
    const request = pageRequest(query, (value) => isId('chargeback', value));
    const payment = requireOwned(await payments.get(path.id), principal);
    const page = await chargebacks.listOfPayment(payment.id, request);
    return { status: 200, body: chargebackPage(page, urls) };
  },
);
