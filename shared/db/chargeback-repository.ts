import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { CHARGEBACKS_EXCEED_PAYMENT, balanceDeltaOf, type Chargeback, type ChargebackStatus, type FeedIdentity } from '../domain/chargebacks';
import type { Payment } from '../domain/payments';
import { isOwned } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import { type OutboxEvent } from '../events';
import { outboxPut, type TransactAction } from './outbox';
import { isId } from '../ids';
import { type CreatedRange, type PageRequest } from '../pagination';
import { cursorById, listPage, readList, type ListRead } from './list-page';
import { balanceOf, chargebackMovement } from '../domain/balance';
import { balanceChange } from './balance';
import { cancellationReasons, transactRetried } from './conditional';
import { IF_NEW, stripKeys } from './entity';
import { chargebackEntity, chargebackReferenceEntity } from './entities';
import { dueAt } from './due';
import * as keys from './keys';
import { scopeOf } from './entities';

/** The table item of a chargeback (shared/db/entities.ts): due for the deadline sweep only while `open`. */
export const chargebackItem = (chargeback: Chargeback) => chargebackEntity.item(chargeback);


export type TransitionOutcome = { saved: true } | { saved: false; current?: Chargeback };

export function createChargebackRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<Chargeback | undefined> {
    if (!isId('chargeback', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.chargeback(id), ConsistentRead: true }));
    return stripKeys<Chargeback>(result.Item);
  }

  /**
   * One transaction: the chargeback item under `guard` (its old image comes back when the guard
   * fails), any `checks`, the balance change of its move from `from` (undefined: created) and its event.
   */
  async function commit(
    from: ChargebackStatus | undefined,
    chargeback: Chargeback,
    event: OutboxEvent,
    guard: { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> },
    checks: object[] = [],
  ): Promise<void> {
    const delta = balanceDeltaOf(from, chargeback);
    // Transaction conflicts are retried here: callers see only the conditions' outcomes.
    await transactRetried(db, [
      { Put: { TableName: tableName, Item: chargebackItem(chargeback), ReturnValuesOnConditionCheckFailure: 'ALL_OLD', ...guard } },
      ...checks,
      ...(delta === 0 ? [] : balanceChange(tableName, balanceOf(chargeback), chargebackMovement(chargeback.id, delta))),
      outboxPut(tableName, event),
    ]);
  }

  /** The caller's list (§3: an acceptor-bound key's is its acceptor's), all or of one status, each a partition of its own. */
  function listSource(caller: ChargebackReader, status?: string): ListRead {
    const acceptorId = caller.acceptorId;
    const index = acceptorId ? (status ? 'gsi6' : 'gsi2') : status ? 'gsi5' : 'gsi1';
    return { index, partitions: [chargebackEntity.partition(index, { scope: scopeOf(caller.orgId, caller.mode), acceptor: acceptorId ?? '', status: status ?? '' })], createdIds: 'chargeback' };
  }

  async function page(source: ListRead, accepts: (chargeback: Chargeback) => boolean, request: PageRequest) {
    return listPage<Chargeback>(db, tableName, { ...source, resolveCursor: cursorById(get, accepts) }, request);
  }

  return {
    get,

    /**
     * Records a new `open` chargeback: the item, the debit of the balance (no cover needed: a
     * chargeback may drive it negative) and the `open` event, under the condition that the
     * payment is still paid. A payment that is not: 422 `payment_id`. A fed chargeback (or one
     * from the acquirer's notifications) also claims its identity: one claimed before makes it a
     * `duplicate`, and nothing is written. `also` commits with it.
     */
    async create(chargeback: Chargeback, paymentAmountMinor: number, event: OutboxEvent, feedIdentity?: FeedIdentity, also: TransactAction[] = []): Promise<'created' | 'duplicate'> {
      // Money leaves once: the payment is still paid and its chargebacks not won stay within its amount.
      const paymentStillPaid = {
        Update: {
          TableName: tableName,
          Key: keys.payment(chargeback.paymentId),
          UpdateExpression: 'ADD #chargedBack :amount, #unwon :one',
          ConditionExpression: '#status = :paid AND (attribute_not_exists(#chargedBack) OR #chargedBack <= :room)',
          ExpressionAttributeNames: { '#status': 'status', '#chargedBack': 'chargedBackMinor', '#unwon': 'unwonChargebacks' },
          ExpressionAttributeValues: { ':paid': 'paid', ':amount': chargeback.amountMinor, ':one': 1, ':room': paymentAmountMinor - chargeback.amountMinor },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      };
      const referenceClaim = feedIdentity
        ? [
            {
              Put: {
                TableName: tableName,
                Item: chargebackReferenceEntity.item({ chargebackId: chargeback.id }, feedIdentity),
                ...IF_NEW,
              },
            },
          ]
        : [];
      try {
        await commit(undefined, chargeback, event, IF_NEW, [
          paymentStillPaid,
          ...referenceClaim,
          ...also,
        ]);
        return 'created';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (feedIdentity && reasons?.[2]?.code === 'ConditionalCheckFailed') return 'duplicate';
        if (reasons?.[1]?.code === 'ConditionalCheckFailed') {
          if (stripKeys<Payment>(reasons[1].item)?.status === 'paid') throw new BusinessRuleError(CHARGEBACKS_EXCEED_PAYMENT, 'amount.value');
          throw new BusinessRuleError('Only a paid payment can be charged back', 'payment_id');
        }
        throw error;
      }
    },

    /**
     * Writes `next` (with its balance change and event) only while the stored status is still
     * `from`, with `also`. When another writer moved it first, answers the stored chargeback instead.
     */
    async saveTransition(from: ChargebackStatus, next: Chargeback, event: OutboxEvent, also: TransactAction[] = [], paymentAmountMinor?: number): Promise<TransitionOutcome> {
      // A won chargeback gives its amount back to the payment (it may be refunded again); a won
      // one lost after all takes it again, within what the payment has left (money leaves once, §6).
      const wins = next.status === 'won' && from !== 'won';
      const losesWon = from === 'won' && next.status !== 'won';
      if (losesWon && paymentAmountMinor === undefined) throw new Error(`chargeback ${next.id}: a won chargeback lost again needs its payment's amount`);
      const paymentMoves = {
        Update: {
          TableName: tableName,
          Key: keys.payment(next.paymentId),
          UpdateExpression: 'ADD #chargedBack :amount, #unwon :one',
          ExpressionAttributeNames: { '#chargedBack': 'chargedBackMinor', '#unwon': 'unwonChargebacks' },
          ExpressionAttributeValues: wins ? { ':amount': -next.amountMinor, ':one': -1 } : { ':amount': next.amountMinor, ':one': 1, ':room': paymentAmountMinor! - next.amountMinor },
          ...(losesWon ? { ConditionExpression: 'attribute_not_exists(#chargedBack) OR #chargedBack <= :room' } : {}),
        },
      };
      try {
        await commit(
          from,
          next,
          event,
          { ConditionExpression: '#status = :from', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':from': from } },
          [...(wins || losesWon ? [paymentMoves] : []), ...also],
        );
        return { saved: true };
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons?.[0]?.code === 'ConditionalCheckFailed') return { saved: false, current: stripKeys<Chargeback>(reasons[0].item) };
        if (losesWon && reasons?.[1]?.code === 'ConditionalCheckFailed') throw new BusinessRuleError(CHARGEBACKS_EXCEED_PAYMENT, 'amount.value');
        throw error;
      }
    },

    /**
     * Records that the reminder `next` is the answer to was sent, with its event, only while the
     * chargeback is still open and still owed the reminder read (`current`): of concurrent sweeps
     * one writes, and an answer written first leaves nothing to remind. Otherwise answers the
     * stored chargeback.
     */
    async saveReminder(current: Chargeback, next: Chargeback, event: OutboxEvent): Promise<TransitionOutcome> {
      try {
        await transactRetried(db, [
          {
            Put: {
              TableName: tableName,
              Item: chargebackItem(next),
              ConditionExpression: '#status = :open AND #reminder = :owed',
              ExpressionAttributeNames: { '#status': 'status', '#reminder': 'nextReminderHours' },
              ExpressionAttributeValues: { ':open': 'open', ':owed': current.nextReminderHours },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          outboxPut(tableName, event),
        ]);
        return { saved: true };
      } catch (error) {
        const reason = cancellationReasons(error)?.[0];
        if (reason?.code === 'ConditionalCheckFailed') return { saved: false, current: stripKeys<Chargeback>(reason.item) };
        throw error;
      }
    },

    /** The chargeback that claimed a feed identity (an acquirer's reference of a dispute), if any. */
    async byIdentity(identity: FeedIdentity): Promise<Chargeback | undefined> {
      const claim = await db.send(new GetCommand({ TableName: tableName, Key: keys.chargebackReference(identity), ConsistentRead: true }));
      const chargebackId = claim.Item?.chargebackId as string | undefined;
      return chargebackId ? get(chargebackId) : undefined;
    },

    /**
     * GET /v1/chargebacks: an acceptor-bound key sees its acceptor's, an org-scoped key all (§3);
     * all or of one status (its own partition: GSI5, or GSI6 for an acceptor), in the request's
     * creation range (§18).
     */
    list(principal: Principal, request: PageRequest, status?: string) {
      const acceptorId = principal.acceptorId;
      return page(
        listSource(principal, status),
        (found) => isOwned(found, principal) && (!acceptorId || found.acceptorId === acceptorId) && (!status || found.status === status),
        request,
      );
    },

    /** Every chargeback of the caller's list (no filter) in a creation range, in its order: a report's rows. */
    readAll: (caller: ChargebackReader, created: CreatedRange) => readList<Chargeback>(db, tableName, listSource(caller), created),

    /** The chargebacks of one payment, newest first. */
    listOfPayment(paymentId: string, request: PageRequest) {
      return page({ index: 'gsi3', partitions: [keys.chargebacksOfPayment(paymentId)] }, (found) => found.paymentId === paymentId, request);
    },

    /** Open chargebacks whose deadline_at is at or before `now`: the sparse DUE index, oldest deadline first, page by page. */
    overdue: (now: Date) => dueAt<Chargeback>(db, tableName, keys.chargebackDeadlineDue, now),

    /** Open chargebacks whose next deadline reminder is due at `now`: the sparse reminder entries of GSI4, the earliest first. */
    remindersDue: (now: Date) => dueAt<Chargeback>(db, tableName, keys.chargebackReminderDue, now, 'gsi4'),
  };
}

export type ChargebackRepository = ReturnType<typeof createChargebackRepository>;

/** Whose chargebacks a list holds: a scope, and an acceptor-bound key's acceptor. */
export type ChargebackReader = Pick<Principal, 'orgId' | 'mode' | 'acceptorId'>;
