import { testHelperRefundTransition } from '../../shared/api/refunds';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { refundResource } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** POST /v1/test_helpers/refunds/{id}/transitions (test keys only). */
export const handler = apiHandler(
  testHelperRefundTransition,
  async ({ principal, path, body, urls }) => ({
    status: 200,
    body: refundResource(await refunds.transition(principal, path.id, body.status, urls), urls),
  }),
);
