import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { DELIVERY_EVENT_WINDOW, LINK_EVENT_WINDOW, newestAttemptsFirst, type DeliveryAttempt, type DeliveryLog, type LinkEvents } from '../domain/dashboard';
import { PAYMENT_LINK_EVENT } from '../domain/payment-links';
import { typePrefixes } from '../domain/webhooks';
import * as keys from './keys';
import { scopeOf } from './entities';
import { INDEXES, KEY } from './table';

/** At most this many attempt items are read per event: its newest (attempts are keyed in time order). */
export const ATTEMPTS_PER_EVENT = 50;

/**
 * Delivery attempts read from where the webhook delivery stores them: under each event's own
 * partition, `EVT#{event}` / `DLV#…` (keys.deliveryAttempt). There is no scope-wide index of
 * attempts, so this reads the scope's most recent events (one Query of GSI1 `{scope}#EVT`) and
 * then each event's attempts (one Query per event, in parallel): at most 1 + 25 Queries, no Scan.
 * Fields read per attempt (the webhook journal's AttemptRecord): `at` (ISO), `url`, `statusCode`
 * (number, absent when no answer came), `durationMs`, `error` (absent on success); a 2xx status
 * is a success.
 */
export function createDeliveryLog(db: DynamoDBDocumentClient, tableName: string): DeliveryLog {
  async function attemptsOf(eventId: string, eventType: string): Promise<DeliveryAttempt[]> {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
        ExpressionAttributeValues: { ':pk': keys.event(eventId).PK, ':prefix': keys.deliveryAttemptsPrefix },
        ScanIndexForward: false,
        Limit: ATTEMPTS_PER_EVENT,
      }),
    );
    return attemptsIn(result.Items, { eventId, eventType });
  }

  return {
    async recentDeliveries(principal: Principal, limit: number) {
      const events = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk, '#id': INDEXES.gsi1.sk, '#type': 'type' },
          ExpressionAttributeValues: { ':pk': keys.eventList(scopeOf(principal.orgId, principal.mode)) },
          ProjectionExpression: '#id, #type',
          ScanIndexForward: false,
          Limit: DELIVERY_EVENT_WINDOW,
        }),
      );
      const attempts = await Promise.all(
        (events.Items ?? []).map((event) => attemptsOf(String(event[INDEXES.gsi1.sk]), String(event.type ?? ''))),
      );
      return newestAttemptsFirst(attempts.flat()).slice(0, limit);
    },

    attemptsOf: async (eventId, eventType) => newestAttemptsFirst(await attemptsOf(eventId, eventType)),

    /** One Query of the endpoint's attempts (GSI1 `WHK#{whk}#DLV`, in time order), newest first. */
    async attemptsOfEndpoint(endpointId, limit) {
      const result = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
          ExpressionAttributeValues: { ':pk': keys.subscriptionAttempts(endpointId) },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return attemptsIn(result.Items);
    },

    /**
     * The link family's events of the scope (the type-prefix index of `transactions.payment_link.`),
     * newest first, from `startingAfter` down to `sinceId` (the link's creation), filtered on
     * the event's `data.id`: at most LINK_EVENT_WINDOW events read per call, whatever matches.
     */
    async linkEvents(principal, linkId, sinceId, limit, startingAfter): Promise<LinkEvents> {
      // `transactions.payment_link.`: the family every event about a link belongs to.
      const family = typePrefixes(PAYMENT_LINK_EVENT.created).at(-1)!;
      const source = keys.eventPrefixList(scopeOf(principal.orgId, principal.mode), family)!;
      const index = INDEXES[source.index];
      const found: LinkEvents['events'] = [];
      let read = 0;
      let last: string | undefined;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: index.name,
            // BETWEEN is inclusive: the cursor itself comes back first and is skipped below.
            KeyConditionExpression: startingAfter ? '#pk = :pk AND #sk BETWEEN :since AND :before' : '#pk = :pk AND #sk >= :since',
            FilterExpression: '#envelope.#data.#id = :link',
            ExpressionAttributeNames: { '#pk': index.pk, '#sk': index.sk, '#envelope': 'envelope', '#data': 'data', '#id': 'id', '#type': 'type', '#at': 'triggered_at' },
            ExpressionAttributeValues: { ':pk': source.partition, ':since': sinceId, ':link': linkId, ...(startingAfter ? { ':before': startingAfter } : {}) },
            ProjectionExpression: '#sk, #envelope.#id, #envelope.#type, #envelope.#at',
            ScanIndexForward: false,
            Limit: LINK_EVENT_WINDOW - read,
            ExclusiveStartKey: startKey,
          }),
        );
        read += page.ScannedCount ?? 0;
        startKey = page.LastEvaluatedKey;
        if (startKey) last = String(startKey[index.sk]);
        for (const item of page.Items ?? []) {
          const envelope = item.envelope as { id: string; type: string; triggered_at: string };
          if (envelope.id !== startingAfter) found.push({ id: envelope.id, type: envelope.type, triggeredAt: envelope.triggered_at });
        }
      } while (startKey && found.length <= limit && read < LINK_EVENT_WINDOW);
      if (found.length > limit) return { events: found.slice(0, limit), next: found[limit - 1].id };
      return { events: found, ...(startKey ? { next: last } : {}) };
    },
  };
}

/**
 * Attempt items as the dashboard shows them, their event named by the caller (its list read it)
 * or by the item (`eventId`, and `eventType` on attempts written since endpoints' reads); items
 * without a time or URL are skipped.
 */
function attemptsIn(items: Record<string, unknown>[] | undefined, event?: { eventId: string; eventType: string }): DeliveryAttempt[] {
  return (items ?? []).flatMap((item) => {
    if (typeof item.at !== 'string' || typeof item.url !== 'string') return [];
    const statusCode = typeof item.statusCode === 'number' ? item.statusCode : undefined;
    const succeeded = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    return [
      {
        eventId: event?.eventId ?? String(item.eventId),
        eventType: event?.eventType ?? String(item.eventType ?? ''),
        attemptedAt: item.at,
        url: item.url,
        succeeded,
        ...(statusCode !== undefined ? { statusCode } : {}),
        ...(typeof item.durationMs === 'number' ? { durationMs: item.durationMs } : {}),
        ...(typeof item.error === 'string' ? { error: item.error } : {}),
      },
    ];
  });
}
