import { acceptChargeback as acceptChargebackOperation } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { apiHandler } from '../../shared/http/api';
import { acceptPorts } from '../../shared/services/chargeback-answers';
import { acceptChargeback } from '../../shared/use-cases/chargeback-answers';

const deps = acceptPorts();

/** POST /v1/chargebacks/{id}/accept */
export const handler = apiHandler(acceptChargebackOperation, async ({ principal, path, urls }) => ({
  status: 200,
  body: chargebackResource(await acceptChargeback(deps, principal, path.id, urls), urls),
}));
