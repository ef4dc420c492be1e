import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { balanceAdjustmentBody } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { refundUseCases } from '../../shared/use-cases/refunds';

const refunds = refundUseCases(documentClient(), loadConfig().tableName);

/** POST /v1/test_helpers/balance_adjustments (test keys only): signed amount -> the balance. */
export const handler = apiHandler(
  { testModeOnly: true, body: balanceAdjustmentBody },
  async ({ principal, body, urls }) => ({ status: 201, body: await refunds.adjustBalance(principal, body.amount, urls) }),
);
