import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { METRIC } from '../observability/catalog';
import { logger } from '../observability/logger';
import { businessMetricsOf, countMetric } from '../observability/metrics';
import type { EventPublisher } from './eventbridge-publisher';
import { isPublishable, publishedEventOf, type StreamRecordLike } from './stream-records';

/**
 * The stream-triggered publisher (AWS):
 * 1. keep the INSERTs of outbox events and replay requests (the event-source filter already
 *    does; this is the same rule, in case the filter is ever widened);
 * 2. put them on the bus;
 * 3. report the first record that could not be published: Lambda checkpoints before it and
 *    retries from it, so nothing after a failure is skipped. Records retried that had been
 *    published already are duplicates, which deliveries tolerate (at least once);
 * 4. count the business metrics of the new events before that checkpoint (not replays), so a
 *    committed event is counted once however often the batch is retried.
 */
export function createStreamPublishHandler(publisher: EventPublisher) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const entries = (event.Records as StreamRecordLike[])
      .filter(isPublishable)
      .map((record) => ({ record, event: publishedEventOf(record) }));
    const failed = new Set(await publisher.publish(entries.map((entry) => entry.event)));
    const firstFailedAt = entries.findIndex((entry) => failed.has(entry.event));
    const checkpointed = firstFailedAt < 0 ? entries : entries.slice(0, firstFailedAt);
    for (const { event: published } of checkpointed) {
      if (!published.resendId) for (const metric of businessMetricsOf(published.envelope)) countMetric(metric.name, metric.dimension);
    }
    const firstFailed = entries[firstFailedAt];
    if (firstFailed) {
      countMetric(METRIC.eventsPublishFailed, undefined, failed.size);
      logger.error('events not published; the stream will retry', { failed: failed.size, published: entries.length - failed.size });
      return { batchItemFailures: [{ itemIdentifier: firstFailed.record.dynamodb!.SequenceNumber! }] };
    }
    logger.info('events published', { published: entries.length });
    return { batchItemFailures: [] };
  };
}
