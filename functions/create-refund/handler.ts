import { refundCreationPorts } from '../../shared/services/refunds';
import { createRefund as createRefundOperation } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { createRefund } from '../../shared/use-cases/refunds';

const ports = refundCreationPorts();

/** POST /v1/payments/{id}/refunds */
export const handler = apiHandler(
  createRefundOperation,
  async ({ principal, path, body, urls }) => {
    const refund = await createRefund(ports, principal, path.id, body, urls);
    return { status: 201, body: refundResource(refund, urls) };
  },
);
