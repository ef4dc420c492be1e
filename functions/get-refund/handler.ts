import { refundServices } from '../../shared/services/refunds';
import { getRefund } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';

const refunds = refundServices();

/** GET /v1/refunds/{id} */
export const handler = apiHandler(
  getRefund,
  async ({ principal, path, urls }) => ({ status: 200, body: refundResource(await refunds.get(principal, path.id), urls) }),
);
