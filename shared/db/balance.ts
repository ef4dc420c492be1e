import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BalanceRef } from '../domain/balance';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';
import { cancellationReasons, conditionalWrite, withConflictRetry } from './conditional';
import { transactWrite } from './side-effects';
import { queryDuePage } from './due';
import * as keys from './keys';
import { scopeOf } from './entities';
import { INDEXES } from './table';

/**
 * The balance of one organization, mode and currency, in minor units. Changes are
 * TransactWriteItems actions so that they commit together with what causes them.
 */
export type { BalanceRef };

const balanceKey = (ref: BalanceRef) => keys.balance(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase());

/** An Update action adding `deltaMinor` to the balance (negative debits; no cover needed). */
export function balanceChange(tableName: string, ref: BalanceRef, deltaMinor: number) {
  return refundBalanceChange(tableName, ref, { deltaMinor });
}

export async function readBalance(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: balanceKey(ref), ConsistentRead: true }));
  return (result.Item?.availableMinor as number | undefined) ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Refunds and the balance (docs/refunds.md)

const balanceMarkerSortKey = (ref: BalanceRef) => keys.refundHoldBalanceSortKey(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase());

export interface RefundBalanceChange {
  /** Added to the available balance; negative debits. */
  deltaMinor: number;
  /** Added to the count of held refunds of this balance. */
  heldDelta?: number;
  /** The balance must cover the debit: a refund never drives it below zero. */
  mustCover?: boolean;
  /** No refund may be waiting: a new refund never overtakes a held one (oldest first). */
  requireNoHeld?: boolean;
}

/**
 * A TransactWriteItems action moving a balance for a refund. Besides the amount it keeps
 * `heldCount`, the number of refunds on hold; while refunds are held the balance item also
 * carries the sparse DUE marker `refundHoldBalances` that the process-refunds job queries.
 */
export function refundBalanceChange(tableName: string, ref: BalanceRef, change: RefundBalanceChange) {
  const heldDelta = change.heldDelta ?? 0;
  const range = withinBalanceRange(change);
  const conditions = [
    ...(change.mustCover ? ['#available >= :needed'] : []),
    ...(range ? [range.condition] : []),
    ...(change.requireNoHeld ? ['(attribute_not_exists(#held) OR #held <= :zero)'] : []),
  ];
  const sets = ['#orgId = :orgId', '#mode = :mode', '#currency = :currency', ...(heldDelta > 0 ? ['#duePk = :duePk', '#dueSk = :dueSk'] : [])];
  const adds = ['#available :delta', ...(heldDelta !== 0 ? ['#held :heldDelta'] : [])];
  return {
    Update: {
      TableName: tableName,
      Key: balanceKey(ref),
      UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeNames: {
        '#available': 'availableMinor',
        '#orgId': 'orgId',
        '#mode': 'mode',
        '#currency': 'currency',
        ...(heldDelta !== 0 || change.requireNoHeld ? { '#held': 'heldCount' } : {}),
        ...(heldDelta > 0 ? { '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk } : {}),
      },
      ExpressionAttributeValues: {
        ':delta': change.deltaMinor,
        ':orgId': ref.orgId,
        ':mode': ref.mode,
        ':currency': ref.currency.toUpperCase(),
        ...(change.mustCover ? { ':needed': -change.deltaMinor } : {}),
        ...range?.values,
        ...(change.requireNoHeld ? { ':zero': 0 } : {}),
        ...(heldDelta !== 0 ? { ':heldDelta': heldDelta } : {}),
        ...(heldDelta > 0 ? { ':duePk': keys.refundHoldBalances, ':dueSk': balanceMarkerSortKey(ref) } : {}),
      },
      ...(conditions.length ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}

/**
 * The condition keeping a balance within ±LIMITS.balanceMinor after the change (a covered debit
 * needs none: it cannot go below zero).
 */
function withinBalanceRange(change: RefundBalanceChange): { condition: string; values: Record<string, number> } | undefined {
  if (change.deltaMinor > 0) {
    return { condition: '(attribute_not_exists(#available) OR #available <= :ceiling)', values: { ':ceiling': LIMITS.balanceMinor - change.deltaMinor } };
  }
  if (change.deltaMinor < 0 && !change.mustCover) {
    return { condition: '(attribute_not_exists(#available) OR #available >= :floor)', values: { ':floor': -LIMITS.balanceMinor - change.deltaMinor } };
  }
  return undefined;
}

/**
 * Whether refunds of this balance are on hold (or its marker is still to be removed): one
 * strongly consistent GetItem, so that a credit with nothing held costs no Query of the hold
 * queue and no write on the balance item, which every payment of the balance also writes.
 */
export async function hasHeldRefunds(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: balanceKey(ref),
      ConsistentRead: true,
      ProjectionExpression: '#held, #duePk',
      ExpressionAttributeNames: { '#held': 'heldCount', '#duePk': INDEXES.due.pk },
    }),
  );
  return ((Item?.heldCount as number | undefined) ?? 0) > 0 || Item?.[INDEXES.due.pk] !== undefined;
}

/**
 * Removes the held-refunds marker once no refund of this balance is held any more; the balance
 * item is in every payment's transaction, so conflicts are retried.
 */
export async function clearHoldMarker(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef): Promise<void> {
  await withConflictRetry(() =>
    conditionalWrite(
      () =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: balanceKey(ref),
            UpdateExpression: 'REMOVE #duePk, #dueSk',
            ConditionExpression: 'attribute_exists(#duePk) AND (attribute_not_exists(#held) OR #held <= :zero)',
            ExpressionAttributeNames: { '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk, '#held': 'heldCount' },
            ExpressionAttributeValues: { ':zero': 0 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      () => undefined, // a refund was held meanwhile, or the marker is already gone: keep it as it is
    ),
  );
}

/** Balances that have held refunds, found through their DUE marker (never a Scan). */
export async function balancesWithHeldRefunds(db: DynamoDBDocumentClient, tableName: string): Promise<BalanceRef[]> {
  const refs: BalanceRef[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryDuePage(db, tableName, keys.refundHoldBalances, { startKey });
    for (const item of page.items) refs.push({ orgId: item.orgId, mode: item.mode, currency: item.currency });
    startKey = page.nextKey;
  } while (startKey);
  return refs;
}

/** The balances as the use cases see them: read, adjust, and the held-refunds markers. */
export function createBalanceStore(db: DynamoDBDocumentClient, tableName: string) {
  return {
    read: (ref: BalanceRef) => readBalance(db, tableName, ref),
    /** Adds a signed amount (test helper; no cover condition, only the balance range). */
    async adjust(ref: BalanceRef, deltaMinor: number): Promise<void> {
      try {
        await withConflictRetry(() => transactWrite(db, [balanceChange(tableName, ref, deltaMinor)]));
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code !== 'ConditionalCheckFailed') throw error;
        throw new BusinessRuleError(`The balance would leave its range of ±${LIMITS.balanceMinor} minor units`, 'amount.value');
      }
    },
    hasHeldRefunds: (ref: BalanceRef) => hasHeldRefunds(db, tableName, ref),
    clearHoldMarker: (ref: BalanceRef) => clearHoldMarker(db, tableName, ref),
    withHeldRefunds: () => balancesWithHeldRefunds(db, tableName),
  };
}

export type BalanceStore = ReturnType<typeof createBalanceStore>;
