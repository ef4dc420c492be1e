import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import {
  deadLetterOf,
  deliveryKey,
  type DeadLetter,
  type AttemptRecord,
  type DeliveryJournal,
  type DeliveryStatus,
  type DeliveryTask,
} from '../domain/webhook-delivery';
import { NotFoundError } from '../errors';
import { EVENT_RETENTION_DAYS, type OutboxEvent } from '../events';
import { isId } from '../ids';
import { isoMillis } from '../time';
import { conditionalWrite } from './conditional';
import { deadLetterEntity, deliveryAttemptEntity, deliveryEntity, eventResendEntity } from './entities';
import * as keys from './keys';
import { queryAll } from './query-all';
import { INDEXES, KEY, TTL_ATTRIBUTE } from './table';
import { IF_NEW } from './entity';

/** Delivery records live as long as their event. */
const expiresAt = (task: DeliveryTask) =>
  Math.floor(Date.parse(task.event.envelope.triggered_at) / 1000) + EVENT_RETENTION_DAYS * 86_400;

const SETTLED: DeliveryStatus[] = ['delivered', 'dead', 'canceled'];

/** A queued delivery of the local stack and when its next attempt is due. */
export interface QueuedDelivery {
  task: DeliveryTask;
  dueAt: number;
}

const stateKey = (task: DeliveryTask) => keys.deliveryState(task.event.envelope.id, deliveryKey(task));
const dueSortKey = (task: DeliveryTask, dueAt: number) => keys.webhookRetrySortKey(isoMillis(dueAt), task.event.envelope.id, deliveryKey(task));

/*
 * The delivery records of the table, under the event's partition `EVT#{evt}`:
 * - `DLV#{time}#{attempt}#{target}`: one item per attempt, in time order (keys.deliveryAttempt);
 * - `DELIVERY#{target}[#{resend}]`: the delivery's outcome, which makes duplicates harmless.
 *   In the local stack the same item is also the durable queue entry (task + DUE keys).
 * Each store below is what one kind of caller writes: the delivery function bundles the
 * journal only, the resend operation the resend requests only.
 */

/** Each delivery's outcome and attempts: what every attempt reads and writes, in AWS and locally. */
export function createDeliveryJournal(db: DynamoDBDocumentClient, tableName: string): DeliveryJournal {
  return {
    async isSettled(eventId, key) {
      const result = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.deliveryState(eventId, key),
          ProjectionExpression: '#status',
          ExpressionAttributeNames: { '#status': 'status' },
          ConsistentRead: true,
        }),
      );
      return SETTLED.includes(result.Item?.status as DeliveryStatus);
    },

    async recordAttempt(task, record: AttemptRecord) {
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

    /** Upserts the outcome and takes the delivery out of the local queue's due list. */
    async settle(task, status) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: stateKey(task),
          UpdateExpression:
            'SET #status = :status, #attempts = :attempts, #targetKey = :targetKey, #settledAt = :now, #ttl = :ttl REMOVE #duePk, #dueSk, #task',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#attempts': 'attempts',
            '#targetKey': 'targetKey',
            '#settledAt': 'settledAt',
            '#ttl': TTL_ATTRIBUTE,
            '#duePk': INDEXES.due.pk,
            '#dueSk': INDEXES.due.sk,
            '#task': 'task',
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
  };
}

