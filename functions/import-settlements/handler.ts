import { settlementRepository } from '../../shared/services/settlements';
import { importSettlements } from '../../shared/domain/settlement-import';
import { logger } from '../../shared/observability/logger';
import { observed } from '../../shared/observability/middleware';

const settlements = settlementRepository();

/**
 * The acquirer's settlement feed: invoked with the same document `ops settlement import` reads,
 * `{"settlements": [ … ]}`. Answers `{"imported": n}`; a refused document fails the invocation
 * with the message naming the settlement and the field, and nothing is imported.
 */
export const handler = observed(async (event: unknown): Promise<{ imported: number }> => {
  const result = await importSettlements(settlements.store, event, new Date());
  logger.info('settlements imported', { imported: result.imported });
  return result;
});
