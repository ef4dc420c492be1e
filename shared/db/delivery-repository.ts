import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { DELIVERY_EVENT_WINDOW, LINK_EVENT_WINDOW, newestAttemptsFirst, type DeliveryAttempt, type DeliveryLog, type LinkEvents } from '../domain/dashboard';
import { attemptNamed, type StoredAttempt } from '../domain/event-resources';
import { PAYMENT_LINK_EVENT } from '../domain/payment-links';
import { deliveryKey, type AttemptRecord, type DeliveryJournal, type DeliveryStatus, type DeliveryTask } from '../domain/webhook-delivery';
import { typePrefixes } from '../domain/webhooks';
import { NotFoundError } from '../errors';
import { EVENT_RETENTION_DAYS, type OutboxEvent } from '../events';
import { isId } from '../ids';
import type { PageRequest } from '../pagination';
import { isoMillis } from '../time';
import { deliveryAttemptEntity, eventResendEntity, scopeOf } from './entities';
import * as keys from './keys';
import { packEnvelope, storedEnvelope } from './outbox';
import { transactWrite } from './side-effects';
import { listPage, type Page } from './list-page';
import { queryMerged } from './query-all';
import { INDEXES, KEY, TTL_ATTRIBUTE } from './table';

/** Delivery records live as long as their event. */
const expiresAt = (task: DeliveryTask) =>
  Math.floor(Date.parse(task.event.envelope.triggered_at) / 1000) + EVENT_RETENTION_DAYS * 86_400;

/** The outcomes that end a delivery: its DeliveryStatus, or `delivered` in an outcome written before decisions 157. */
const ENDED: readonly unknown[] = ['delivered', 'dead', 'canceled'];

/** At most this many attempt items are read per event, by a list or by an attempt's check: its newest (attempts are keyed in time order). */
export const ATTEMPTS_PER_EVENT = 50;

const stateKey = (task: Pick<DeliveryTask, 'event' | 'target' | 'resendId'>) => keys.deliveryState(task.event.envelope.id, deliveryKey(task));

/**
 * The delivery records of the table, under the event's partition `EVT#{evt}`:
 * - `DLV#{time}#{attempt}#{target}`: one item per attempt, in time order (keys.deliveryAttempt);
 * - `DELIVERY#{target}[#{resend}]`: the outcome of a delivery that ended without a 2xx (`dead`,
 *   `canceled`); a 2xx attempt is its delivery's outcome itself. Either makes duplicates harmless.
 * - `RESEND#{resend}`: a request to replay the event, which the table stream carries to delivery;
 * Each caller takes the part it uses as its port: the deliverer the DeliveryJournal, the
 * dashboard the DeliveryLog, the events API `attemptPage` and `requestResend`.
 *
 * Reading the scope's recent attempts: there is no scope-wide index of attempts, so it reads the
 * scope's most recent events (one Query of GSI1 `{scope}#EVT`) and then each event's attempts
 * (one Query per event, in parallel): at most 1 + 25 Queries, no Scan. Fields read per attempt
 * (AttemptRecord): `at` (ISO), `url`, `statusCode` (number, absent when no answer came),
 * `durationMs`, `error` (absent on success); a 2xx status is a success.
 */
