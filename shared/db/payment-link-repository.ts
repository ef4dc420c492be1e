import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import {
  closesShards,
  foldsShards,
  PAID_SHARDS,
  StaleLinkError,
  withPaidShards,
  type PaidShard,
  type PaymentLink,
  type VersionedLink,
} from '../domain/payment-links';
import { type OutboxEvent } from '../events';
import { recordEvent, transactWithEvents, type TransactAction } from './outbox';
import { isId } from '../ids';
import { type PageRequest } from '../pagination';
import { scopeListPage } from './list-page';
import { cancellationReasons, withConflictRetry } from './conditional';
import { IF_NEW, literalPrefix, stripKeys } from './entity';
import { paymentLinkEntity, paymentLinkPaidShardEntity } from './entities';
import { queryDuePage } from './due';
import * as keys from './keys';
import { KEY } from './table';
import { isoMillis } from '../time';

/** The table item of a link at `version` (shared/db/entities.ts). */
export const paymentLinkItem = (link: PaymentLink, version: number) => paymentLinkEntity.item({ ...link, version });

const LINK_SORT_KEY = paymentLinkEntity.definition.key.sk;
const SHARDS_SORT_KEY = literalPrefix(paymentLinkPaidShardEntity.definition.key.sk);
const EVERY_SHARD = Array.from({ length: PAID_SHARDS }, (_, shard) => shard);

/** Reads and conditional writes of a listed count before it gives up (another writer was first each time). */
const LISTED_COUNT_ROUNDS = 5;

/**
 * A link with its paid counts summed from its item and its shards: one strongly consistent
 * Query of its partition from the shards' sort keys (`PAID#…`) to the link's (`PL`).
 */
export async function readPaymentLink(db: DynamoDBDocumentClient, tableName: string, id: string): Promise<VersionedLink | undefined> {
  if (!isId('paymentLink', id)) return undefined;
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :shards AND :link',
      ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
      ExpressionAttributeValues: { ':pk': keys.paymentLink(id).PK, ':shards': SHARDS_SORT_KEY, ':link': LINK_SORT_KEY },
      ConsistentRead: true,
    }),
  );
  const items = result.Items ?? [];
  const item = items.find((each) => each[KEY.sk] === LINK_SORT_KEY);
  if (!item) return undefined;
  return withPaidShards(linkItemRecord(item)!, items.filter((each) => each !== item).map((each) => stripKeys<PaidShard>(each)!));
}

/** The count a list shows of a link, stored on its item (`listedPaidCount`, below), apart from the item's own. */
interface ListedCount {
  listedPaidCount?: number;
}

/** The link item's record with its own paid count (the listed count is only for lists). */
function listedAsStored(record: VersionedLink & ListedCount): VersionedLink {
  const { listedPaidCount: _listed, ...link } = record;
  return link;
}

/** The record a link item holds, its own paid counts only (without its shards'). */
export function linkItemRecord(item: Record<string, unknown> | undefined): VersionedLink | undefined {
  return item && listedAsStored(stripKeys<VersionedLink>(item)!);
}

/**
 * The link as a list page shows it, from its item alone (product-decisions §2: one Query a
 * page): its own paid count, or the total over its shards as last refreshed when that is more
 * (`refreshListedCount`, which stores the paid times over them too; a paid payment on a shard
 * reaches it within moments).
 */
function listed(record: VersionedLink & ListedCount): VersionedLink {
  const link = listedAsStored(record);
  return { ...link, paidCount: Math.max(link.paidCount, record.listedPaidCount ?? 0) };
}

/**
 * Payment links in the table. Every write of a link is a Put conditioned on the version it
 * was read at (optimistic concurrency), in one transaction with its outbox events, so a change
 * and its events commit together; events about a link that change no link (checkout.requested,
 * checkout.denied, payment.reused) are written here too. The checkout's writes of payments (one
 * opened, paid and counted on the link or a shard, or ended) are in checkout-repository.ts.
 *
 * An unlimited active link's paid payments count on its shards (docs/architecture.md,
 * Capacity): a change of its status, limit or expiry first closes every shard, so that no
 * payment commits on one after it; then, all closed, the next write sums them into the link
 * item and, when the link still takes unlimited payments, reopens them in a new generation.
 */
