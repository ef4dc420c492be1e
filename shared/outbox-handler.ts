import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { PendingCredit } from './db/balance';
import { isPendingCredit, pendingCreditOf } from './db/pending-credit-records';
import { isReportRequest, requestedReportOf } from './db/report-records';
import type { ReportRequester } from './report-requests';
import { METRIC } from './observability/catalog';
import { logger } from './observability/logger';
import { businessMetricsOf, countMetric } from './observability/metrics';
import type { PublishedEvent } from './domain/webhook-delivery';
import type { EventPublisher } from './webhooks/eventbridge-publisher';
import { isPublishable, publishedEventOf, type StreamRecordLike } from './webhooks/stream-records';

/** Rolls credits into their balances; answers those it could not roll. */
export type CreditRoller = (credits: PendingCredit[]) => Promise<PendingCredit[]>;

/**
 * The stream-triggered outbox processor (AWS): it carries what a transaction committed for later.
 * 1. keep the INSERTs of outbox events, replay requests, pending credits and reports (the
 *    event-source filter already does; this is the same rule, in case the filter is ever widened);
 * 2. roll the credits into their balances (`rollPendingCredits`), put the events on the bus, and
 *    ask for each new report's build (a bus event its builder's rule takes);
 * 3. report the first record that failed: Lambda checkpoints before it and retries from it, so
 *    nothing after a failure is skipped. Records retried that had been carried already are
 *    duplicates: deliveries tolerate an event twice (at least once), and a credit is rolled once;
 * 4. count the business metrics of the new events before that checkpoint (not replays), so a
 *    committed event is counted once however often the batch is retried.
 */
export function createOutboxHandler(publisher: EventPublisher, rollCredits: CreditRoller, requestReports: ReportRequester) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records as StreamRecordLike[];
    const credits = records.filter(isPendingCredit).map((record) => ({ record, credit: pendingCreditOf(record) }));
    const entries = records.filter(isPublishable).map((record) => ({ record, event: publishedEventOf(record) }));
    const reports = records.filter(isReportRequest).map((record) => ({ record, reportId: requestedReportOf(record) }));
    const [unrolled, unpublished, unrequested] = await Promise.all([
      credits.length ? rollCredits(credits.map((each) => each.credit)) : ([] as PendingCredit[]),
      entries.length ? publisher.publish(entries.map((entry) => entry.event)) : ([] as PublishedEvent[]),
      reports.length ? requestReports(reports.map((each) => each.reportId)) : ([] as string[]),
    ]);
    const failedRecords = new Set([
      ...credits.filter((each) => unrolled.includes(each.credit)).map((each) => each.record),
      ...entries.filter((entry) => unpublished.includes(entry.event)).map((entry) => entry.record),
      ...reports.filter((each) => unrequested.includes(each.reportId)).map((each) => each.record),
    ]);
    const firstFailedAt = records.findIndex((record) => failedRecords.has(record));
    const beforeFailure = (record: StreamRecordLike) => firstFailedAt < 0 || records.indexOf(record) < firstFailedAt;
    for (const { record, event: published } of entries) {
      if (beforeFailure(record) && !published.resendId) for (const metric of businessMetricsOf(published.envelope)) countMetric(metric.name, metric.dimension);
    }
    if (firstFailedAt >= 0) {
      if (unpublished.length) countMetric(METRIC.eventsPublishFailed, undefined, unpublished.length);
      logger.error('outbox records not carried; the stream will retry', {
        unpublished: unpublished.length,
        unrolled: unrolled.length,
        unrequested: unrequested.length,
        published: entries.length - unpublished.length,
      });
      return { batchItemFailures: [{ itemIdentifier: records[firstFailedAt].dynamodb!.SequenceNumber! }] };
    }
    logger.info('outbox records carried', { published: entries.length, credits: credits.length, reports: reports.length });
    return { batchItemFailures: [] };
  };
}
