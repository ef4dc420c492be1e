import { refundServices } from '../../shared/services/refunds';
import { createRefund } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { idempotentApiHandler } from '../../shared/http/idempotent-api';

const refunds = refundServices();

/** POST /v1/payments/{id}/refunds */
export const handler = idempotentApiHandler(
  createRefund,
  async ({ principal, path, body, urls }) => {
    const refund = await refunds.create(principal, path.id, body, urls);
    return { status: 201, body: refundResource(refund, urls) };
  },
);
