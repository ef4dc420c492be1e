import { services } from '../../shared/services';
import { logger } from '../../shared/observability/logger';
import { observed } from '../../shared/observability/middleware';
import { configuredUrls } from '../../shared/config';

const { chargebacks: useCases } = services();

/**
 * The acquirer feed's entry point in AWS: invoked with the same document `ops chargeback ingest`
 * reads (`{"chargebacks": [...]}`); answers `{ingested: n}` or fails with the refusal message.
 */
export const handler = observed(async (event: unknown): Promise<{ ingested: number }> => {
  const ingested = await useCases.ingest(event, configuredUrls());
  logger.info('chargebacks ingested', { ingested });
  return { ingested };
});
