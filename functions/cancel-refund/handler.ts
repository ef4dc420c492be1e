import { refundMovePorts } from '../../shared/services/refunds';
import { cancelRefund as cancelRefundOperation } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { cancelRefund } from '../../shared/use-cases/refunds';

const ports = refundMovePorts();

/** POST /v1/refunds/{id}/cancel */
export const handler = apiHandler(cancelRefundOperation, async ({ principal, path, urls }) => ({
  status: 200,
  body: refundResource(await cancelRefund(ports, principal, path.id, urls), urls),
}));