/** The local stack's durable delivery queue and dead-letter store (SQS and its DLQ in AWS). */
export function createTableDeliveryQueue(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /**
     * Local queue: claims a delivery for the queue. False when it already exists (a duplicate
     * publish of the same event): the first claim's entry is delivered, or recovered on restart.
     */
    async claim(task: DeliveryTask, dueAt: number): Promise<boolean> {
      return conditionalWrite(
        async () => {
          await db.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...deliveryEntity.item({ status: 'pending', targetKey: task.target.key, task }, { deliveryKey: deliveryKey(task), dueAt: isoMillis(dueAt) }),
                [TTL_ATTRIBUTE]: expiresAt(task),
              },
              ...IF_NEW,
              ReturnValuesOnConditionCheckFailure: 'NONE',
            }),
          );
          return true;
        },
        () => false,
      );
    },

    /** Local queue: the next attempt of a pending delivery and when it is due. */
    async reschedule(task: DeliveryTask, dueAt: number): Promise<void> {
      await conditionalWrite(
        () =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: stateKey(task),
              UpdateExpression: 'SET #task = :task, #duePk = :duePk, #dueSk = :dueSk',
              ConditionExpression: '#status = :pending',
              ExpressionAttributeNames: { '#task': 'task', '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk, '#status': 'status' },
              ExpressionAttributeValues: {
                ':task': task,
                ':duePk': keys.webhookRetryDue,
                ':dueSk': dueSortKey(task, dueAt),
                ':pending': 'pending',
              },
              ReturnValuesOnConditionCheckFailure: 'NONE',
            }),
          ),
        // Settled meanwhile by a twin delivery: nothing left to schedule.
        () => undefined,
      );
    },

    /** Local queue: every pending delivery (restart recovery), soonest first. */
    async pending(): Promise<QueuedDelivery[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        IndexName: INDEXES.due.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.due.pk },
        ExpressionAttributeValues: { ':pk': keys.webhookRetryDue },
      });
      return items.map((item) => ({ task: item.task as DeliveryTask, dueAt: Date.parse(String(item[INDEXES.due.sk]).slice(0, 24)) }));
    },

    /** Local dead-letter store: a reference to the event, the target and every attempt. */
    async park(task: DeliveryTask): Promise<void> {
      const parkedAt = isoMillis();
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: deadLetterEntity.item({ parkedAt, deadLetter: deadLetterOf(task, parkedAt) }, { deliveryKey: deliveryKey(task) }),
        }),
      );
    },

    /** Local dead-letter store, newest first. */
    async deadLetters(limit = 100): Promise<DeadLetter[]> {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': KEY.pk },
          ExpressionAttributeValues: { ':pk': keys.webhookDeadLetters },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (page.Items ?? []).map((item) => item.deadLetter as DeadLetter);
    },
  };
}

export type TableDeliveryQueue = ReturnType<typeof createTableDeliveryQueue>;

/** Replays of an event's deliveries (`POST /v1/events/{id}/resend`, `ops event resend`). */
export function createResendRequests(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /**
     * `ops event resend`: writes a replay request next to the event. The table stream carries
     * it to the publisher like a new event, so a replay takes the same path in AWS and locally.
     */
    async requestResend(eventId: string, subscriptionId?: string): Promise<{ id: string; resendId: string }> {
      const found = isId('event', eventId)
        ? (await db.send(new GetCommand({ TableName: tableName, Key: keys.event(eventId), ConsistentRead: true }))).Item
        : undefined;
      if (!found) throw new NotFoundError(`Event ${eventId} does not exist`);
      const resendId = `rs${Date.now().toString(36)}${randomUUID().slice(0, 8)}`;
      const event: OutboxEvent = {
        envelope: found.envelope,
        orgId: found.orgId,
        ...(found.targetUrls ? { targetUrls: found.targetUrls } : {}),
      };
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...eventResendEntity.item({ resendId, ...event, ...(subscriptionId ? { subscriptionId } : {}), requestedAt: isoMillis() }),
            [TTL_ATTRIBUTE]: found[TTL_ATTRIBUTE],
          },
        }),
      );
      return { id: eventId, resendId };
    },
  };
}

export type ResendRequests = ReturnType<typeof createResendRequests>;

/** Every delivery store at once: the operator's commands and the tests. */
export function createDeliveryRepository(db: DynamoDBDocumentClient, tableName: string) {
  return { journal: createDeliveryJournal(db, tableName), ...createTableDeliveryQueue(db, tableName), ...createResendRequests(db, tableName) };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
