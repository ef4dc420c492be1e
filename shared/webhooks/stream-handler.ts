import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../http/logger';
import type { EventPublisher } from './eventbridge-publisher';
import { isPublishable, publishedEventOf, type StreamRecordLike } from './stream-records';

/**
 * The stream-triggered publisher (AWS):
 * 1. keep the INSERTs of outbox events and replay requests (the event-source filter already
 *    does; this is the same rule, in case the filter is ever widened);
 * 2. put them on the bus;
 * 3. report the first record that could not be published: Lambda checkpoints before it and
 *    retries from it, so nothing after a failure is skipped. Records retried that had been
 *    published already are duplicates, which deliveries tolerate (at least once).
 */
export function createStreamPublishHandler(publisher: EventPublisher) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const entries = (event.Records as StreamRecordLike[])
      .filter(isPublishable)
      .map((record) => ({ record, event: publishedEventOf(record) }));
    const failed = new Set(await publisher.publish(entries.map((entry) => entry.event)));
    const firstFailed = entries.find((entry) => failed.has(entry.event));
    if (firstFailed) {
      logger.error('events not published; the stream will retry', { failed: failed.size, published: entries.length - failed.size });
      return { batchItemFailures: [{ itemIdentifier: firstFailed.record.dynamodb!.SequenceNumber! }] };
    }
    logger.info('events published', { published: entries.length });
    return { batchItemFailures: [] };
  };
}
