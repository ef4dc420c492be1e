import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode, Principal } from '../auth/principal';
import { adjustmentMovement, type BalanceMovement, type BalanceRef, type BalanceTransaction, type BalanceTransactionType, type CurrencyBalance } from '../domain/balance';
import { isOwned, type Owner } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import { isId, newId } from '../ids';
import { LIMITS } from '../limits';
import type { CreatedRange, PageRequest } from '../pagination';
import { isoMillis } from '../time';
import { cancellationReasons, conditionalWrite, transactRetried, withConflictRetry } from './conditional';
import { queryDuePage } from './due';
import { IF_NEW, stripKeys } from './entity';
import { cursorById, listPage, readList, type ListRead } from './list-page';
import { queryAll, queryMerged } from './query-all';
import type { TransactAction } from './outbox';
import * as keys from './keys';
import { balanceTransactionEntity, scopeOf } from './entities';
import { INDEXES } from './table';

/**
 * The balance of one organization, mode and currency, in minor units, and its ledger: every
 * change is a TransactWriteItems action on the balance item together with the immutable entry
 * recording it (product-decisions §15), so that both commit with what causes them.
 */
export type { BalanceRef };

const balanceKey = (ref: BalanceRef) => keys.balance(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase());

/**
 * The attribute a payment's ledger entry carries until its amount is in the balance: the paid
 * transaction writes the entry alone, and the outbox processor rolls it in (decisions 64).
 */
export const PENDING_CREDIT = 'pendingCredit';

/** The ledger entry of a movement, put once: an entry is never written over. `pending`: not in the balance yet. */
function ledgerEntryPut(tableName: string, ref: BalanceRef, movement: BalanceMovement, pending?: { shardedLinkId?: string }): TransactAction {
  const entry: BalanceTransaction = {
    id: newId('balanceTransaction'),
    orgId: ref.orgId,
    mode: ref.mode,
    currency: ref.currency.toUpperCase(),
    type: movement.type,
    amountMinor: movement.amountMinor,
    ...(movement.source ? { source: movement.source } : {}),
    createdAt: isoMillis(),
  };
  return {
    Put: {
      TableName: tableName,
      Item: { ...balanceTransactionEntity.item(entry), ...(pending ? { [PENDING_CREDIT]: true, ...pending } : {}) },
      ...IF_NEW,
    },
  };
}

/**
 * The actions of a movement: the balance's Update (no cover needed, only the balance range),
 * then its ledger entry. Callers put them together, so that a cancellation reason's index still
 * names the balance Update wherever they read it.
 */
export function balanceChange(tableName: string, ref: BalanceRef, movement: BalanceMovement): TransactAction[] {
  return refundBalanceChange(tableName, ref, { movement });
}

/**
 * A paid payment's credit: its ledger entry alone, marked pending. No item that every payment of
 * the organization writes is in the paid transaction, so payers on different links never contend
 * (product-decisions §15); `rollCredits` adds the amount to the balance shortly after.
 * `shardedLinkId`: the link when the payment counted on one of its shards, whose count for the
 * lists the outbox processor refreshes with the roll (payment-link-repository.ts).
 */
export function pendingCreditPut(tableName: string, ref: BalanceRef, movement: BalanceMovement, shardedLinkId?: string): TransactAction {
  return ledgerEntryPut(tableName, ref, movement, shardedLinkId ? { shardedLinkId } : {});
}

/** A credit waiting to be rolled into its balance: its ledger entry's id and amount, and the link whose shard counted its payment. */
export interface PendingCredit {
  id: string;
  ref: BalanceRef;
  amountMinor: number;
  shardedLinkId?: string;
}

/** With the balance's Update, a transaction's 100 actions (DynamoDB's limit). */
export const CREDITS_PER_ROLL = 99;

/**
 * Adds pending credits of one balance to it, CREDITS_PER_ROLL a transaction: the balance's Update
 * by their sum (within its range) and, for each entry, the removal of its pending mark on the
 * condition that it is still there. So each credit counts once however often a batch is handed
 * over again: a transaction that finds entries rolled already goes again without them.
 * Returns how many were rolled now.
 */
export async function rollCredits(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef, credits: PendingCredit[]): Promise<number> {
  let rolled = 0;
  for (let start = 0; start < credits.length; start += CREDITS_PER_ROLL) {
    let left = credits.slice(start, start + CREDITS_PER_ROLL);
    while (left.length > 0) {
      const sum = left.reduce((total, credit) => total + credit.amountMinor, 0);
      const marks = left.map((credit) => pendingMarkRemoval(tableName, credit.id));
      try {
        await transactRetried(db, [balanceUpdate(tableName, ref, { deltaMinor: sum }), ...marks]);
        rolled += left.length;
        break;
      } catch (error) {
        const reasons = cancellationReasons(error);
        const done = new Set(left.filter((_credit, index) => reasons?.[index + 1]?.code === 'ConditionalCheckFailed').map((credit) => credit.id));
        // The balance's own condition (its range) or anything else: the batch is handed over again, then parked.
        if (done.size === 0) throw error;
        left = left.filter((credit) => !done.has(credit.id));
      }
    }
  }
  return rolled;
}