export function createDeliveryRepository(db: DynamoDBDocumentClient, tableName: string) {
  /**
   * A GSI1 list, newest first, at most `limit` items: one Query of each of its partitions (its
   * sub-partitions, merged, when it is split); with `projected`, only those attributes (names
   * to attributes; the sort key among them).
   */
  function newestOnGsi1(partitions: readonly string[], limit: number, projected?: Record<string, string>) {
    return queryMerged(
      db,
      partitions,
      (partition) => ({
        TableName: tableName,
        IndexName: INDEXES.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk, ...projected },
        ExpressionAttributeValues: { ':pk': partition },
        ...(projected ? { ProjectionExpression: Object.keys(projected).join(', ') } : {}),
        ScanIndexForward: false,
      }),
      { sortKey: INDEXES.gsi1.sk, max: limit },
    );
  }

  async function attemptsOfEvent(eventId: string, eventType: string): Promise<DeliveryAttempt[]> {
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

  const repository = {
    /**
     * The journal (DeliveryJournal): each delivery's outcome and attempts, what every attempt
     * reads and writes. Whether a delivery ended, read both at once, strongly consistent: its
     * outcome (GetItem), `dead` or `canceled` (or `delivered`, written before a 2xx attempt was
     * its own outcome: decisions 157), and whether a 2xx to its target in its replay is among
     * the event's newest ATTEMPTS_PER_EVENT attempts (one Query page, whatever the event's
     * replays have added: a 2xx older than those lets a duplicate through, which receivers
     * deduplicate by `webhook-id`).
     */
    async isSettled(task: Pick<DeliveryTask, 'event' | 'target' | 'resendId'>) {
      const [outcome, delivered] = await Promise.all([
        db.send(new GetCommand({ TableName: tableName, Key: stateKey(task), ProjectionExpression: '#status', ExpressionAttributeNames: { '#status': 'status' }, ConsistentRead: true })),
        db.send(new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :attempts)',
          FilterExpression: `#target = :target AND #code BETWEEN :ok AND :lastOk AND ${task.resendId ? '#resend = :resend' : 'attribute_not_exists(#resend)'}`,
          ProjectionExpression: '#target',
          ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk, '#target': 'targetKey', '#code': 'statusCode', '#resend': 'resendId' },
          ExpressionAttributeValues: {
            ':pk': keys.event(task.event.envelope.id).PK,
            ':attempts': keys.deliveryAttemptsPrefix,
            ':target': task.target.key,
            ':ok': 200,
            ':lastOk': 299,
            ...(task.resendId ? { ':resend': task.resendId } : {}),
          },
          ScanIndexForward: false,
          Limit: ATTEMPTS_PER_EVENT,
          ConsistentRead: true,
        })),
      ]);
      return ENDED.includes(outcome.Item?.status) || (delivered.Count ?? 0) > 0;
    },

    async recordAttempt(task: DeliveryTask, record: AttemptRecord) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...deliveryAttemptEntity.item({
              eventId: task.event.envelope.id,
              targetKey: task.target.key,
              ...(task.target.subscriptionId ? { subscriptionId: task.target.subscriptionId } : {}),
              ...record,
            }),
            eventType: task.event.envelope.type,
            ...(task.resendId ? { resendId: task.resendId } : {}),
            [TTL_ATTRIBUTE]: expiresAt(task),
          },
        }),
      );
    },

    /** Upserts the outcome. */
    async settle(task: DeliveryTask, status: DeliveryStatus) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: stateKey(task),
          UpdateExpression:
            'SET #status = :status, #attempts = :attempts, #targetKey = :targetKey, #settledAt = :now, #ttl = :ttl',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#attempts': 'attempts',
            '#targetKey': 'targetKey',
            '#settledAt': 'settledAt',
            '#ttl': TTL_ATTRIBUTE,
          },
          ExpressionAttributeValues: {
            ':status': status,
            ':attempts': task.history.length,
            ':targetKey': task.target.key,
            ':now': isoMillis(),
            ':ttl': expiresAt(task),
          },
        }),
      );
    },

    /**
     * The resend (`POST /v1/events/{id}/resend`, `ops event resend`): writes a replay request next to the event. The table stream carries
     * it to the publisher like a new event, so a replay takes the same path in AWS and locally.
     */
    async requestResend(eventId: string, subscriptionId?: string): Promise<{ id: string; resendId: string }> {
      const found = isId('event', eventId)
        ? (await db.send(new GetCommand({ TableName: tableName, Key: keys.event(eventId), ConsistentRead: true }))).Item
        : undefined;
      if (!found) throw new NotFoundError(`Event ${eventId} does not exist`);
      const resendId = `rs${Date.now().toString(36)}${randomUUID().slice(0, 8)}`;
      const event: OutboxEvent = {
        envelope: storedEnvelope(found.envelope),
        orgId: found.orgId,
        ...(found.targetUrls ? { targetUrls: found.targetUrls } : {}),
      };
      // A transaction of one item: an audited resend's record rides it (shared/db/audit-trail.ts).
      await transactWrite(db, [
        {
          Put: {
            TableName: tableName,
            Item: {
              ...eventResendEntity.item({ resendId, ...event, ...(subscriptionId ? { subscriptionId } : {}), requestedAt: isoMillis() }),
              envelope: packEnvelope(event.envelope),
              [TTL_ATTRIBUTE]: found[TTL_ATTRIBUTE],
            },
          },
        },
      ]);
      return { id: eventId, resendId };
    },

    /** The events API: a page of the event's attempts, oldest first: one Query of at most limit + 1 items (a cursor adds one GetItem). */
    attemptPage(eventId: string, request: PageRequest): Promise<Page<StoredAttempt>> {
      return listPage<StoredAttempt>(
        db,
        tableName,
        {
          index: 'table',
          partitions: [keys.event(eventId).PK],
          sortKeyPrefix: keys.deliveryAttemptsPrefix,
          oldestFirst: true,
          async resolveCursor(id) {
            const name = attemptNamed(id);
            if (!name) return undefined;
            const key = keys.deliveryAttempt(eventId, name);
            const found = await db.send(new GetCommand({ TableName: tableName, Key: key, ProjectionExpression: '#sk', ExpressionAttributeNames: { '#sk': KEY.sk } }));
            return found.Item ? key.SK : undefined;
          },
        },
        request,
      );
    },

    /** The dashboard (DeliveryLog): the scope's most recent attempts, read as described above. */
    async recentDeliveries(principal: Principal, limit: number) {
      const events = await newestOnGsi1(keys.eventList(scopeOf(principal.orgId, principal.mode)), DELIVERY_EVENT_WINDOW, { '#id': INDEXES.gsi1.sk, '#type': 'type' });
      const attempts = await Promise.all(events.map((event) => attemptsOfEvent(String(event[INDEXES.gsi1.sk]), String(event.type ?? ''))));
      return newestAttemptsFirst(attempts.flat()).slice(0, limit);
    },

    attemptsOf: async (eventId: string, eventType: string) => newestAttemptsFirst(await attemptsOfEvent(eventId, eventType)),

    /** One Query of the endpoint's attempts (GSI1 `WHK#{whk}#DLV`, in time order), newest first. */
    async attemptsOfEndpoint(endpointId: string, limit: number) {
      return attemptsIn(await newestOnGsi1([keys.subscriptionAttempts(endpointId)], limit));
    },

    /**
     * The link family's events of the scope (the own list of `transactions.payment_link.*`),
     * newest first, from `startingAfter` down to `sinceId` (the link's creation), those whose
     * `data.id` is the link's (read from the unpacked envelope: a filter expression cannot see
     * into packed bytes, and would not spare read units anyway): at most LINK_EVENT_WINDOW events read per call, whatever matches,
     * shared out over the list's sub-partitions, read at once. What every sub-partition has read
     * down to is complete; `next` continues below it.
     */
    async linkEvents(principal: Principal, linkId: string, sinceId: string, limit: number, startingAfter?: string): Promise<LinkEvents> {
      // `transactions.payment_link.`: the family every event about a link belongs to.
      const family = typePrefixes(PAYMENT_LINK_EVENT.created).at(-1)!;
      const source = keys.eventPrefixListApart(scopeOf(principal.orgId, principal.mode), family)!;
      const window = Math.ceil(LINK_EVENT_WINDOW / source.partitions.length);
      const read = await Promise.all(source.partitions.map((partition) => linkEventsIn(INDEXES[source.index], partition, { linkId, sinceId, limit, startingAfter, window })));
      // Each sub-partition that stopped before its end was read down to its last key; below the
      // highest of those, another one may hold events not read yet.
      const stops = read.flatMap((partition) => (partition.readTo === undefined ? [] : [partition.readTo]));
      const complete = stops.length === 0 ? undefined : stops.reduce((highest, key) => (key > highest ? key : highest));
      const found = read
        .flatMap((partition) => partition.events)
        .filter((event) => complete === undefined || event.id >= complete)
        .sort((a, b) => (a.id < b.id ? 1 : -1));
      if (found.length > limit) return { events: found.slice(0, limit), next: found[limit - 1].id };
      return { events: found, ...(complete !== undefined ? { next: complete } : {}) };
    },
  };

  /**
   * One sub-partition of a link family's events, newest first, from `startingAfter` (itself left
   * out) down to `sinceId`, those of the link: until more than `limit` match, `window` are read
   * or it ends (`readTo`: the last key read, when it did not end).
   */
  async function linkEventsIn(
    index: { name: string; pk: string; sk: string },
    partition: string,
    options: { linkId: string; sinceId: string; limit: number; startingAfter?: string; window: number },
  ): Promise<{ events: LinkEvents['events']; readTo?: string }> {
    const { startingAfter } = options;
    const events: LinkEvents['events'] = [];
    let read = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index.name,
          // BETWEEN is inclusive: the cursor itself comes back first and is skipped below.
          KeyConditionExpression: startingAfter ? '#pk = :pk AND #sk BETWEEN :since AND :before' : '#pk = :pk AND #sk >= :since',
          ExpressionAttributeNames: { '#pk': index.pk, '#sk': index.sk, '#envelope': 'envelope' },
          ExpressionAttributeValues: { ':pk': partition, ':since': options.sinceId, ...(startingAfter ? { ':before': startingAfter } : {}) },
          ProjectionExpression: '#sk, #envelope',
          ScanIndexForward: false,
          Limit: options.window - read,
          ExclusiveStartKey: startKey,
        }),
      );
      read += page.ScannedCount ?? 0;
      startKey = page.LastEvaluatedKey;
      for (const item of page.Items ?? []) {
        const envelope = storedEnvelope(item.envelope);
        if (envelope.data.id === options.linkId && envelope.id !== startingAfter) events.push({ id: envelope.id, type: envelope.type, triggeredAt: envelope.triggered_at });
      }
    } while (startKey && events.length <= options.limit && read < options.window);
    return { events, ...(startKey ? { readTo: String(startKey[index.sk]) } : {}) };
  }
  return repository satisfies DeliveryJournal & DeliveryLog;
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;

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
