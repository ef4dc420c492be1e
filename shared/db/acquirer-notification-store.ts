import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AcquirerNotification } from '../domain/acquirer';
import { withConflictRetry } from './conditional';
import { acquirerNotificationEntity } from './entities';
import { IF_NEW, literalPrefix, stripKeys } from './entity';
import * as keys from './keys';
import type { TransactAction } from './outbox';
import { KEY, TTL_ATTRIBUTE } from './table';

/** A notification as kept: what the acquirer said (in the port's words), and once processed, when and with what outcome. */
export interface StoredNotification {
  id: string;
  notification: AcquirerNotification;
  receivedAt: string;
  processedAt?: string;
  /** What processing did (`paid`, `canceled`, `refunded`, `duplicate`, `older`, `unmatched`…), for the runbooks. */
  outcome?: string;
  /** An unmatched notification's reason (`account`, `reference`, `amount`, `state`) and what it did not match, for the runbook. */
  unmatched?: { reason: string; why: string };
}

/** Kept longer than Adyen retries a notification (30 days), so a late repeat still finds it. */
const KEPT_DAYS = 60;

const NOTIFICATION_PARTITION = literalPrefix(acquirerNotificationEntity.definition.key.pk);
const NOTIFICATION_SORT_KEY = acquirerNotificationEntity.definition.key.sk;

/**
 * What the processing function takes from the table stream: a kept notification not processed
 * yet, new (INSERT) or asked to be processed again (MODIFY without `processedAt`, the runbook's
 * retry). The processed mark is itself a MODIFY, with `processedAt`: it is left out. These are
 * also the Lambda event-source filters, so nothing else invokes the function.
 */
export const NOTIFICATION_RECORD_FILTERS = [
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: {
      Keys: { PK: { S: [{ prefix: NOTIFICATION_PARTITION }] }, SK: { S: [NOTIFICATION_SORT_KEY] } },
      NewImage: { processedAt: { S: [{ exists: false }] } },
    },
  },
];

/**
 * The stream mapping's settings (the CDK stack's, and source mode's twin of it): batches of ten,
 * each failing notification retried this often (the batch bisected down to it), then handed to
 * the on-failure queue, which alarms; it stays kept and unprocessed for the runbook's retry.
 */
export const NOTIFICATION_MAPPING = { batchSize: 10, retryAttempts: 10 } as const;

/** A stream record as Lambda and the Streams API hand it over. */
export interface NotificationRecord {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, { S?: string } | undefined>; NewImage?: Record<string, unknown>; SequenceNumber?: string };
}

export function isNotificationRecord(record: NotificationRecord): boolean {
  const pk = record.dynamodb?.Keys?.PK?.S;
  return (record.eventName === 'INSERT' || record.eventName === 'MODIFY') && !!pk?.startsWith(NOTIFICATION_PARTITION) && record.dynamodb?.Keys?.SK?.S === NOTIFICATION_SORT_KEY;
}

export function storedNotificationOf(record: NotificationRecord): StoredNotification {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return stripKeys<StoredNotification>(unmarshall(record.dynamodb!.NewImage as any))!;
}

/** The acquirer's notifications: kept when they arrive, marked when processed. */
export function createAcquirerNotificationStore(db: DynamoDBDocumentClient, tableName: string) {
  const processedUpdate = (id: string, outcome: string, at: string, unmatched?: StoredNotification['unmatched']) => ({
    TableName: tableName,
    Key: keys.acquirerNotification(id),
    UpdateExpression: `SET #processedAt = :at, #outcome = :outcome${unmatched ? ', #unmatched = :unmatched' : ''}`,
    // Processed once: a second processing of it, however it came about, changes nothing.
    ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#processedAt)',
    ExpressionAttributeNames: { '#pk': KEY.pk, '#processedAt': 'processedAt', '#outcome': 'outcome', ...(unmatched ? { '#unmatched': 'unmatched' } : {}) },
    ExpressionAttributeValues: { ':at': at, ':outcome': outcome, ...(unmatched ? { ':unmatched': unmatched } : {}) },
  });

  return {
    /**
     * Keeps each notification that is not kept yet (conditional puts); a repeat of one is left as
     * it is, processed or not. Resolves once every one is durably written: only then may the
     * batch be acknowledged. Answers how many were new.
     */
    async keep(notifications: AcquirerNotification[], receivedAt: string): Promise<number> {
      const expires = Math.floor(Date.parse(receivedAt) / 1000) + KEPT_DAYS * 86_400;
      const kept = await Promise.all(
        notifications.map(async (notification) => {
          try {
            // A repeat may meet its first copy in the transaction that processes it: retried, it finds it kept.
            await withConflictRetry(() =>
              db.send(
                new PutCommand({
                  TableName: tableName,
                  Item: { ...acquirerNotificationEntity.item({ id: notification.id }), id: notification.id, notification, receivedAt, [TTL_ATTRIBUTE]: expires },
                  ...IF_NEW,
                }),
              ),
            );
            return 1;
          } catch (error) {
            if (error instanceof ConditionalCheckFailedException) return 0;
            throw error;
          }
        }),
      );
      return kept.reduce<number>((sum, one) => sum + one, 0);
    },

    async get(id: string): Promise<StoredNotification | undefined> {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.acquirerNotification(id), ConsistentRead: true }));
      return stripKeys<StoredNotification>(result.Item);
    },

    /** The processed mark, for the transaction of the change the notification makes: that transaction fails if it was processed before. */
    processedAction: (id: string, outcome: string, at: string): TransactAction => ({ Update: processedUpdate(id, outcome, at) }),

    /** Marks a notification processed that changes nothing (an unmatched one with its reason); false when it was processed before. */
    async markProcessed(id: string, outcome: string, at: string, unmatched?: StoredNotification['unmatched']): Promise<boolean> {
      try {
        await withConflictRetry(() => db.send(new UpdateCommand(processedUpdate(id, outcome, at, unmatched))));
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}

export type AcquirerNotificationStore = ReturnType<typeof createAcquirerNotificationStore>;
