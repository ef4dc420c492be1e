import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import type { Refund, RefundMove } from '../domain/refunds';
import type { Owner } from '../domain/scope';
import { type OutboxEvent } from '../events';
import { outboxPut, type TransactAction } from './outbox';
import { isId } from '../ids';
import { type CreatedRange, type PageRequest } from '../pagination';
import { cursorById, listPage, readList, scopeListPage, scopeListSource } from './list-page';
import { balanceOf, refundMovement, type BalanceRef } from '../domain/balance';
import { refundBalanceChange } from './balance';
import { cancellationReasons, transactRetried, withConflictRetry } from './conditional';
import { lostToContention } from './transaction-conflict';
import { queryDuePage, type DuePageOptions } from './due';
import { IF_EXISTS, IF_NEW, stripKeys as strip } from './entity';
import { refundEntity } from './entities';
import * as keys from './keys';
import { scopeOf } from './entities';
import { KEY } from './table';


/** The table item of a refund (shared/db/entities.ts): in its balance's hold queue while held, in the processing partition while `processing`. */
export const refundItem = (refund: Refund) => refundEntity.item(refund);

/** The scope's list of refunds: one status on GSI3 (its GSI2 is a payment's refunds), sort keys refund ids (a creation range). */
const SCOPE_LIST = { statusIndex: 'gsi3', createdIds: 'refund' } as const;

/**
 * Moves the payment's refunded total. With `limitMinor` (a new refund) the condition is the
 * amount rule itself: the payment is paid and its total stays at most the limit afterwards.
 */
