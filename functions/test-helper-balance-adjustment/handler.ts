import { testHelperBalanceAdjustment } from '../../shared/api/refunds';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** POST /v1/test_helpers/balance_adjustments (test keys only): signed amount -> the balance. */
export const handler = apiHandler(
  testHelperBalanceAdjustment,
  async ({ principal, body, urls }) => ({ status: 201, body: await refunds.adjustBalance(principal, body.amount, urls) }),
);
