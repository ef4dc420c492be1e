import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { NotFoundError } from '../errors';
import { newId } from '../ids';
import type { SealingContext, SecretSealer } from '../domain/sealing';
import { EndpointLimitError, ENDPOINTS_PER_SCOPE, type EndpointChanges } from '../domain/webhook-endpoints';
import { endpointSecretContext, newSigningSecret, secretsInForce, urlSecretContext, type SubscriptionWithSecret, type WebhookSubscription } from '../domain/webhooks';
import type { PageRequest } from '../pagination';
import { isoMillis } from '../time';
import { cancellationReasons, conditionalWrite, transactRetried } from './conditional';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import { webhookSubscriptionCountEntity, webhookSubscriptionEntity, webhookUrlSecretEntity } from './entities';
import * as keys from './keys';
import { scopeListPage } from './list-page';
import { queryAll } from './query-all';
import { INDEXES, KEY } from './table';

/*
 * Webhook subscriptions, the API's webhook endpoints (`ORG#{org}` / `WHK#{mode}#{whk}`, listed
 * on GSI1, found by id alone through GSI3), their count per organization and mode, and the
 * per-organization+mode secret that signs deliveries to per-object URLs. Every signing secret
 * is stored sealed (`sealer`, the stage's KMS key) with a context naming its owner; it is
 * opened only to sign (the deliverer) or to show it (`ops webhook url-secret`).
 */

/**
 * The secrets of an item written before they were sealed, in plain: deliveries sign with them
 * until `ops webhook seal-secrets` seals them (docs/decisions.md 97), and a roll seals them.
 */
interface Unsealed {
  secret?: string;
  previousSecret?: string;
}

/** What a new subscription is made of; the repository adds its id, secret, status and times. */
export interface SubscriptionInput {
  orgId: string;
  mode: Mode;
  url: string;
  events: string[];
  description?: string | null;
}

/** What deliveries, the resend and the pages read: subscriptions, never a secret opened. */
export function createSubscriptionReads(db: DynamoDBDocumentClient, tableName: string) {
  const reads = {
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
     * (its state, URL and sealed secrets now), and the API's retrieve. Another organization's or mode's
     * id names no item here.
     */
    async get(orgId: string, mode: Mode, id: string): Promise<WebhookSubscription | undefined> {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: keys.webhookSubscription(orgId, mode, id), ConsistentRead: true }),
      );
      return stripKeys<WebhookSubscription>(result.Item);
    },
  };
  return {
    ...reads,
    /** The API's list: the caller's organization and mode, newest first (GSI1 `{scope}#WHK`). */
    page(caller: Principal, request: PageRequest) {
      return scopeListPage<WebhookSubscription>(db, tableName, webhookSubscriptionEntity, (id) => reads.get(caller.orgId, caller.mode, id), caller, request);
    },
  };
}

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;

/** A stored secret: opened when sealed, as it is when written in plain before sealing. */
const openStored = async (sealer: SecretSealer, sealed: string | undefined, plain: string | undefined, context: SealingContext): Promise<string> =>
  sealed === undefined ? plain! : sealer.open(sealed, context);

/**
 * A subscription's secrets that sign a delivery at `at` (`secretsInForce`), opened with its
 * context; one stored in plain (before sealing) as it is.
 */
export function openSigningSecrets(sealer: SecretSealer, subscription: WebhookSubscription, at: Date): Promise<string[]> {
  const { secret, previousSecret } = subscription as WebhookSubscription & Unsealed;
  const hasPrevious = subscription.sealedPreviousSecret !== undefined || previousSecret !== undefined;
  const inForce = secretsInForce(
    {
      current: { sealed: subscription.sealedSecret, plain: secret },
      previous: hasPrevious ? { sealed: subscription.sealedPreviousSecret, plain: previousSecret } : undefined,
      previousExpiresAt: subscription.previousSecretExpiresAt,
    },
    at,
  );
  const context = endpointSecretContext(subscription);
  return Promise.all(inForce.map(({ sealed, plain }) => openStored(sealer, sealed, plain, context)));
}

/**
 * The signing secrets opened, what only the functions that sign deliveries (and the operator's
 * `webhook url-secret`) read: an endpoint's secrets in force, and the per-object URLs' secret of
 * an organization and mode (created on first use).
 */