/**
 * An organization's credits still pending in a mode, every currency, read from its whole ledger
 * (GSI1): for the operator, after the stream lost them (docs/operations.md, OutboxOnFailure).
 */
export async function pendingCreditsOf(db: DynamoDBDocumentClient, tableName: string, orgId: string, mode: Mode): Promise<PendingCredit[]> {
  const entries = await queryMerged(
    db,
    keys.balanceTransactionList(scopeOf(orgId, mode)),
    (partition) => ({
      TableName: tableName,
      IndexName: INDEXES.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      FilterExpression: 'attribute_exists(#pending)',
      ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk, '#pending': PENDING_CREDIT },
      ExpressionAttributeValues: { ':pk': partition },
    }),
    { sortKey: INDEXES.gsi1.sk },
  );
  return entries.map((entry) => ({ id: entry.id as string, ref: { orgId, mode, currency: entry.currency as string }, amountMinor: entry.amountMinor as number }));
}

function pendingMarkRemoval(tableName: string, entryId: string): TransactAction {
  return {
    Update: {
      TableName: tableName,
      Key: keys.balanceTransaction(entryId),
      UpdateExpression: 'REMOVE #pending',
      ConditionExpression: 'attribute_exists(#pending)',
      ExpressionAttributeNames: { '#pending': PENDING_CREDIT },
    },
  };
}

export async function readBalance(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: balanceKey(ref), ConsistentRead: true }));
  return (result.Item?.availableMinor as number | undefined) ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Refunds and the balance (docs/refunds.md)

const balanceMarkerSortKey = (ref: BalanceRef) => keys.refundHoldBalanceSortKey(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase());

export interface RefundBalanceChange {
  /** Added to the available balance (negative debits) and recorded in the ledger; none: only the held refunds move. */
  movement?: BalanceMovement;
  /** Added to the count of held refunds of this balance. */
  heldDelta?: number;
  /** Added to the total of the held refunds (with `heldDelta`). */
  heldMinorDelta?: number;
  /** The balance must cover the debit: a refund never drives it below zero. */
  mustCover?: boolean;
  /** No refund may be waiting: a new refund never overtakes a held one (oldest first). */
  requireNoHeld?: boolean;
}

/**
 * The TransactWriteItems actions moving a balance for a refund: the balance Update and, when the
 * amount moves, its ledger entry. Besides the amount it keeps `heldCount` and `heldMinor`, the
 * refunds on hold and their total; while refunds are held the balance item also carries the
 * sparse DUE marker `refundHoldBalances` that the process-refunds job queries. Every write sets
 * the balance's GSI1 keys, where `GET /v1/balance` finds a scope's currencies.
 */
export function refundBalanceChange(tableName: string, ref: BalanceRef, change: RefundBalanceChange): TransactAction[] {
  const deltaMinor = change.movement?.amountMinor ?? 0;
  const update = balanceUpdate(tableName, ref, { ...change, deltaMinor });
  return change.movement && deltaMinor !== 0 ? [update, ledgerEntryPut(tableName, ref, change.movement)] : [update];
}

