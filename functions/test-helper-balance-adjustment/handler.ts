import { refundMovePorts } from '../../shared/services/refunds';
import { adjustBalance } from '../../shared/use-cases/refunds';
import { testHelperBalanceAdjustment } from '../../shared/api/refunds';
import { apiHandler } from '../../shared/http/api';

const ports = refundMovePorts();

/** POST /v1/test_helpers/balance_adjustments (test keys only): signed amount -> the balance. */
export const handler = apiHandler(
  testHelperBalanceAdjustment,
  async ({ principal, body, urls }) => ({ status: 201, body: await adjustBalance(ports, principal, body.amount, urls) }),
);
