import { getSettlement } from '../../shared/api/settlements';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { createSettlementRepository } from '../../shared/db/settlement-repository';
import { settlementResource } from '../../shared/domain/settlements';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const settlements = createSettlementRepository(documentClient(), loadConfig().tableName);

/** GET /v1/settlements/{code}: by code or `stl_` id, with clearings; live keys only. */
export const handler = apiHandler(
  getSettlement,
  async ({ principal, path, urls }) => {
    const settlement = requireOwned(await settlements.find(principal, path.code), principal);
    return { status: 200, body: settlementResource(settlement, urls) };
  },
);
