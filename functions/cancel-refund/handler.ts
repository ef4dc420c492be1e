import { refundServices } from '../../shared/services/refunds';
import { cancelRefund } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { idempotentApiHandler } from '../../shared/http/idempotent-api';

const refunds = refundServices();

/** POST /v1/refunds/{id}/cancel */
export const handler = idempotentApiHandler(cancelRefund, async ({ principal, path, urls }) => ({
  status: 200,
  body: refundResource(await refunds.cancel(principal, path.id, urls), urls),
}));
