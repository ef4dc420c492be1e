import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { NotFoundError } from '../errors';
import { newId } from '../ids';
import { EndpointLimitError, ENDPOINTS_PER_SCOPE, type EndpointChanges } from '../domain/webhook-endpoints';
import { newSigningSecret, type WebhookSubscription } from '../domain/webhooks';
import type { PageRequest } from '../pagination';
import { isoMillis } from '../time';
import { cancellationReasons, conditionalWrite, withConflictRetry } from './conditional';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import { webhookSubscriptionCountEntity, webhookSubscriptionEntity, webhookUrlSecretEntity } from './entities';
import * as keys from './keys';
import { scopeListPage } from './list-page';
import { transactWrite } from './side-effects';
import { queryAll } from './query-all';
import { INDEXES, KEY } from './table';

/*
 * Webhook subscriptions, the API's webhook endpoints (`ORG#{org}` / `WHK#{mode}#{whk}`, listed
 * on GSI1, found by id alone through GSI3), their count per organization and mode, and the
 * per-organization+mode secret that signs deliveries to per-object URLs.
 */

/** What a new subscription is made of; the repository adds its id, secret, status and times. */
export interface SubscriptionInput {
  orgId: string;
  mode: Mode;
  url: string;
  events: string[];
  description?: string | null;
}

