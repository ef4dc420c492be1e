import type { ScheduledEvent } from 'aws-lambda';
import { heldRefunds, jobServices } from '../../shared/services/jobs';
import { runAllJobs } from '../../shared/jobs';
import { DIMENSION, METRIC } from '../../shared/observability/catalog';
import { oldestHeldRefundAgeSeconds } from '../../shared/observability/held-refunds';
import { logger } from '../../shared/observability/logger';
import { countMetric, recordAge } from '../../shared/observability/metrics';
import { observed } from '../../shared/observability/middleware';

const jobs = jobServices();

/** Jobs whose processed count is itself a business metric. */
const PROCESSED_METRIC: Record<string, string> = { 'accept-overdue-chargebacks': METRIC.chargebacksAutoAccepted };

/**
 * Invoked by the one-minute EventBridge schedule: runs every minute job once, then measures the
 * refund backlog. The jobs run as of the clock, or of their event's `time` when that is later:
 * never in AWS (an event is stamped when the schedule fires, to the second), but the local
 * stack's `runMinuteJobs(at)` fires the schedule as of a later moment, past a deadline.
 */
export const handler = observed(async (event: Partial<Pick<ScheduledEvent, 'time'>> = {}): Promise<void> => {
  const now = new Date(Math.max(Date.now(), event.time ? Date.parse(event.time) : 0));
  const results = await runAllJobs(jobs, now);
  for (const result of results) {
    if (result.error) {
      logger.error('job failed', { job: result.name, error: result.error });
      countMetric(METRIC.jobFailures, { name: DIMENSION.job, value: result.name });
    } else {
      logger.info('job ran', { job: result.name, processed: result.processed });
      if (PROCESSED_METRIC[result.name]) countMetric(PROCESSED_METRIC[result.name], undefined, result.processed);
    }
  }
  recordAge(METRIC.oldestHeldRefundAge, await oldestHeldRefundAgeSeconds(heldRefunds(), new Date()));
  if (results.some((result) => result.error)) throw new Error('A minute job failed; see the log');
});
