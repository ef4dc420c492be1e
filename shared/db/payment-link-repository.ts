import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { StaleLinkError, type PaymentLink, type VersionedLink } from '../domain/payment-links';
import { PaymentNotOpenError, type Payment } from '../domain/payments';
import { balanceOf } from '../domain/balance';
import { balanceChange } from './balance';
import { paymentCreateAction, paymentOutcomeAction } from './payment-repository';
import { type OutboxEvent } from '../events';
import { outboxPut } from './outbox';
import { isId } from '../ids';
import { type PageRequest } from '../pagination';
import { scopeListPage } from './list-page';
import { cancellationReasons, withConflictRetry } from './conditional';
import { transactWrite } from './side-effects';
import { stripKeys } from './entity';
import { checkoutSessionEntity, paymentLinkEntity } from './entities';
import { queryDuePage } from './due';
import * as keys from './keys';
import { INDEXES } from './table';

/** A condition on one of the extra actions failed (index into the extra actions). */
class ActionConditionError extends Error {
  constructor(readonly index: number) {
    super(`condition of action ${index} failed`);
  }
}

type TransactAction = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** The table item of a link at `version` (shared/db/entities.ts). */
export const paymentLinkItem = (link: PaymentLink, version: number) => paymentLinkEntity.item({ ...link, version });

/**
 * The paid count raised on the link as an Update (see `recordPaid`): `next` is the link after
 * the payment, `read` the link it was computed from. At the limit the link turns inactive, with
 * its status list key moved and its expiry entry removed.
 */
