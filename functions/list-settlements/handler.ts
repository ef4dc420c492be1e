import { settlementRepository } from '../../shared/services/settlements';
import { listSettlements } from '../../shared/api/settlements';
import { isSettlementCursor, settlementPage } from '../../shared/domain/settlements';
import { apiHandler } from '../../shared/http/api';
import { pageRequest } from '../../shared/pagination';

const settlements = settlementRepository();

/** GET /v1/settlements: organization-wide, newest first by creation; cursors are a code or an id. */
export const handler = apiHandler(
  listSettlements,
  async ({ principal, query, urls }) => {
    const page = pageRequest(query, isSettlementCursor);
    const result = await settlements.list(principal, page);
    return { status: 200, body: settlementPage(result, urls) };
  },
);