export function createSigningSecrets(db: DynamoDBDocumentClient, tableName: string, sealer: SecretSealer) {
  const open = (sealed: string | undefined, plain: string | undefined, context: SealingContext) => openStored(sealer, sealed, plain, context);

  return {
    /** The subscription's secrets that sign a delivery at `at`, opened, newest first (a rolled secret's predecessor while it lasts). */
    signingSecrets: (subscription: WebhookSubscription, at: Date) => openSigningSecrets(sealer, subscription, at),

    /**
     * The secret that signs deliveries to per-object URLs of this organization and mode, opened;
     * created (and sealed) on first use. Two racing creators agree: the conditional put lets one
     * win and the other opens the winner's secret.
     */
    async urlSecret(orgId: string, mode: Mode): Promise<string> {
      const context = urlSecretContext(orgId, mode);
      const existing = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookUrlSecret(orgId, mode), ConsistentRead: true }));
      if (existing.Item) return open(existing.Item.sealedSecret as string | undefined, existing.Item.secret as string | undefined, context);
      const secret = newSigningSecret();
      const sealedSecret = await sealer.seal(secret, context);
      return conditionalWrite(
        async () => {
          await db.send(
            new PutCommand({
              TableName: tableName,
              Item: webhookUrlSecretEntity.item({ orgId, mode, sealedSecret, createdAt: isoMillis() }),
              ...IF_NEW,
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return secret;
        },
        (old) => open(old?.sealedSecret as string | undefined, old?.secret as string | undefined, context),
      );
    },
  };
}

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

/**
 * Subscriptions with their writes: the webhook endpoint use cases, the operator's commands and
 * the tests. `sealer` seals the secrets a creation or a roll makes (their functions declare
 * `sealedSecrets: ['seal']`); nothing here opens one.
 */
