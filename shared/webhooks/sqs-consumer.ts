import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isDeliveryTask, isRequeued, type DeliveryOutcome, type DeliveryTask, type PublishedEvent } from '../domain/webhook-delivery';
import { DIMENSION, METRIC } from '../observability/catalog';
import { logger } from '../observability/logger';
import { countMetric, recordDuration } from '../observability/metrics';
import { logDeliveryOutcome } from './outcome-log';
import { stripNotBefore, type QueuedTask, type SqsDeliveryQueue } from './sqs-delivery-queue';
import { EVENT_SOURCE } from './stream-records';

/** What the EventBridge rule puts on the queue: the bus event, whose detail is the outbox event. */
interface BusEvent {
  source: string;
  'detail-type': string;
  detail: PublishedEvent;
}

const isBusEvent = (body: unknown): body is BusEvent =>
  (body as BusEvent)?.source === EVENT_SOURCE && typeof (body as BusEvent).detail?.envelope?.id === 'string';

export interface SqsConsumerDeps {
  plan(event: PublishedEvent): Promise<DeliveryTask[]>;
  /** One batch's attempts: a tenant's deliveries in it share one of its slots. */
  batchDeliverer(): (task: DeliveryTask) => Promise<DeliveryOutcome>;
  queue: Pick<SqsDeliveryQueue, 'enqueue' | 'retryLater' | 'postpone'>;
  now?: () => number;
}

/**
 * The webhook queue's consumer (AWS). The queue carries two kinds of message:
 * - a bus event (from the EventBridge rule): fanned out into one message per target, so each
 *   target is attempted, retried and dead-lettered on its own;
 * - a delivery task: one attempt now, or, when received before its `notBefore`, hidden again.
 *   A failed attempt is sent back with its delay; the last one is parked in the DLQ.
 * Records are handled concurrently: a slow endpoint holds only its own message, and a tenant's
 * deliveries in the batch share one of its attempt slots. A record that throws is reported in
 * `batchItemFailures`, the others are deleted.
 */
export function createSqsWebhookConsumer(deps: SqsConsumerDeps) {
  const now = deps.now ?? Date.now;

  async function handle(record: SQSRecord, deliver: (task: DeliveryTask) => Promise<DeliveryOutcome>): Promise<'done' | 'postponed'> {
    const body: unknown = JSON.parse(record.body);
    if (isBusEvent(body)) {
      await deps.queue.enqueue(await deps.plan(body.detail));
      return 'done';
    }
    if (!isDeliveryTask(body)) throw new Error('not a webhook message');
    const queued = body as QueuedTask;
    const waitMs = queued.notBefore ? Date.parse(queued.notBefore) - now() : 0;
    if (waitMs > 1000) {
      await deps.queue.postpone(record.receiptHandle, waitMs / 1000);
      return 'postponed';
    }
    const started = now();
    const outcome = await deliver(stripNotBefore(queued));
    if (outcome.kind !== 'skipped' && outcome.kind !== 'busy') recordDuration(METRIC.webhookAttemptLatency, now() - started);
    countMetric(METRIC.webhookAttempts, { name: DIMENSION.outcome, value: outcome.kind });
    // A retry, an attempt to record again and a busy tenant's delivery are new messages: the next
    // run never repeats a POST, and waiting for a slot never counts towards the redrive.
    if (isRequeued(outcome)) await deps.queue.retryLater(outcome.task, outcome.delayMs);
    logDeliveryOutcome(queued, outcome);
    return 'done';
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchItemFailure[] = [];
    const deliver = deps.batchDeliverer();
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          if ((await handle(record, deliver)) === 'postponed') batchItemFailures.push({ itemIdentifier: record.messageId });
        } catch (error) {
          logger.error('webhook message failed; SQS will redeliver it', { messageId: record.messageId, error: (error as Error).message });
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures };
  };
}
