import { PutEventsCommand, type EventBridgeClient, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { AWS_LIMITS, putEventsEntrySize } from '../aws-limits';
import type { PublishedEvent } from '../domain/webhook-delivery';
import { sendInBatches, type BatchRetryOptions } from './retry-batches';
import { EVENT_SOURCE } from './stream-records';

export interface EventPublisher {
  /** Publishes the events; returns those that could not be published after retries. */
  publish(events: PublishedEvent[]): Promise<PublishedEvent[]>;
}

/**
 * Puts one bus entry per item, in batches EventBridge accepts (10 entries, and their sizes
 * together within its limit: large entries travel in smaller batches). Entries that EventBridge
 * reports as failed are sent again (only those), with backoff; answers the items still failing.
 */
export async function putEntries<T>(client: EventBridgeClient, items: T[], entryOf: (item: T) => PutEventsRequestEntry, options: BatchRetryOptions = {}): Promise<T[]> {
  const { failed } = await sendInBatches(
    items,
    { entries: AWS_LIMITS.eventBridge.putEventsEntries, bytes: AWS_LIMITS.eventBridge.putEventsBytes, sizeOf: (item) => putEventsEntrySize(entryOf(item)) },
    async (batch) => {
      const result = await client.send(new PutEventsCommand({ Entries: batch.map(entryOf) }));
      if (!result.FailedEntryCount) return [];
      return (result.Entries ?? []).flatMap((entry, index) => (entry.ErrorCode || !entry.EventId ? [index] : []));
    },
    options,
  );
  return failed;
}

/**
 * The bus adapter: source `payment-operations`, detail-type the event type, detail the stored
 * outbox event (`putEntries`).
 */
export function createEventBridgePublisher(client: EventBridgeClient, eventBusName: string, options: BatchRetryOptions = {}): EventPublisher {
  const entryOf = (event: PublishedEvent): PutEventsRequestEntry => ({
    EventBusName: eventBusName,
    Source: EVENT_SOURCE,
    DetailType: event.envelope.type,
    Detail: JSON.stringify(event),
    Time: new Date(event.envelope.triggered_at),
  });
  return { publish: (events) => putEntries(client, events, entryOf, options) };
}
