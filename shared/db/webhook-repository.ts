import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../auth/principal';
import { NotFoundError } from '../errors';
import { newId } from '../ids';
import { newSigningSecret, type SubscriptionInput, type WebhookSubscription } from '../domain/webhooks';
import { isoMillis } from '../time';
import { cancellationReasons, conditionalWrite, withConflictRetry } from './conditional';
import { stripKeys } from './entity';
import { webhookSubscriptionEntity } from './entities';
import * as keys from './keys';
import { queryAll } from './query-all';
import { INDEXES } from './table';

/*
 * Webhook subscriptions (`ORG#{org}` / `WHK#{mode}#{whk}`, found by id through GSI3) and the
 * per-organization+mode secret that signs deliveries to per-object URLs.
 */

/** What deliveries and the resend read: subscriptions and the URL secret (created on first use). */
export function createSubscriptionReads(db: DynamoDBDocumentClient, tableName: string) {
  async function findById(id: string): Promise<WebhookSubscription | undefined> {
    const [item] = await queryAll(db, {
      TableName: tableName,
      IndexName: INDEXES.gsi3.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': INDEXES.gsi3.pk },
      ExpressionAttributeValues: { ':pk': keys.webhookIdLookup(id) },
    });
    return stripKeys<WebhookSubscription>(item);
  }

  return {
    /** The subscriptions of an organization, of one mode or both. */
    async list(orgId: string, mode?: Mode): Promise<WebhookSubscription[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
        ExpressionAttributeValues: {
          ':pk': keys.organization(orgId).PK,
          ':prefix': keys.webhookSubscriptionsPrefix(mode),
        },
      });
      return items.map((item) => stripKeys<WebhookSubscription>(item)!);
    },

    findById,

    /** A subscription read by its full key (strongly consistent): what deliveries sign with. */
    async get(orgId: string, mode: Mode, id: string): Promise<WebhookSubscription | undefined> {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: keys.webhookSubscription(orgId, mode, id), ConsistentRead: true }),
      );
      return stripKeys<WebhookSubscription>(result.Item);
    },

    /**
     * The secret that signs deliveries to per-object URLs of this organization and mode,
     * created on first use. Two racing creators agree: the conditional put lets one win and
     * the other reads the winner's secret.
     */
    async urlSecret(orgId: string, mode: Mode): Promise<string> {
      const key = keys.webhookUrlSecret(orgId, mode);
      const existing = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
      if (existing.Item) return existing.Item.secret as string;
      const secret = newSigningSecret();
      return conditionalWrite(
        async () => {
          await db.send(
            new PutCommand({
              TableName: tableName,
              Item: { ...key, entity: 'webhook_url_secret', orgId, mode, secret, createdAt: isoMillis() },
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': 'PK' },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return secret;
        },
        (old) => old?.secret as string,
      );
    },
  };
}

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;

/** Subscriptions with their writes: the operator's commands and the tests. */
export function createWebhookRepository(db: DynamoDBDocumentClient, tableName: string) {
  const reads = createSubscriptionReads(db, tableName);
  return {
    ...reads,

    /**
     * Creates a subscription with a fresh signing secret, in one transaction with a check that
     * the organization exists.
     */
    async create(input: SubscriptionInput): Promise<WebhookSubscription> {
      const subscription: WebhookSubscription = {
        id: newId('webhook'),
        orgId: input.orgId,
        mode: input.mode,
        url: input.url,
        events: input.events,
        secret: newSigningSecret(),
        createdAt: isoMillis(),
      };
      try {
        // Creations in one organization check its item at the same time: their transactions conflict.
        await withConflictRetry(() =>
          db.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: keys.organization(input.orgId),
                    ConditionExpression: 'attribute_exists(#pk)',
                    ExpressionAttributeNames: { '#pk': 'PK' },
                  },
                },
                {
                  Put: {
                    TableName: tableName,
                    Item: webhookSubscriptionEntity.item(subscription),
                  },
                },
              ],
            }),
          ),
        );
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') {
          throw new NotFoundError(`Organization ${input.orgId} does not exist`);
        }
        throw error;
      }
      return subscription;
    },

    async delete(id: string): Promise<WebhookSubscription> {
      const found = await reads.findById(id);
      if (!found) throw new NotFoundError(`Webhook subscription ${id} does not exist`);
      await conditionalWrite(
        () =>
          db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: keys.webhookSubscription(found.orgId, found.mode, found.id),
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: { '#pk': 'PK' },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        () => {
          throw new NotFoundError(`Webhook subscription ${id} does not exist`);
        },
      );
      return found;
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
