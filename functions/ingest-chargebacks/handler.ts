import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { logger } from '../../shared/http/logger';
import { configuredUrls, createChargebackUseCases } from '../../shared/use-cases/chargebacks';

const useCases = createChargebackUseCases(documentClient(), loadConfig().tableName);

/**
 * The acquirer feed's entry point in AWS: invoked with the same document `ops chargeback ingest`
 * reads (`{"chargebacks": [...]}`); answers `{ingested: n}` or fails with the refusal message.
 */
export const handler = async (event: unknown): Promise<{ ingested: number }> => {
  const ingested = await useCases.ingest(event, configuredUrls());
  logger.info('chargebacks ingested', { ingested });
  return { ingested };
};