/** What deliveries and the resend read: subscriptions and the URL secret (created on first use). */
export function createSubscriptionReads(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** The subscriptions of an organization, of one mode or both (strongly consistent: the fan-out's read). */
    async list(orgId: string, mode?: Mode): Promise<WebhookSubscription[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
        ExpressionAttributeValues: {
          ':pk': keys.organization(orgId).PK,
          ':prefix': keys.webhookSubscriptionsPrefix(mode),
        },
        ConsistentRead: true,
      });
      return items.map((item) => stripKeys<WebhookSubscription>(item)!);
    },

    /** A subscription of the operator's commands, by its id alone. */
    async findById(id: string): Promise<WebhookSubscription | undefined> {
      const [item] = await queryAll(db, {
        TableName: tableName,
        IndexName: INDEXES.gsi3.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi3.pk },
        ExpressionAttributeValues: { ':pk': keys.webhookIdLookup(id) },
      });
      return stripKeys<WebhookSubscription>(item);
    },

    /**
     * A subscription read by its full key (strongly consistent): what each delivery attempt reads
     * (its state, URL and secrets now), and the API's retrieve. Another organization's or mode's
     * id names no item here.
     */
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
      const existing = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookUrlSecret(orgId, mode), ConsistentRead: true }));
      if (existing.Item) return existing.Item.secret as string;
      const secret = newSigningSecret();
      return conditionalWrite(
        async () => {
          await db.send(
            new PutCommand({
              TableName: tableName,
              Item: webhookUrlSecretEntity.item({ orgId, mode, secret, createdAt: isoMillis() }),
              ...IF_NEW,
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

/** A change of the count of an organization and mode's subscriptions, inside a transaction. */
function countChange(tableName: string, orgId: string, mode: Mode, delta: 1 | -1) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.webhookSubscriptionCount(orgId, mode),
      UpdateExpression: 'SET #entity = :entity ADD #count :delta',
      // A new subscription only while the count is under the limit.
      ...(delta > 0 ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit' } : {}),
      ExpressionAttributeNames: { '#entity': 'entity', '#count': 'count' },
      ExpressionAttributeValues: { ':entity': webhookSubscriptionCountEntity.definition.name, ':delta': delta, ...(delta > 0 ? { ':limit': ENDPOINTS_PER_SCOPE } : {}) },
    },
  };
}

/** Now, or a millisecond after `previous` when the clock has not moved past it: each change's `updatedAt` differs from the one it replaced, so the next change's condition tells them apart. */
function laterThan(previous: string): string {
  const now = Date.now();
  return isoMillis(Math.max(now, Date.parse(previous) + 1));
}

/** Subscriptions with their writes: the webhook endpoint use cases, the operator's commands and the tests. */
export function createWebhookRepository(db: DynamoDBDocumentClient, tableName: string) {
  const reads = createSubscriptionReads(db, tableName);

  /**
   * A change of an existing subscription, read first and written in a transaction (the change's
   * audit record rides it: shared/db/audit-trail.ts) under the condition that it is still as
   * read: the record after it, or undefined when there is none. A write in between (another
   * change, a deletion) sends it round again. `change` makes the new fields from the record read
   * (a roll keeps the secret it replaces as `previousSecret`).
   */
  async function updateExisting(orgId: string, mode: Mode, id: string, change: (current: WebhookSubscription) => Partial<WebhookSubscription>): Promise<WebhookSubscription | undefined> {
    for (;;) {
      const current = await reads.get(orgId, mode, id);
      if (!current) return undefined;
      const set = change(current);
      const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
      const values: Record<string, unknown> = { ':read': current.updatedAt };
      const assignments = Object.entries(set).map(([name, value], n) => {
        names[`#a${n}`] = name;
        values[`:a${n}`] = value;
        return `#a${n} = :a${n}`;
      });
      try {
        // A deletion's or another change's transaction holding the item refuses this one for a moment: retried.
        await withConflictRetry(() =>
          transactWrite(db, [
            {
              Update: {
                TableName: tableName,
                Key: keys.webhookSubscription(orgId, mode, id),
                UpdateExpression: `SET ${assignments.join(', ')}`,
                ConditionExpression: '#updatedAt = :read',
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
              },
            },
          ]),
        );
        return { ...current, ...set };
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code !== 'ConditionalCheckFailed') throw error;
      }
    }
  }

  /** Deletes a subscription and lowers its scope's count, in one transaction: false when it did not exist. */
  async function remove(orgId: string, mode: Mode, id: string): Promise<boolean> {
    try {
      await withConflictRetry(() =>
        transactWrite(db, [
          {
            Delete: {
              TableName: tableName,
              Key: keys.webhookSubscription(orgId, mode, id),
              ...IF_EXISTS,
            },
          },
          countChange(tableName, orgId, mode, -1),
        ]),
      );
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  return {
    ...reads,

    /**
     * Creates an enabled subscription with a fresh signing secret, in one transaction with a
     * check that the organization exists and the raise of its scope's count under the limit
     * (EndpointLimitError beyond). Creations in one scope conflict on the count: retried.
     */
    async create(input: SubscriptionInput): Promise<WebhookSubscription> {
      const now = isoMillis();
      const subscription: WebhookSubscription = {
        id: newId('webhook'),
        orgId: input.orgId,
        mode: input.mode,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        status: 'enabled',
        secret: newSigningSecret(),
        createdAt: now,
        updatedAt: now,
      };
      try {
        // Creations in one organization and mode meet on its item and its count: their transactions conflict.
        await withConflictRetry(() =>
          transactWrite(db, [
            {
              ConditionCheck: {
                TableName: tableName,
                Key: keys.organization(input.orgId),
                ...IF_EXISTS,
              },
            },
            countChange(tableName, input.orgId, input.mode, 1),
            { Put: { TableName: tableName, Item: webhookSubscriptionEntity.item(subscription) } },
          ]),
        );
      } catch (error) {
        const [organization, count] = cancellationReasons(error) ?? [];
        if (organization?.code === 'ConditionalCheckFailed') throw new NotFoundError(`Organization ${input.orgId} does not exist`);
        if (count?.code === 'ConditionalCheckFailed') throw new EndpointLimitError();
        throw error;
      }
      return subscription;
    },

    /** The API's list: the caller's organization and mode, newest first (GSI1 `{scope}#WHK`). */
    page(caller: Principal, request: PageRequest) {
      return scopeListPage<WebhookSubscription>(db, tableName, webhookSubscriptionEntity, (id) => reads.get(caller.orgId, caller.mode, id), caller, request);
    },

    /** Applies `changes`; undefined when the subscription does not exist. */
    update(orgId: string, mode: Mode, id: string, changes: EndpointChanges) {
      return updateExisting(orgId, mode, id, (current) => ({ ...changes, updatedAt: laterThan(current.updatedAt) }));
    },

    /**
     * A new secret: the current one becomes the previous secret, signing beside the new one until
     * `previousExpiresAt` (a roll replaces an earlier previous secret).
     */
    rollSecret(orgId: string, mode: Mode, id: string, previousExpiresAt: string) {
      const secret = newSigningSecret();
      return updateExisting(orgId, mode, id, (current) => ({
        secret,
        previousSecret: current.secret,
        previousSecretExpiresAt: previousExpiresAt,
        updatedAt: laterThan(current.updatedAt),
      }));
    },

    remove,

    /** `ops webhook delete`: by id alone. */
    async delete(id: string): Promise<WebhookSubscription> {
      const found = await reads.findById(id);
      if (!found || !(await remove(found.orgId, found.mode, found.id))) throw new NotFoundError(`Webhook subscription ${id} does not exist`);
      return found;
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
