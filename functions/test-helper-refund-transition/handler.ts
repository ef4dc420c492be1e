import { z } from 'zod';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { refundResource, refundTransitionBody } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** POST /v1/test_helpers/refunds/{id}/transitions (test keys only). */
export const handler = apiHandler(
  { testModeOnly: true, path: z.object({ id: z.string() }), body: refundTransitionBody },
  async ({ principal, path, body, urls }) => ({
    status: 200,
    body: refundResource(await refunds.transition(principal, path.id, body.status, urls), urls),
  }),
);
