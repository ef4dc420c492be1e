import { refundMovePorts } from '../../shared/services/refunds';
import { testHelperRefundTransition } from '../../shared/api/refunds';
import { refundResource } from '../../shared/domain/refunds';
import { moveRefundAsTold } from '../../shared/use-cases/refunds';
import { apiHandler } from '../../shared/http/api';

const ports = refundMovePorts();

/** POST /v1/test_helpers/refunds/{id}/transitions (test keys only). */
export const handler = apiHandler(
  testHelperRefundTransition,
  async ({ principal, path, body, urls }) => ({
    status: 200,
    body: refundResource(await moveRefundAsTold(ports, principal, path.id, body.status, urls), urls),
  }),
);
