import type { PublishedEvent } from '../../shared/domain/webhook-delivery';
import { isPendingCredit, pendingCreditOf } from '../../shared/db/pending-credit-records';
import type { CreditRoller } from '../../shared/outbox-handler';
import { isPublishable, publishedEventOf, type StreamRecordLike } from '../../shared/webhooks/stream-records';
import { startTableStreamReader, type CheckpointStore } from './table-stream';

export interface StreamPublisherOptions {
  endpoint: string;
  tableName: string;
  /** Where events go (locally: fan-out into the delivery queue). Throwing retries the same records. */
  publish(events: PublishedEvent[]): Promise<void>;
  /** Pending credits into their balances (the same use case as in AWS); credits it answers unrolled are read again. */
  rollCredits: CreditRoller;
  /** Pause when the stream had nothing new. */
  pollIntervalMs?: number;
  /** Where it keeps its place (`mappingCheckpoints`: the data folder's file, shared with the next start, or memory). */
  checkpoints: CheckpointStore;
}

/**
 * The outbox processor's local twin: reads DynamoDB Local's table stream, rolls each page's
 * pending credits into their balances, hands its outbox events and replay requests to `publish`,
 * and only then saves the shard's
 * checkpoint. Stopped or crashed between a commit and its publish, it
 * resumes after the checkpoint and publishes the event then; stopped after a publish but before
 * the checkpoint, it publishes it again, which deliveries deduplicate.
 *
 * The checkpoint is written only after pages that held events or credits, so that its own writes (which
 * are stream records too) do not keep it busy.
 */
export function startStreamPublisher(options: StreamPublisherOptions): { stop(): Promise<void> } {
  const reader = startTableStreamReader({
    name: 'outbox publisher',
    endpoint: options.endpoint,
    tableName: options.tableName,
    pollIntervalMs: options.pollIntervalMs,
    checkpoints: options.checkpoints,
    async handle(records) {
      const credits = (records as StreamRecordLike[]).filter(isPendingCredit).map(pendingCreditOf);
      if (credits.length > 0 && (await options.rollCredits(credits)).length > 0) throw new Error('pending credits not rolled into their balance');
      const events = (records as StreamRecordLike[]).filter(isPublishable).map(publishedEventOf);
      if (events.length > 0) await options.publish(events);
      return events.length > 0 || credits.length > 0;
    },
  });
  return { stop: reader.stop };
}