function paymentRefundedTotal(tableName: string, paymentId: string, deltaMinor: number, limitMinor?: number) {
  const limited = limitMinor !== undefined;
  return {
    Update: {
      TableName: tableName,
      Key: keys.payment(paymentId),
      UpdateExpression: 'ADD #refunded :delta',
      ConditionExpression: limited
        ? '#status = :paid AND (attribute_not_exists(#refunded) OR #refunded <= :room) AND (attribute_not_exists(#unwon) OR #unwon <= :zero) AND (attribute_not_exists(#acquirer.#capture) OR #acquirer.#capture <> :failed)'
        : IF_EXISTS.ConditionExpression,
      ExpressionAttributeNames: {
        '#refunded': 'refundedMinor',
        ...(limited ? { '#status': 'status', '#unwon': 'unwonChargebacks', '#acquirer': 'acquirer', '#capture': 'capture' } : IF_EXISTS.ExpressionAttributeNames),
      },
      ExpressionAttributeValues: { ':delta': deltaMinor, ...(limited ? { ':paid': 'paid', ':room': limitMinor - deltaMinor, ':zero': 0, ':failed': 'failed' } : {}) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** `conflict`: concurrent transactions on the same items kept colliding after the retries. */
export type CreateOutcome = 'created' | 'payment-changed' | 'not-covered' | 'conflict';
export type MoveOutcome = 'moved' | 'stale' | 'not-covered' | 'conflict';

const FAILED = 'ConditionalCheckFailed';

export function createRefundRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<Refund | undefined> {
    if (!isId('refund', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.refund(id), ConsistentRead: true }));
    return strip<Refund>(result.Item);
  }

  /** Runs a transaction; a cancellation comes back as its reasons, persistent conflicts as 'conflict'. */
  async function transact(actions: Record<string, unknown>[]): Promise<{ code?: string }[] | 'conflict' | undefined> {
    try {
      await transactRetried(db, actions as never);
      return undefined;
    } catch (error) {
      if (lostToContention(error)) return 'conflict';
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      return reasons;
    }
  }

  function outcomeOf<T extends string>(reasons: { code?: string }[], checks: [number, T][], what: string): T {
    for (const [index, outcome] of checks) if (reasons[index]?.code === FAILED) return outcome;
    throw new Error(`${what} cancelled: ${reasons.map((reason) => reason.code).join(',')}`);
  }

  async function queryDue(partition: string, options: DuePageOptions) {
    const page = await queryDuePage(db, tableName, partition, options);
    return { refunds: page.items.map((item) => strip<Refund>(item)!), nextKey: page.nextKey };
  }

  return {
    get,

    /** Newest first, all or of one status, in the request's creation range: one Query of limit+1 (product-decisions §2, §18). */
    async list(principal: Principal, page: PageRequest, status?: string) {
      return scopeListPage<Refund>(db, tableName, refundEntity, get, principal, page, status, SCOPE_LIST);
    },

    /** Every refund of the list (no filter) in a creation range, in its order: a report's rows. */
    readAll: (owner: Owner, created: CreatedRange) => readList<Refund>(db, tableName, scopeListSource(refundEntity, owner, undefined, SCOPE_LIST), created),

    /** One payment's refunds (GSI2 `PAY#{pay}#RF`), newest first, with the list rules. */
    listOfPayment(paymentId: string, page: PageRequest) {
      return listPage<Refund>(
        db,
        tableName,
        { index: 'gsi2', partitions: [keys.refundsOfPayment(paymentId)], resolveCursor: cursorById(get, (refund) => refund.paymentId === paymentId) },
        page,
      );
    },

    /**
     * One TransactWriteItems: the payment's refunded total under the amount rule, the refund,
     * its balance (its amount reserved under cover, or its held count raised when on hold)
     * and the events. Says which condition failed instead of throwing for it.
     */
    async create(refund: Refund, limitMinor: number, events: OutboxEvent[]): Promise<CreateOutcome> {
      const held = refund.onHold;
      const reasons = await transact([
        paymentRefundedTotal(tableName, refund.paymentId, refund.amountMinor, limitMinor),
        { Put: { TableName: tableName, Item: refundItem(refund), ...IF_NEW } },
        ...refundBalanceChange(
          tableName,
          balanceOf(refund),
          held
            ? { heldDelta: 1, heldMinorDelta: refund.amountMinor }
            : { movement: refundMovement(refund.id, -refund.amountMinor), mustCover: true, requireNoHeld: true },
        ),
        ...events.map((event) => outboxPut(tableName, event)),
      ]);
      if (!reasons) return 'created';
      if (reasons === 'conflict') return 'conflict';
      return outcomeOf<CreateOutcome>(reasons, [[0, 'payment-changed'], [2, 'not-covered']], 'refund create');
    },

    /**
     * Applies a transition: the refund (condition: still in its `from` state and hold), the
     * balance (a debit must be covered), the payment's refunded total and the events, in one
     * transaction, with `also` (an acquirer notification's processed mark).
     */
    async move(move: RefundMove, previous: Refund, events: OutboxEvent[], also: TransactAction[] = []): Promise<MoveOutcome> {
      const { refund } = move;
      const balanceMoves = move.balanceDeltaMinor !== 0 || move.heldDelta !== 0;
      const reasons = await transact([
        {
          Put: {
            TableName: tableName,
            Item: refundItem(refund),
            ConditionExpression: '#status = :from AND #onHold = :wasHeld',
            ExpressionAttributeNames: { '#status': 'status', '#onHold': 'onHold' },
            ExpressionAttributeValues: { ':from': move.from, ':wasHeld': previous.onHold },
          },
        },
        ...(balanceMoves
          ? refundBalanceChange(tableName, balanceOf(refund), {
              movement: refundMovement(refund.id, move.balanceDeltaMinor),
              heldDelta: move.heldDelta,
              heldMinorDelta: move.heldDelta * previous.amountMinor,
              mustCover: move.balanceDeltaMinor < 0,
            })
          : []),
        ...(move.refundedDeltaMinor !== 0 ? [paymentRefundedTotal(tableName, refund.paymentId, move.refundedDeltaMinor)] : []),
        ...events.map((event) => outboxPut(tableName, event)),
        ...also,
      ]);
      if (!reasons) return 'moved';
      if (reasons === 'conflict') return 'conflict';
      return outcomeOf<MoveOutcome>(reasons, [[0, 'stale'], ...(balanceMoves ? [[1, 'not-covered'] as [number, MoveOutcome]] : [])], 'refund move');
    },

    /** The acquirer took a live refund: its reference, which also tells the job not to send it again. */
    async recordAcquirerReference(id: string, reference: string): Promise<void> {
      try {
        await withConflictRetry(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.refund(id),
              UpdateExpression: 'SET #reference = :reference',
              ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#reference)',
              ExpressionAttributeNames: { '#pk': KEY.pk, '#reference': 'acquirerReference' },
              ExpressionAttributeValues: { ':reference': reference },
            }),
          ),
        );
      } catch (error) {
        // Its notification came first and recorded it.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    /** The held refunds of one balance, oldest first (the DUE index may lag a write briefly). */
    async holdQueue(ref: BalanceRef, limit: number): Promise<Refund[]> {
      return (await queryDue(keys.refundHoldQueue(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase()), { limit })).refunds;
    },

    /** Covered `pending` refunds created at most at `upTo` (past their cancel window), oldest first. */
    async coveredDue(upTo: string, limit: number, startKey?: Record<string, unknown>) {
      return queryDue(keys.refundCoveredDue, { upTo: `${upTo}#~`, limit, startKey });
    },

    /** Refunds `processing` since at most `upTo`, oldest first, one page at a time. */
    async processingDue(upTo: string, limit: number, startKey?: Record<string, unknown>) {
      return queryDue(keys.refundProcessingDue, { upTo: `${upTo}#~`, limit, startKey });
    },
  };
}

export type RefundRepository = ReturnType<typeof createRefundRepository>;
