import { disputeChargeback as disputeChargebackOperation } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { apiHandler } from '../../shared/http/api';
import { disputePorts } from '../../shared/services/chargeback-answers';
import { disputeChargeback } from '../../shared/use-cases/chargeback-answers';

const deps = disputePorts();

/** POST /v1/chargebacks/{id}/dispute */
export const handler = apiHandler(disputeChargebackOperation, async ({ principal, path, body, urls }) => ({
  status: 200,
  body: chargebackResource(await disputeChargeback(deps, principal, path.id, body.evidence, urls), urls),
}));
