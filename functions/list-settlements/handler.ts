import { z } from 'zod';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { createSettlementRepository } from '../../shared/db/settlement-repository';
import { isSettlementCode, isSettlementId, settlementListItem } from '../../shared/domain/settlements';
import { apiHandler } from '../../shared/http/api';
import { listQueryFields, pageRequest } from '../../shared/pagination';

const settlements = createSettlementRepository(documentClient(), loadConfig().tableName);

/** GET /v1/settlements: organization-wide, newest first by creation; cursors are a code or an id. */
export const handler = apiHandler(
  { scope: 'settlement:read', liveModeOnly: true, query: z.strictObject(listQueryFields) },
  async ({ principal, query, urls }) => {
    const page = pageRequest(query, (cursor) => isSettlementId(cursor) || isSettlementCode(cursor));
    const result = await settlements.list(principal, page);
    return { status: 200, body: { has_more: result.hasMore, data: result.items.map((item) => settlementListItem(item, urls)) } };
  },
);
