import { refundReads } from '../../shared/services/refund-reads';
import { listPaymentRefunds } from '../../shared/api/refunds';
import { refundPage } from '../../shared/domain/refunds';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';
import { isId } from '../../shared/ids';
import { pageRequest } from '../../shared/pagination';

const { refunds, payments } = refundReads();

/** GET /v1/payments/{id}/refunds: the payment's refunds, newest first (organization-wide). */
export const handler = apiHandler(listPaymentRefunds, async ({ principal, path, query, urls }) => {
  const request = pageRequest(query, (value) => isId('refund', value));
  const payment = requireOwned(await payments.get(path.id), principal);
  return { status: 200, body: refundPage(await refunds.listOfPayment(payment.id, request), urls) };
});
