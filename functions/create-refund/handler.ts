import { createRefund } from '../../shared/api/refunds';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** POST /v1/payments/{id}/refunds */
export const handler = apiHandler(
  createRefund,
  async ({ principal, path, body, urls }) => {
    const refund = await refunds.create(principal, path.id, body, urls);
    return { status: 201, body: refundResource(refund, urls) };
  },
);
