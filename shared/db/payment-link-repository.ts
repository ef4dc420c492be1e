import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { StaleLinkError, type PaymentLink, type VersionedLink } from '../domain/payment-links';
import { type OutboxEvent } from '../events';
import { transactWithEvents, type TransactAction } from './outbox';
import { isId } from '../ids';
import { type PageRequest } from '../pagination';
import { scopeListPage } from './list-page';
import { cancellationReasons } from './conditional';
import { IF_NEW, stripKeys } from './entity';
import { paymentLinkEntity } from './entities';
import { queryDuePage } from './due';
import * as keys from './keys';

/** The table item of a link at `version` (shared/db/entities.ts). */
export const paymentLinkItem = (link: PaymentLink, version: number) => paymentLinkEntity.item({ ...link, version });

/**
 * Payment links in the table. Every write of a link is a Put conditioned on the version it
 * was read at (optimistic concurrency), in one transaction with its outbox events, so a change
 * and its events commit together; events about a link that change no link (checkout.requested,
 * checkout.denied, payment.reused) are written here too. The checkout's writes of payments (one
 * opened, paid and counted on the link, or ended) are in checkout-repository.ts.
 */
export function createPaymentLinkRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<VersionedLink | undefined> {
    if (!isId('paymentLink', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(id), ConsistentRead: true }));
    return stripKeys<VersionedLink>(result.Item);
  }

  /**
   * Writes `next` if the link is still at `version`, with the events, all or nothing. Throws
   * StaleLinkError (with the current link).
   */
  async function save(next: PaymentLink, version: number, events: OutboxEvent[]): Promise<VersionedLink> {
    const saved = { ...next, version: version + 1 };
    try {
      const put: TransactAction = {
        Put: {
          TableName: tableName,
          Item: paymentLinkItem(next, version + 1),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': version },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      };
      await transactWithEvents(db, tableName, [put], events);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0]?.code === 'ConditionalCheckFailed') throw new StaleLinkError(stripKeys<VersionedLink>(reasons[0].item));
      throw error;
    }
    return saved;
  }

  return {
    get,

    async create(link: PaymentLink, events: OutboxEvent[]): Promise<void> {
      const put = { Put: { TableName: tableName, Item: paymentLinkItem(link, 1), ...IF_NEW } };
      await transactWithEvents(db, tableName, [put], events);
    },

    save,

    /** Writes events that change no link (checkout.requested, checkout.denied, payment.reused). */
    recordEvents: (events: OutboxEvent[]) => transactWithEvents(db, tableName, [], events),

    /** Organization-wide, newest first, optionally one status only. */
    async list(principal: Principal, page: PageRequest, status?: string) {
      return scopeListPage<VersionedLink>(db, tableName, paymentLinkEntity, get, principal, page, status);
    },

    /** Active links whose expiry has passed, oldest expiry first: reads only the sparse index. */
    async dueForExpiry(now: Date, limit: number, startKey?: Record<string, unknown>) {
      const page = await queryDuePage(db, tableName, keys.paymentLinkExpiryDue, { upTo: `${now.toISOString()}#~`, limit, startKey });
      return { links: page.items.map((item) => stripKeys<VersionedLink>(item)!), nextKey: page.nextKey };
    },
  };
}

export type PaymentLinkRepository = ReturnType<typeof createPaymentLinkRepository>;
