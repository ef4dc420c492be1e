import { refundServices } from '../../shared/services/refunds';
import { testHelperBalanceAdjustment } from '../../shared/api/refunds';
import { idempotentApiHandler } from '../../shared/http/idempotent-api';

const refunds = refundServices();

/** POST /v1/test_helpers/balance_adjustments (test keys only): signed amount -> the balance. */
export const handler = idempotentApiHandler(
  testHelperBalanceAdjustment,
  async ({ principal, body, urls }) => ({ status: 201, body: await refunds.adjustBalance(principal, body.amount, urls) }),
);