export function createWebhookRepository(db: DynamoDBDocumentClient, tableName: string, sealer: SecretSealer) {
  const reads = createSubscriptionReads(db, tableName);

  /**
   * A change of an existing subscription, read first and written in a transaction (the change's
   * audit record rides it: shared/db/audit-trail.ts) under the condition that it is still as
   * read: the record after it, or undefined when there is none. A write in between (another
   * change, a deletion) sends it round again. `change` makes the new fields from the record read
   * (a roll keeps the secret it replaces as `sealedPreviousSecret`); a field it sets to
   * undefined is removed.
   */
  async function updateExisting<T extends WebhookSubscription = WebhookSubscription>(
    orgId: string,
    mode: Mode,
    id: string,
    change: (current: WebhookSubscription & Unsealed) => Promise<Partial<T> & Unsealed> | (Partial<T> & Unsealed),
  ): Promise<T | undefined> {
    for (;;) {
      const current = await reads.get(orgId, mode, id);
      if (!current) return undefined;
      const set = await change(current);
      const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
      const values: Record<string, unknown> = { ':read': current.updatedAt };
      const assignments: string[] = [];
      const removals: string[] = [];
      Object.entries(set).forEach(([name, value], n) => {
        names[`#a${n}`] = name;
        if (value === undefined) return removals.push(`#a${n}`);
        values[`:a${n}`] = value;
        assignments.push(`#a${n} = :a${n}`);
      });
      try {
        // A deletion's or another change's transaction holding the item refuses this one for a moment: retried.
        await transactRetried(db, [
          {
            Update: {
              TableName: tableName,
              Key: keys.webhookSubscription(orgId, mode, id),
              UpdateExpression: `SET ${assignments.join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
              ConditionExpression: '#updatedAt = :read',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
        ]);
        return { ...current, ...set } as T;
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code !== 'ConditionalCheckFailed') throw error;
      }
    }
  }

  /** Deletes a subscription and lowers its scope's count, in one transaction: false when it did not exist. */
  async function remove(orgId: string, mode: Mode, id: string): Promise<boolean> {
    try {
      await transactRetried(db, [
        {
          Delete: {
            TableName: tableName,
            Key: keys.webhookSubscription(orgId, mode, id),
            ...IF_EXISTS,
          },
        },
        countChange(tableName, orgId, mode, -1),
      ]);
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  return {
    ...reads,

    /**
     * Creates an enabled subscription with a fresh signing secret, sealed, in one transaction
     * with a check that the organization exists and the raise of its scope's count under the
     * limit (EndpointLimitError beyond). Creations in one scope conflict on the count: retried.
     * The answer carries the secret in plain, for the creation's answer to show once.
     */
    async create(input: SubscriptionInput): Promise<SubscriptionWithSecret> {
      const now = isoMillis();
      const id = newId('webhook');
      const secret = newSigningSecret();
      const subscription: WebhookSubscription = {
        id,
        orgId: input.orgId,
        mode: input.mode,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        status: 'enabled',
        sealedSecret: await sealer.seal(secret, endpointSecretContext({ orgId: input.orgId, id })),
        createdAt: now,
        updatedAt: now,
      };
      try {
        // Creations in one organization and mode meet on its item and its count: their transactions conflict.
        await transactRetried(db, [
          {
            ConditionCheck: {
              TableName: tableName,
              Key: keys.organization(input.orgId),
              ...IF_EXISTS,
            },
          },
          countChange(tableName, input.orgId, input.mode, 1),
          { Put: { TableName: tableName, Item: webhookSubscriptionEntity.item(subscription) } },
        ]);
      } catch (error) {
        const [organization, count] = cancellationReasons(error) ?? [];
        if (organization?.code === 'ConditionalCheckFailed') throw new NotFoundError(`Organization ${input.orgId} does not exist`);
        if (count?.code === 'ConditionalCheckFailed') throw new EndpointLimitError();
        throw error;
      }
      return { ...subscription, secret };
    },

    /** Applies `changes`; undefined when the subscription does not exist. */
    update(orgId: string, mode: Mode, id: string, changes: EndpointChanges) {
      return updateExisting<WebhookSubscription>(orgId, mode, id, (current) => ({ ...changes, updatedAt: laterThan(current.updatedAt) }));
    },

    /**
     * A new secret, sealed: the current one becomes the previous secret, signing beside the new
     * one until `previousExpiresAt` (a roll replaces an earlier previous secret). The current
     * secret moves sealed as it is (same endpoint, same context), never opened; one stored in
     * plain is sealed now. The answer carries the new secret in plain, for the roll's answer.
     */
    async rollSecret(orgId: string, mode: Mode, id: string, previousExpiresAt: string): Promise<SubscriptionWithSecret | undefined> {
      const secret = newSigningSecret();
      const context = endpointSecretContext({ orgId, id });
      const sealedSecret = await sealer.seal(secret, context);
      return updateExisting<SubscriptionWithSecret>(orgId, mode, id, async (current) => ({
        sealedSecret,
        sealedPreviousSecret: current.sealedSecret ?? (await sealer.seal(current.secret!, context)),
        previousSecretExpiresAt: previousExpiresAt,
        updatedAt: laterThan(current.updatedAt),
        ...(current.secret !== undefined || current.previousSecret !== undefined ? { secret: undefined, previousSecret: undefined } : {}),
      })).then((rolled) => rolled && { ...rolled, secret });
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

/**
 * `ops webhook seal-secrets`: seals every signing secret still stored in plain (items written
 * before secrets were sealed), each under the context of its endpoint or of its organization
 * and mode, and removes the plain one, on the condition that it is still the one read (a roll
 * meanwhile sealed it already). The operator's one-off, so it scans: no function of the service
 * scans the table, nor may (lib/table-access.ts). Runs again without harm: what is sealed
 * stays as it is. Answers how many items it sealed.
 */
export async function sealPlainSecrets(db: DynamoDBDocumentClient, tableName: string, sealer: SecretSealer): Promise<number> {
  let sealed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '(#entity = :subscription OR #entity = :urlSecret) AND (attribute_exists(#secret) OR attribute_exists(#previousSecret))',
        ExpressionAttributeNames: { '#entity': 'entity', '#secret': 'secret', '#previousSecret': 'previousSecret' },
        ExpressionAttributeValues: { ':subscription': webhookSubscriptionEntity.definition.name, ':urlSecret': webhookUrlSecretEntity.definition.name },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const { secret, previousSecret } = item as Unsealed;
      const context =
        item.entity === webhookSubscriptionEntity.definition.name
          ? endpointSecretContext({ orgId: item.orgId as string, id: item.id as string })
          : urlSecretContext(item.orgId as string, item.mode as Mode);
      const sets = {
        ...(secret !== undefined ? { sealedSecret: await sealer.seal(secret, context) } : {}),
        ...(previousSecret !== undefined ? { sealedPreviousSecret: await sealer.seal(previousSecret, context) } : {}),
      };
      const names = Object.keys(sets);
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { [KEY.pk]: item[KEY.pk], [KEY.sk]: item[KEY.sk] },
            UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} REMOVE #secret, #previousSecret`,
            // The plain secrets still the ones read: a roll in between sealed them itself.
            ConditionExpression: `${secret !== undefined ? '#secret = :secret' : 'attribute_not_exists(#secret)'} AND ${previousSecret !== undefined ? '#previousSecret = :previousSecret' : 'attribute_not_exists(#previousSecret)'}`,
            ExpressionAttributeNames: { '#secret': 'secret', '#previousSecret': 'previousSecret', ...Object.fromEntries(names.map((name) => [`#${name}`, name])) },
            ExpressionAttributeValues: {
              ...Object.fromEntries(Object.entries(sets).map(([name, value]) => [`:${name}`, value])),
              ...(secret !== undefined ? { ':secret': secret } : {}),
              ...(previousSecret !== undefined ? { ':previousSecret': previousSecret } : {}),
            },
          }),
        );
        sealed++;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return sealed;
}
