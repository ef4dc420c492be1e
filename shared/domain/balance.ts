import * as z from '../zod';
import type { Mode } from '../auth/principal';
import { isId } from '../ids';
import { AmountSchema, moneyOut } from '../money';
import { createdQueryFields, listQueryFields, pageSchema } from '../pagination';
import { DatetimeSchema } from '../time';

/** One organization's balance in one mode and currency, in minor units. */
export interface BalanceRef {
  orgId: string;
  mode: Mode;
  currency: string;
}

/** The balance a payment, refund or chargeback moves. */
export const balanceOf = (owner: BalanceRef): BalanceRef => ({ orgId: owner.orgId, mode: owner.mode, currency: owner.currency });

/**
 * What moved a balance (product-decisions §15): a payment paid, a refund's reservation and its
 * give-back when it is canceled or fails, a chargeback and its reversal once won, or an
 * adjustment (the test helper's, and a settlement's payout, which names no payment).
 */
export const BALANCE_TRANSACTION_TYPES = ['payment', 'refund', 'refund_reversal', 'chargeback', 'chargeback_reversal', 'adjustment'] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** The ids a balance transaction may name as its source. */
const SOURCE_KINDS = ['payment', 'refund', 'chargeback'] as const;
const isSource = (value: string) => SOURCE_KINDS.some((kind) => isId(kind, value));

/**
 * One movement of one balance, immutable, written in the transaction of the change that causes
 * it; the balance's `available` is the sum of its entries.
 */
export interface BalanceTransaction extends BalanceRef {
  id: string;
  type: BalanceTransactionType;
  /** Signed: a credit is positive, a debit negative. */
  amountMinor: number;
  /** The `pay_`, `rf_` or `cb_` id behind it; none for an adjustment. */
  source?: string;
  createdAt: string;
}

/** The movement a change makes, before it gets its id and time. */
export type BalanceMovement = Pick<BalanceTransaction, 'type' | 'amountMinor' | 'source'>;

/** A refund's movement: a reservation debits (`refund`), a give-back credits (`refund_reversal`). */
export const refundMovement = (refundId: string, deltaMinor: number): BalanceMovement => ({
  type: deltaMinor < 0 ? 'refund' : 'refund_reversal',
  amountMinor: deltaMinor,
  source: refundId,
});

/** A chargeback's movement: opening (or losing after a win) debits, winning credits back. */
export const chargebackMovement = (chargebackId: string, deltaMinor: number): BalanceMovement => ({
  type: deltaMinor < 0 ? 'chargeback' : 'chargeback_reversal',
  amountMinor: deltaMinor,
  source: chargebackId,
});

/** A payment's credit, or its credit taken back or restored by a live capture's outcome. */
export const paymentMovement = (paymentId: string, deltaMinor: number): BalanceMovement => ({ type: 'payment', amountMinor: deltaMinor, source: paymentId });

/** An adjustment: the test helper's, or a settlement's payout. */
export const adjustmentMovement = (deltaMinor: number): BalanceMovement => ({ type: 'adjustment', amountMinor: deltaMinor });

// --- input ------------------------------------------------------------------------------------

/** `GET /v1/balance_transactions`: the list parameters, the `type` and `source` filters and the creation range (product-decisions §18). */
export const listBalanceTransactionsQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...listQueryFields,
      type: z.withMeta(z.optional(z.enum(BALANCE_TRANSACTION_TYPES)), { description: 'Only the movements of this type.' }),
      source: z.withMeta(z.optional(z.string().check(z.refine(isSource, 'must be a pay_, rf_ or cb_ id'))), {
        description: 'Only the movements of this payment, refund or chargeback.',
      }),
      ...createdQueryFields,
    }),
    { id: 'ListBalanceTransactionsQuery' },
  ))();

// --- output -----------------------------------------------------------------------------------

export const BalanceTransactionSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'Prefix `btx_`.' }),
      object: z.literal('balance_transaction'),
      type: z.enum(BALANCE_TRANSACTION_TYPES),
      amount: z.withMeta(AmountSchema, { description: 'Signed: negative debits the balance; currency in lower case.' }),
      source: z.withMeta(z.nullable(z.string()), { description: 'The `pay_`, `rf_` or `cb_` id that caused it; null for an adjustment.' }),
      created_at: DatetimeSchema,
    }),
    { id: 'BalanceTransaction', description: 'One movement of a balance, immutable.' },
  ))();

export const BalanceTransactionListSchema = /* @__PURE__ */ (() =>
  pageSchema(BalanceTransactionSchema, 'BalanceTransactionList', 'A page of balance transactions, newest first.'))();

export const BalanceOverviewSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('balance'),
      available: z.withMeta(z.array(AmountSchema), { description: 'Per currency (lower case): the sum of its balance transactions.' }),
      on_hold: z.withMeta(
        z.array(z.extend(AmountSchema, { refunds: z.withMeta(z.number(), { description: 'How many refunds wait for cover.' }) })),
        { description: 'Per currency: the refunds waiting for the balance to cover them, and their total.' },
      ),
    }),
    { id: 'BalanceOverview', description: "The organization's balances in the key's mode." },
  ))();

export function balanceTransactionResource(entry: BalanceTransaction): z.infer<typeof BalanceTransactionSchema> {
  return {
    id: entry.id,
    object: 'balance_transaction',
    type: entry.type,
    amount: moneyOut({ minor: entry.amountMinor, currency: entry.currency }, 'lower'),
    source: entry.source ?? null,
    created_at: entry.createdAt,
  };
}

export function balanceTransactionPage(page: { items: BalanceTransaction[]; hasMore: boolean }): z.infer<typeof BalanceTransactionListSchema> {
  return { has_more: page.hasMore, data: page.items.map(balanceTransactionResource) };
}

/** One currency's balance as stored: what is available and the refunds it holds. */
export interface CurrencyBalance {
  currency: string;
  availableMinor: number;
  heldCount: number;
  heldMinor: number;
}

/** `GET /v1/balance`: every currency's available amount; the held refunds of those that hold some. */
export function balanceOverview(balances: CurrencyBalance[]): z.infer<typeof BalanceOverviewSchema> {
  const sorted = [...balances].sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    object: 'balance',
    available: sorted.map((balance) => moneyOut({ minor: balance.availableMinor, currency: balance.currency }, 'lower')),
    on_hold: sorted
      .filter((balance) => balance.heldCount > 0)
      .map((balance) => ({ ...moneyOut({ minor: balance.heldMinor, currency: balance.currency }, 'lower'), refunds: balance.heldCount })),
  };
}
