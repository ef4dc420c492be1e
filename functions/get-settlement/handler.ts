import { settlementRepository } from '../../shared/services/settlements';
import { getSettlement } from '../../shared/api/settlements';
import { settlementResource } from '../../shared/domain/settlements';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';

const settlements = settlementRepository();

/** GET /v1/settlements/{code}: by code or `stl_` id, with clearings; live keys only. */
export const handler = apiHandler(
  getSettlement,
  async ({ principal, path, urls }) => {
    const settlement = requireOwned(await settlements.find(principal, path.code), principal);
    return { status: 200, body: settlementResource(settlement, urls) };
  },
);
