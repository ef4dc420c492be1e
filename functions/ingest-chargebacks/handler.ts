import type { FeedResult } from '../../shared/use-cases/chargebacks';
import { chargebackServices } from '../../shared/services/chargebacks';
import { logger } from '../../shared/observability/logger';
import { observed } from '../../shared/observability/middleware';
import { configuredUrls } from '../../shared/config';

const useCases = chargebackServices();

/**
 * The acquirer feed's entry point in AWS: invoked with the same document `ops chargeback ingest`
 * reads (`{"chargebacks": [...]}`); answers `{ingested: n, rejected?: [...]}` or fails with the
 * refusal message. A feed the table stopped logs the table's error here, for the operators' logs only.
 */
export const handler = observed(async (event: unknown): Promise<FeedResult> => {
  try {
    const result = await useCases.ingest(event, configuredUrls());
    logger.info('chargebacks ingested', { ingested: result.ingested, rejected: result.rejected?.length ?? 0 });
    return result;
  } catch (error) {
    if (error instanceof Error && error.cause) logger.error('chargeback feed stopped', { error: error.cause as Error });
    throw error;
  }
});
