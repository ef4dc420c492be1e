import { AcquirerRefusedError, AcquirerUnavailableError } from '../domain/acquirer';
import { ACQUIRER_CALLS, DIMENSION, METRIC } from '../observability/catalog';
import { logger } from '../observability/logger';
import { countMetric } from '../observability/metrics';

/** The calls the service makes to the acquirer, as the metrics and runbooks name them. */
export type AcquirerCallName = (typeof ACQUIRER_CALLS)[number];

/**
 * Runs one call to the acquirer: an unreachable acquirer is counted (the AcquirerUnavailable
 * alarm) and logged with what went wrong, a refusal logged with the acquirer's code; both are
 * thrown on for the caller to decide (retry later, fail the refund, park the command).
 */
export async function acquirerCall<T>(call: AcquirerCallName, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof AcquirerUnavailableError) {
      countMetric(METRIC.acquirerUnavailable, { name: DIMENSION.operation, value: call });
      logger.warn('acquirer unavailable', { call, failure: error.failure });
    } else if (error instanceof AcquirerRefusedError) {
      logger.warn('acquirer refused', { call, code: error.code ?? null, detail: error.message });
    }
    throw error;
  }
}