function paidCountUpdate(tableName: string, read: VersionedLink, next: PaymentLink, paidAt: string): TransactAction {
  const inactivates = next.status !== read.status;
  const conditions = ['#status = :active', '(attribute_type(#expiresAt, :null) OR #expiresAt > :paidAt)'];
  if (next.paymentsLimit !== null) conditions.push('#paidCount = :readCount');
  if (read.firstPaidAt === null) conditions.push('attribute_type(#firstPaidAt, :null)');
  const sets = ['#paidCount = #paidCount + :one', '#version = #version + :one', '#lastPaidAt = :paidAt', '#firstPaidAt = :firstPaidAt'];
  if (inactivates) sets.push('#status = :nextStatus', `#statusList = :statusList`);
  return {
    Update: {
      TableName: tableName,
      Key: keys.paymentLink(next.id),
      UpdateExpression: `SET ${sets.join(', ')}${inactivates ? ` REMOVE #duePk, #dueSk` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: {
        '#status': 'status',
        '#expiresAt': 'expiresAt',
        '#paidCount': 'paidCount',
        '#version': 'version',
        '#lastPaidAt': 'lastPaidAt',
        '#firstPaidAt': 'firstPaidAt',
        ...(inactivates ? { '#statusList': INDEXES.gsi2.pk, '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk } : {}),
      },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':null': 'NULL',
        ':paidAt': paidAt,
        ':one': 1,
        ':firstPaidAt': next.firstPaidAt,
        ...(next.paymentsLimit !== null ? { ':readCount': read.paidCount } : {}),
        ...(inactivates ? { ':nextStatus': next.status, ':statusList': paymentLinkEntity.partition('gsi2', paymentLinkEntity.definition.values!(next as VersionedLink, undefined)) } : {}),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Payment links in the table. Every write of a link is a Put conditioned on the version it
 * was read at (optimistic concurrency), inside a transaction with its outbox events and any
 * other item the change touches (payment, balance), so a change and its events commit together.
 */
export function createPaymentLinkRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<VersionedLink | undefined> {
    if (!isId('paymentLink', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(id), ConsistentRead: true }));
    return stripKeys<VersionedLink>(result.Item);
  }

  async function transact(actions: TransactAction[]): Promise<void> {
    await withConflictRetry(() => transactWrite(db, actions));
  }

  /**
   * Writes `next` if the link is still at `version`, with the events and extra actions, all
   * or nothing. Throws StaleLinkError (with the current link) or ActionConditionError.
   */
  async function save(next: PaymentLink, version: number, events: OutboxEvent[], extra: TransactAction[] = []): Promise<VersionedLink> {
    const saved = { ...next, version: version + 1 };
    try {
      await transact([
        {
          Put: {
            TableName: tableName,
            Item: paymentLinkItem(next, version + 1),
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': version },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        ...extra,
        ...events.map((event) => outboxPut(tableName, event)),
      ]);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[0]?.code === 'ConditionalCheckFailed') throw new StaleLinkError(stripKeys<VersionedLink>(reasons[0].item));
      const failed = reasons.findIndex((reason, index) => index > 0 && index <= extra.length && reason.code === 'ConditionalCheckFailed');
      if (failed > 0) throw new ActionConditionError(failed - 1);
      throw error;
    }
    return saved;
  }

  /** Writes events that change no link, with extra actions. */
  async function record(events: OutboxEvent[], extra: TransactAction[] = []): Promise<void> {
    await transact([...extra, ...events.map((event) => outboxPut(tableName, event))]);
  }

  return {
    get,

    async create(link: PaymentLink, events: OutboxEvent[]): Promise<void> {
      await transact([
        {
          Put: {
            TableName: tableName,
            Item: paymentLinkItem(link, 1),
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': 'PK' },
          },
        },
        ...events.map((event) => outboxPut(tableName, event)),
      ]);
    },

    save,

    /** Writes events that change no link (checkout.requested, checkout.denied, payment.reused). */
    recordEvents: (events: OutboxEvent[]) => record(events),

    /** A customer's new open payment on a link: the payment, their checkout session and the events. */
    async openPayment(payment: Payment, clientKey: string, events: OutboxEvent[]): Promise<void> {
      await record(events, [
        paymentCreateAction(tableName, payment),
        { Put: { TableName: tableName, Item: checkoutSessionEntity.item({ paymentId: payment.id }, { pl: payment.paymentLinkId, clientKey }) } },
      ]);
    },

    /**
     * The paid transition, all or nothing: the link counted, the payment paid (still open) and
     * the balance credited, with the events. The link's condition is what the payment depends
     * on, not its version: still active and not expired and, for a limited link, still at the
     * paid count the events were computed from (`remaining_payments`, the inactivation). An
     * unrelated change (a new description) never sends a payer back; the version is still
     * raised, so a whole-item write read before this one is refused. Throws StaleLinkError
     * (with the current link) or PaymentNotOpenError.
     */
    async recordPaid(read: VersionedLink, next: PaymentLink, paid: Payment, events: OutboxEvent[]): Promise<void> {
      try {
        await transact([
          paidCountUpdate(tableName, read, next, paid.paidAt!),
          paymentOutcomeAction(tableName, paid),
          balanceChange(tableName, balanceOf(paid), paid.amountMinor),
          ...events.map((event) => outboxPut(tableName, event)),
        ]);
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons?.[0]?.code === 'ConditionalCheckFailed') throw new StaleLinkError(stripKeys<VersionedLink>(reasons[0].item));
        if (reasons?.[1]?.code === 'ConditionalCheckFailed') throw new PaymentNotOpenError();
        throw error;
      }
    },

    /** A payment's final outcome other than paid, while it is still open (PaymentNotOpenError otherwise). */
    async finishPayment(payment: Payment): Promise<void> {
      try {
        await record([], [paymentOutcomeAction(tableName, payment)]);
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') throw new PaymentNotOpenError();
        throw error;
      }
    },

    /** The payment id of a customer's checkout session on a link (client_key cookie). */
    async sessionPayment(linkId: string, clientKey: string): Promise<string | undefined> {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: keys.checkoutSession(linkId, clientKey), ConsistentRead: true }),
      );
      return result.Item?.paymentId as string | undefined;
    },


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
