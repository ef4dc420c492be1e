import { settlementRepository } from '../../shared/services/settlements';
import { listSettlementRecords } from '../../shared/api/settlements';
import { isRecordId, recordPage } from '../../shared/domain/settlements';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';
import { pageRequest } from '../../shared/pagination';

const settlements = settlementRepository();

/** GET /v1/settlements/{code}/records: newest first by transaction time, optional `type`. */
export const handler = apiHandler(
  listSettlementRecords,
  async ({ principal, path, query, urls }) => {
    const page = pageRequest(query, isRecordId);
    const settlement = requireOwned(await settlements.find(principal, path.code), principal);
    const result = await settlements.listRecords(settlement, page, query.type);
    return { status: 200, body: recordPage(result, urls) };
  },
);
