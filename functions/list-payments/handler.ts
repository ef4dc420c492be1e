import { paymentRepository } from '../../shared/services/payments';
import { listPayments } from '../../shared/api/payments';
import { paymentPage } from '../../shared/domain/payments';
import { isId } from '../../shared/ids';
import { apiHandler } from '../../shared/http/api';
import { pageRequest } from '../../shared/pagination';

const payments = paymentRepository();

/** GET /v1/payments */
export const handler = apiHandler(listPayments, async ({ principal, query, urls }) => {
  const page = pageRequest(query, (value) => isId('payment', value));
  const result = await payments.list(principal, page, query.status);
  return { status: 200, body: paymentPage(result, urls) };
});