/** The balance item's Update for a change of `deltaMinor` (its ledger entries are the caller's). */
function balanceUpdate(tableName: string, ref: BalanceRef, change: Omit<RefundBalanceChange, 'movement'> & { deltaMinor: number }): TransactAction {
  const { deltaMinor } = change;
  const heldDelta = change.heldDelta ?? 0;
  const scope = scopeOf(ref.orgId, ref.mode);
  const currency = ref.currency.toUpperCase();
  const range = withinBalanceRange(deltaMinor, change.mustCover);
  const conditions = [
    ...(change.mustCover ? ['#available >= :needed'] : []),
    ...(range ? [range.condition] : []),
    ...(change.requireNoHeld ? ['(attribute_not_exists(#held) OR #held <= :zero)'] : []),
  ];
  const sets = [
    '#orgId = :orgId',
    '#mode = :mode',
    '#currency = :currency',
    '#listPk = :listPk',
    '#listSk = :listSk',
    ...(heldDelta > 0 ? ['#duePk = :duePk', '#dueSk = :dueSk'] : []),
  ];
  const adds = ['#available :delta', ...(heldDelta !== 0 ? ['#held :heldDelta', '#heldMinor :heldMinorDelta'] : [])];
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
        '#listPk': INDEXES.gsi1.pk,
        '#listSk': INDEXES.gsi1.sk,
        ...(heldDelta !== 0 || change.requireNoHeld ? { '#held': 'heldCount' } : {}),
        ...(heldDelta !== 0 ? { '#heldMinor': 'heldMinor' } : {}),
        ...(heldDelta > 0 ? { '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk } : {}),
      },
      ExpressionAttributeValues: {
        ':delta': deltaMinor,
        ':orgId': ref.orgId,
        ':mode': ref.mode,
        ':currency': currency,
        ':listPk': keys.balancesOfScope(scope),
        ':listSk': keys.balanceListSortKey(scope, currency),
        ...(change.mustCover ? { ':needed': -deltaMinor } : {}),
        ...range?.values,
        ...(change.requireNoHeld ? { ':zero': 0 } : {}),
        ...(heldDelta !== 0 ? { ':heldDelta': heldDelta, ':heldMinorDelta': change.heldMinorDelta ?? 0 } : {}),
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
function withinBalanceRange(deltaMinor: number, mustCover?: boolean): { condition: string; values: Record<string, number> } | undefined {
  if (deltaMinor > 0) {
    return { condition: '(attribute_not_exists(#available) OR #available <= :ceiling)', values: { ':ceiling': LIMITS.balanceMinor - deltaMinor } };
  }
  if (deltaMinor < 0 && !mustCover) {
    return { condition: '(attribute_not_exists(#available) OR #available >= :floor)', values: { ':floor': -LIMITS.balanceMinor - deltaMinor } };
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
        await transactRetried(db, balanceChange(tableName, ref, adjustmentMovement(deltaMinor)));
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code !== 'ConditionalCheckFailed') throw error;
        throw new BusinessRuleError(`The balance would leave its range of ±${LIMITS.balanceMinor} minor units`, 'amount.value');
      }
    },
    rollCredits: (ref: BalanceRef, credits: PendingCredit[]) => rollCredits(db, tableName, ref, credits),
    hasHeldRefunds: (ref: BalanceRef) => hasHeldRefunds(db, tableName, ref),
    clearHoldMarker: (ref: BalanceRef) => clearHoldMarker(db, tableName, ref),
    withHeldRefunds: () => balancesWithHeldRefunds(db, tableName),
  };
}

export type BalanceStore = ReturnType<typeof createBalanceStore>;

/**
 * What `GET /v1/balance` and `GET /v1/balance_transactions` read: a scope's balances (one Query of
 * GSI1 `{scope}#BAL`, one item per currency) and its ledger, newest first, filtered by type
 * (GSI2) or source (GSI3; with a type too, the source's few entries filtered by it).
 */
export type LedgerReads = ReturnType<typeof createLedgerReads>;

/** A scope's ledger, all or of one type (each split: GSI1 and GSI2 ×4), sorted by entry id: what its pages and its report read. */
function scopeLedgerSource(scope: string, type?: BalanceTransactionType): ListRead {
  return type
    ? { index: 'gsi2', partitions: keys.balanceTransactionTypeList(scope, type), createdIds: 'balanceTransaction' }
    : { index: 'gsi1', partitions: keys.balanceTransactionList(scope), createdIds: 'balanceTransaction' };
}

export function createLedgerReads(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<BalanceTransaction | undefined> {
    if (!isId('balanceTransaction', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.balanceTransaction(id), ConsistentRead: true }));
    return stripKeys<BalanceTransaction>(result.Item);
  }

  return {
    async balances(principal: Principal): Promise<CurrencyBalance[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        IndexName: INDEXES.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
        ExpressionAttributeValues: { ':pk': keys.balancesOfScope(scopeOf(principal.orgId, principal.mode)) },
      });
      return items.map((item) => ({
        currency: item.currency as string,
        availableMinor: (item.availableMinor as number | undefined) ?? 0,
        heldCount: (item.heldCount as number | undefined) ?? 0,
        heldMinor: (item.heldMinor as number | undefined) ?? 0,
      }));
    },

    list(principal: Principal, page: PageRequest, filter: { type?: BalanceTransactionType; source?: string }) {
      const scope = scopeOf(principal.orgId, principal.mode);
      const accepts = (entry: BalanceTransaction) =>
        isOwned(entry, principal) && (!filter.type || entry.type === filter.type) && (!filter.source || entry.source === filter.source);
      const resolveCursor = cursorById(get, accepts);
      if (filter.source) {
        return listPage<BalanceTransaction>(
          db,
          tableName,
          {
            index: 'gsi3',
            partitions: [keys.balanceTransactionsOfSource(scope, filter.source)],
            ...(filter.type ? { filter: { expression: '#type = :type', names: { '#type': 'type' }, values: { ':type': filter.type } } } : {}),
            createdIds: 'balanceTransaction',
            resolveCursor,
          },
          page,
        );
      }
      return listPage<BalanceTransaction>(db, tableName, { ...scopeLedgerSource(scope, filter.type), resolveCursor }, page);
    },

    /** Every entry of the scope's ledger (no filter) in a creation range, in its order: a report's rows. */
    readAll: (owner: Owner, created: CreatedRange) => readList<BalanceTransaction>(db, tableName, scopeLedgerSource(scopeOf(owner.orgId, owner.mode)), created),
  };
}
