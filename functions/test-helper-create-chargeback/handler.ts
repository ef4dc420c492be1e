import { chargebackServices } from '../../shared/services/chargebacks';
import { testHelperCreateChargeback } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const useCases = chargebackServices();

/** POST /v1/test_helpers/payments/{id}/chargebacks: a bank reversal of a paid test payment (201). */
export const handler = apiHandler(
  testHelperCreateChargeback,
  async ({ principal, path, body, urls }) => {
    const payment = requireOwned(await useCases.payments.get(path.id), principal);
    const chargeback = await useCases.open(
      { payment, reason: body.reason, amount: body.amount, deadlineAt: body.deadline_at },
      urls,
    );
    return { status: 201, body: chargebackResource(chargeback, urls) };
  },
);
