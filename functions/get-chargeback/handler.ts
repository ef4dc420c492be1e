import { getChargeback } from '../../shared/api/chargebacks';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { createChargebackRepository } from '../../shared/db/chargeback-repository';
import { chargebackResource } from '../../shared/domain/chargebacks';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const chargebacks = createChargebackRepository(documentClient(), loadConfig().tableName);

/** GET /v1/chargebacks/{id}: the full chargeback object. */
export const handler = apiHandler(
  getChargeback,
  async ({ principal, path, urls }) => {
    const chargeback = requireOwned(await chargebacks.get(path.id), principal);
    return { status: 200, body: chargebackResource(chargeback, urls) };
  },
);
