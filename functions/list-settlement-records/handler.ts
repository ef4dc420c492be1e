import { z } from 'zod';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { createSettlementRepository } from '../../shared/db/settlement-repository';
import { RECORD_TYPES, isRecordId, recordResource } from '../../shared/domain/settlements';
import { requireOwned } from '../../shared/domain/scope';
import { apiHandler } from '../../shared/http/api';
import { listQueryFields, pageRequest } from '../../shared/pagination';

const settlements = createSettlementRepository(documentClient(), loadConfig().tableName);

/** GET /v1/settlements/{code}/records: newest first by transaction time, optional `type`. */
export const handler = apiHandler(
  {
    scope: 'settlement:read',
    liveModeOnly: true,
    path: z.object({ code: z.string() }),
    query: z.strictObject({ ...listQueryFields, type: z.enum(RECORD_TYPES).optional() }),
  },
  async ({ principal, path, query, urls }) => {
    const page = pageRequest(query, isRecordId);
    const settlement = requireOwned(await settlements.find(principal, path.code), principal);
    const result = await settlements.listRecords(settlement, page, query.type);
    return { status: 200, body: { has_more: result.hasMore, data: result.items.map((record) => recordResource(record, urls)) } };
  },
);
