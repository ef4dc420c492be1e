import { paymentRepository } from '../../shared/services/payments';
import { getPayment } from '../../shared/api/payments';
import { paymentResource } from '../../shared/domain/payments';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const payments = paymentRepository();

/** GET /v1/payments/{id} */
export const handler = apiHandler(
  getPayment,
  async ({ principal, path, urls }) => {
    const payment = requireOwned(await payments.get(path.id), principal);
    return { status: 200, body: paymentResource(payment, urls) };
  },
);
