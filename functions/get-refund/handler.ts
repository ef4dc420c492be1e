import { refundReads } from '../../shared/services/refund-reads';
import { getRefund } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const { refunds } = refundReads();

/** GET /v1/refunds/{id} */
export const handler = apiHandler(getRefund, async ({ principal, path, urls }) => ({
  status: 200,
  body: refundResource(requireOwned(await refunds.get(path.id), principal), urls),
}));
