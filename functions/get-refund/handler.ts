import { getRefund } from '../../shared/api/refunds';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** GET /v1/refunds/{id} */
export const handler = apiHandler(
  getRefund,
  async ({ principal, path, urls }) => ({ status: 200, body: refundResource(await refunds.get(principal, path.id), urls) }),
);