export function createPaymentLinkRepository(db: DynamoDBDocumentClient, tableName: string) {
  const get = (id: string) => readPaymentLink(db, tableName, id);

  /** The link item alone, for a list's cursor (it checks only the owner and the status). */
  async function getItem(id: string): Promise<VersionedLink | undefined> {
    if (!isId('paymentLink', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(id), ConsistentRead: true }));
    return stripKeys<VersionedLink>(result.Item);
  }

  /**
   * Every shard closed (created closed if never written): a payment in flight on one commits
   * before its close (the close waits for its transaction) or is refused after it.
   */
  async function closeShards(id: string): Promise<void> {
    await Promise.all(
      EVERY_SHARD.map((shard) =>
        withConflictRetry(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.paymentLinkPaidShard(id, shard),
              UpdateExpression: 'SET #closedAt = :now, #entity = :entity',
              ExpressionAttributeNames: { '#closedAt': 'closedAt', '#entity': 'entity' },
              ExpressionAttributeValues: { ':now': isoMillis(), ':entity': paymentLinkPaidShardEntity.definition.name },
            }),
          ),
        ),
      ),
    );
  }

  /** A closed shard emptied into the link item, and reopened in `generation` when given. */
  function foldShard(id: string, shard: number, generation: number | undefined): TransactAction {
    return {
      Update: {
        TableName: tableName,
        Key: keys.paymentLinkPaidShard(id, shard),
        UpdateExpression: `SET #paidCount = :zero${generation === undefined ? '' : ', #generation = :generation'} REMOVE #firstPaidAt, #lastPaidAt${generation === undefined ? '' : ', #closedAt'}`,
        ConditionExpression: 'attribute_exists(#closedAt)',
        ExpressionAttributeNames: { '#paidCount': 'paidCount', '#firstPaidAt': 'firstPaidAt', '#lastPaidAt': 'lastPaidAt', '#closedAt': 'closedAt', ...(generation === undefined ? {} : { '#generation': 'generation' }) },
        ExpressionAttributeValues: { ':zero': 0, ...(generation === undefined ? {} : { ':generation': generation }) },
      },
    };
  }

  /**
   * Writes `next`, made from `read`, if the link is still at `read`'s version, with the events,
   * all or nothing. A change that stops or alters payments counting on open shards closes them
   * first and throws StaleLinkError with the link read again (its counts final), for the caller
   * to make its change from. With every shard closed, the write sums them into the link item
   * and reopens them when `next` takes unlimited payments. Throws StaleLinkError (with the
   * current link) when another writer was first.
   */
  async function save(next: PaymentLink, read: VersionedLink, events: OutboxEvent[]): Promise<VersionedLink> {
    // Only a link read with its shards can be written: what they hold decides the write.
    if (!read.shards) throw new StaleLinkError(await get(read.id));
    if (closesShards(read, next)) {
      await closeShards(read.id);
      throw new StaleLinkError(await get(read.id));
    }
    const { fold, reopen } = foldsShards(read, next);
    const onShards = read.shards?.paid.paidCount ?? 0;
    const version = read.version + 1;
    const { shards: _shards, ...link } = next as VersionedLink;
    // Unfolded, the item keeps its own count and the shards' total for lists, as read.
    const stored = fold || onShards === 0 ? link : { ...link, paidCount: link.paidCount - onShards, listedPaidCount: link.paidCount };
    const shardWrites = fold && (reopen || onShards > 0) ? EVERY_SHARD.map((shard) => foldShard(read.id, shard, reopen ? version : undefined)) : [];
    try {
      const put: TransactAction = {
        Put: {
          TableName: tableName,
          Item: paymentLinkItem(stored, version),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': read.version },
        },
      };
      await transactWithEvents(db, tableName, [put, ...shardWrites], events);
    } catch (error) {
      if (cancellationReasons(error)?.some((reason) => reason.code === 'ConditionalCheckFailed')) throw new StaleLinkError(await get(read.id));
      throw error;
    }
    const shards = fold ? { paid: { paidCount: 0, firstPaidAt: null, lastPaidAt: null }, closed: reopen ? 0 : PAID_SHARDS, closedAt: reopen ? null : read.shards.closedAt, generation: reopen ? version : read.shards.generation } : read.shards;
    return { ...link, version, ...(shards ? { shards } : {}) };
  }

  return {
    get,

    async create(link: PaymentLink, events: OutboxEvent[]): Promise<void> {
      const put = { Put: { TableName: tableName, Item: paymentLinkItem(link, 1), ...IF_NEW } };
      await transactWithEvents(db, tableName, [put], events);
    },

    save,

    /** Writes an event that changes no link (a denied checkout's). */
    recordEvent: (event: OutboxEvent) => recordEvent(db, tableName, event),

    /** Organization-wide, newest first, optionally one status only; each link's paid count as its item lists it. */
    async list(principal: Principal, page: PageRequest, status?: string) {
      const result = await scopeListPage<VersionedLink & ListedCount>(db, tableName, paymentLinkEntity, getItem, principal, page, status);
      return { ...result, items: result.items.map(listed) };
    },

    /**
     * The total over the link's shards, as read now, stored on its item for the lists (the
     * outbox processor, after a paid payment of the link), with the first and last paid times
     * over them (the earliest and the latest: the item's own are among them). Written at the version read, which it
     * raises: a whole-link write read before it reads again rather than storing an older total,
     * and a write since it makes it read again. Never lower than what was stored: a refresh
     * stored earlier read its total before this read.
     */
    async refreshListedCount(id: string): Promise<void> {
      for (let round = 1; ; round++) {
        const link = await get(id);
        if (!link?.shards?.paid.paidCount) return;
        try {
          await withConflictRetry(() =>
            db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: keys.paymentLink(id),
                UpdateExpression: 'SET #listed = :total, #firstPaidAt = :firstPaidAt, #lastPaidAt = :lastPaidAt, #version = #version + :one',
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#listed': 'listedPaidCount', '#firstPaidAt': 'firstPaidAt', '#lastPaidAt': 'lastPaidAt', '#version': 'version' },
                ExpressionAttributeValues: { ':total': link.paidCount, ':firstPaidAt': link.firstPaidAt, ':lastPaidAt': link.lastPaidAt, ':version': link.version, ':one': 1 },
              }),
            ),
          );
          return;
        } catch (error) {
          // Bounded: a link its merchant keeps changing fails the stream batch, which hands the credits over again.
          if (!(error instanceof ConditionalCheckFailedException) || round >= LISTED_COUNT_ROUNDS) throw error;
        }
      }
    },

    /** Active links whose expiry has passed, oldest expiry first: reads only the sparse index. */
    async dueForExpiry(now: Date, limit: number, startKey?: Record<string, unknown>) {
      const page = await queryDuePage(db, tableName, keys.paymentLinkExpiryDue, { upTo: `${now.toISOString()}#~`, limit, startKey });
      return { links: page.items.map((item) => stripKeys<VersionedLink>(item)!), nextKey: page.nextKey };
    },
  };
}

export type PaymentLinkRepository = ReturnType<typeof createPaymentLinkRepository>;
