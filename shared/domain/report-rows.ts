import type * as z from '../zod';
import type { PublicUrls } from '../config';
import { BalanceTransactionSchema, balanceTransactionResource, type BalanceTransaction } from './balance';
import { ChargebackListItemSchema, chargebackListItem, type Chargeback } from './chargebacks';
import { PaymentSchema, paymentResource, type Payment } from './payments';
import { refundResource, refundResourceSchema, type Refund } from './refunds';
import type { ReportType } from './reports';

/**
 * What a report's rows are (product-decisions §18): each object exactly as its `/v1` list returns
 * it (the list's item schema and the same view function), flattened into columns. A module of
 * its own: only the report builder draws the four resources.
 */

/** A report type's list item: its schema (the columns) and the view its list answers with. */
interface RowKind<T> {
  schema: z.ZodMiniType;
  view: (record: T, urls: PublicUrls) => object;
}

export const REPORT_ROWS: { payments: RowKind<Payment>; refunds: RowKind<Refund>; chargebacks: RowKind<Chargeback>; balance_transactions: RowKind<BalanceTransaction> } = {
  payments: { schema: PaymentSchema, view: paymentResource },
  refunds: { schema: refundResourceSchema, view: refundResource },
  chargebacks: { schema: ChargebackListItemSchema, view: chargebackListItem },
  balance_transactions: { schema: BalanceTransactionSchema, view: (entry: BalanceTransaction) => balanceTransactionResource(entry) },
} satisfies Record<ReportType, unknown>;

/** The stored record type each report type reads. */
export type ReportRecord<K extends ReportType> = Parameters<(typeof REPORT_ROWS)[K]['view']>[0];

/** A column: its header (`a.b` for a nested field) and the path to its value. */
export interface Column {
  header: string;
  path: string[];
}

const defOf = (schema: z.ZodMiniType) => schema._zod.def as unknown as { type: string; shape?: Record<string, z.ZodMiniType>; innerType?: z.ZodMiniType };

/**
 * The columns of an API object's schema, in its fields' order: a nested object (optional or
 * nullable too) gives one column per field of its own, `a.b`; anything else is one column (a
 * free map such as `metadata`, or a list, holds its JSON).
 */
export function columnsOf(schema: z.ZodMiniType, path: string[] = []): Column[] {
  let def = defOf(schema);
  while ((def.type === 'optional' || def.type === 'nullable') && def.innerType) def = defOf(def.innerType);
  if (def.type === 'object' && def.shape) return Object.entries(def.shape).flatMap(([name, field]) => columnsOf(field, [...path, name]));
  return [{ header: path.join('.'), path }];
}

/** A cell's text: empty for a missing or null value, JSON for a map or a list, the value itself otherwise (amounts stay the API's strings). */
function cellOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An object's cells, in the columns' order. */
export function cellsOf(columns: readonly Column[], object: object): string[] {
  return columns.map((column) => cellOf(column.path.reduce<unknown>((value, name) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined), object)));
}
