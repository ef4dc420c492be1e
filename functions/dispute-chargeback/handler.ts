import { disputeChargeback as disputeChargebackOperation } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { idempotentApiHandler } from '../../shared/http/idempotent-api';
import { disputePorts } from '../../shared/services/chargeback-answers';
import { disputeChargeback } from '../../shared/use-cases/chargeback-answers';

const deps = disputePorts();

/** POST /v1/chargebacks/{id}/dispute */
export const handler = idempotentApiHandler(disputeChargebackOperation, async ({ principal, path, body, urls }) => ({
  status: 200,
  body: chargebackResource(await disputeChargeback(deps, principal, path.id, body.evidence, urls), urls),
}));
