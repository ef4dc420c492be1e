import { chargebackServices } from '../../shared/services/chargebacks';
import { testHelperTransitionChargeback } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const useCases = chargebackServices();

/** POST /v1/test_helpers/chargebacks/{id}/transitions: a move of the state table (200), or 422. */
export const handler = apiHandler(
  testHelperTransitionChargeback,
  async ({ principal, path, body, urls }) => {
    const current = requireOwned(await useCases.chargebacks.get(path.id), principal);
    const chargeback = await useCases.transition(current, body.status, urls);
    return { status: 200, body: chargebackResource(chargeback, urls) };
  },
);
