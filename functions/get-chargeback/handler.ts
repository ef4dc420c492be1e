import { chargebackReads } from '../../shared/services/chargeback-reads';
import { getChargeback } from '../../shared/api/chargebacks';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const { chargebacks } = chargebackReads();

/** GET /v1/chargebacks/{id}: the full chargeback object. */
export const handler = apiHandler(
  getChargeback,
  async ({ principal, path, urls }) => {
    const chargeback = requireOwned(await chargebacks.get(path.id), principal);
    return { status: 200, body: chargebackResource(chargeback, urls) };
  },
);
