import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { PublishedEvent } from '../domain/webhook-delivery';
import { sendInBatches, type BatchRetryOptions } from './retry-batches';
import { EVENT_SOURCE } from './stream-records';

/** PutEvents takes at most 10 entries per call. */
export const PUT_EVENTS_MAX_ENTRIES = 10;

export interface EventPublisher {
  /** Publishes the events; returns those that could not be published after retries. */
  publish(events: PublishedEvent[]): Promise<PublishedEvent[]>;
}

/**
 * The bus adapter: PutEvents in batches of 10, source `payment-operations`, detail-type the
 * event type, detail the stored outbox event. Entries that EventBridge reports as failed are
 * sent again (only those), with backoff.
 */
export function createEventBridgePublisher(client: EventBridgeClient, eventBusName: string, options: BatchRetryOptions = {}): EventPublisher {
  return {
    async publish(events) {
      const { failed } = await sendInBatches(
        events,
        PUT_EVENTS_MAX_ENTRIES,
        async (batch) => {
          const result = await client.send(
            new PutEventsCommand({
              Entries: batch.map((event) => ({
                EventBusName: eventBusName,
                Source: EVENT_SOURCE,
                DetailType: event.envelope.type,
                Detail: JSON.stringify(event),
                Time: new Date(event.envelope.triggered_at),
              })),
            }),
          );
          if (!result.FailedEntryCount) return [];
          return (result.Entries ?? []).flatMap((entry, index) => (entry.ErrorCode || !entry.EventId ? [index] : []));
        },
        options,
      );
      return failed;
    },
  };
}
