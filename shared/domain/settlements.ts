import * as z from '../zod';
import type { PublicUrls } from '../config';
import { toCsv } from '../csv';
import { formatMinor, moneyOut, parseMinor } from '../money';
import { listQueryFields, pageSchema } from '../pagination';
import { toIsoMicros } from '../time';
import { jsonLink, LinkSchema } from './links';
import { PAYMENT_STATUSES } from './payments';

/**
 * Settlements and their records (contract "Settlement", "Settlement records"; product-decisions
 * §8). One zod schema per output shape; the import validates with the very same schemas, only
 * the generated members (`object`, `description`, `links`, and the service-owned `id` and
 * timestamps) may be left out of a feed document.
 */
export const SETTLEMENT_STATUSES = ['pending', 'processing', 'settled', 'failed'] as const;
export const RECORD_TYPES = ['payment', 'refund', 'chargeback', 'chargeback_reversal', 'rollback'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** The refund and chargeback statuses of the contract, as they appear in settlement records. */
const REFUND_STATUSES = ['pending', 'processing', 'refunded', 'failed', 'canceled'] as const;
const CHARGEBACK_STATUSES = ['open', 'accepted', 'disputed', 'won', 'lost'] as const;

/** A settlement code is a bank reference: URL path characters only, so it can name the resource. */
const CODE = /^[A-Za-z0-9._~:@!$&'()*+,;=-]{1,100}$/;
export const isSettlementCode = (value: string) => CODE.test(value);

/** Ids carried by the acquirer's feed: the prefix and a URL-safe body. */
const ID_BODY = '[0-9A-Za-z]{1,64}';
const idPattern = (prefix: string) => new RegExp(`^${prefix}_${ID_BODY}$`);
const idOf = (prefix: string) => z.string().check(z.regex(idPattern(prefix), `must be a ${prefix}_ id`));
export const isSettlementId = (value: string) => idPattern('stl').test(value);
/** Cursors of the settlements list: a settlement's code or its id. */
export const isSettlementCursor = (value: string) => isSettlementId(value) || isSettlementCode(value);
/** Cursors of the records list: the id of any record that has one. */
export const isRecordId = (value: string) => ['pay', 'rf', 'cb'].some((prefix) => idPattern(prefix).test(value));

const date = /* @__PURE__ */ (() => z.iso.date())();
const datetime = /* @__PURE__ */ (() => z.iso.datetime({ offset: true }))();
const direction = /* @__PURE__ */ (() => z.enum(['debit', 'credit']))();
const link = LinkSchema;

export const SettlementAmount = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      value: z.string().check(z.regex(/^-?[0-9]{1,13}(\.[0-9]{1,2})?$/, 'must be a decimal with up to two fraction digits')),
      currency: z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')),
    }),
    { id: 'SettlementAmount' },
  ))();

export const ClearingAccount = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ method: z.string(), iban: z.string(), bic: z.string(), owner: z.string() }), {
    id: 'SettlementClearingAccount',
  }))();

export const ClearingLine = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      clearing_date: date,
      value_date: date,
      settlement_date: date,
      state: z.string(),
      payment_method: z.string(),
      brand: z.optional(z.string()),
      card_type: z.optional(z.string()),
      funding_type: z.optional(z.string()),
      region: z.optional(z.string()),
      channel: z.optional(z.string()),
      direction,
      collecting: z.boolean(),
      amount: SettlementAmount,
      transaction_count: z.number().check(z.int(), z.nonnegative()),
      unique_payers: z.number().check(z.int(), z.nonnegative()),
    }),
    { id: 'SettlementClearingLine' },
  ))();

export const ClearingGroup = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ created_at: datetime, clearing_lines: z.array(ClearingLine) }), {
    id: 'SettlementClearingGroup',
  }))();

export const SettlementSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: idOf('stl'),
      object: z.literal('settlement'),
      org_id: idOf('org'),
      code: z.string().check(z.regex(CODE, 'must be 1 to 100 URL path characters')),
      description: z.string(),
      settlement_date: date,
      confirmation_date: date,
      status: z.enum(SETTLEMENT_STATUSES),
      amount: SettlementAmount,
      clearing_account: ClearingAccount,
      clearings: z.array(ClearingGroup),
      created_at: datetime,
      updated_at: datetime,
      links: z.strictObject({ api: link, records: link }),
    }),
    { id: 'Settlement' },
  ))();

export const SettlementListItem = /* @__PURE__ */ (() => z.withMeta(z.omit(SettlementSchema, { clearings: true }), { id: 'SettlementListItem' }))();

export const PaymentRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('payment'),
      id: idOf('pay'),
      direction,
      org_id: idOf('org'),
      acceptor_id: idOf('acceptor'),
      status: z.enum(PAYMENT_STATUSES),
      created_at: datetime,
      paid_at: z._default(z.nullable(datetime), null),
      description: z._default(z.nullable(z.string()), null),
      payment_method: z.string(),
      amount: SettlementAmount,
      metadata: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
      links: z.strictObject({ api: link }),
    }),
    { id: 'SettlementPaymentRecord' },
  ))();

export const RefundRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('refund'),
      id: idOf('rf'),
      direction,
      payment_id: idOf('pay'),
      status: z.enum(REFUND_STATUSES),
      amount: SettlementAmount,
      created_at: datetime,
      links: z.strictObject({ api: link, payment: link }),
    }),
    { id: 'SettlementRefundRecord' },
  ))();

export const ChargebackRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('chargeback'),
      id: idOf('cb'),
      direction,
      payment_id: idOf('pay'),
      status: z.enum(CHARGEBACK_STATUSES),
      reason: z.strictObject({ code: z.string(), description: z.string() }),
      amount: SettlementAmount,
      deadline_at: datetime,
      created_at: datetime,
      links: z.strictObject({ api: link, payment: link }),
    }),
    { id: 'SettlementChargebackRecord' },
  ))();

/** The bank reversed a chargeback in the merchant's favour; no id and no links. */
export const ChargebackReversalRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('chargeback_reversal'),
      direction,
      chargeback_id: idOf('cb'),
      payment_id: idOf('pay'),
      amount: SettlementAmount,
      payment_method: z.string(),
      transaction_date: date,
    }),
    { id: 'SettlementChargebackReversalRecord' },
  ))();

/** A sale reversed by the payment method: basic transaction details only; no id and no links. */
export const RollbackRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('rollback'),
      direction,
      payment_id: z._default(z.nullable(idOf('pay')), null),
      amount: SettlementAmount,
      payment_method: z.string(),
      transaction_date: date,
    }),
    { id: 'SettlementRollbackRecord' },
  ))();

const RECORD_SCHEMAS = [PaymentRecord, RefundRecord, ChargebackRecord, ChargebackReversalRecord, RollbackRecord] as const;

export const SettlementRecord = /* @__PURE__ */ (() => z.withMeta(z.discriminatedUnion('object', RECORD_SCHEMAS), { id: 'SettlementRecord' }))();

/** `GET /v1/settlements/:code/records`: the standard list parameters and a `type` filter. */
export const SettlementRecordsQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ ...listQueryFields, type: z.withMeta(z.optional(z.enum(RECORD_TYPES)), { description: 'Only records of this object type.' }) }),
    { id: 'SettlementRecordsQuery' },
  ))();

export const SettlementListSchema = /* @__PURE__ */ (() => pageSchema(SettlementListItem, 'SettlementList', 'A page of settlements, newest first by creation.'))();
export const SettlementRecordListSchema = /* @__PURE__ */ (() =>
  pageSchema(
    SettlementRecord,
    'SettlementRecordList',
    'A page of settlement records, newest first by transaction time. Clients must tolerate every record type.',
  ))();

/** A record of a feed document: as the API lists it, `links` optional (they are generated). */
export const SettlementImportRecord = /* @__PURE__ */ (() =>
  z.withMeta(
    z.discriminatedUnion('object', [
      z.partial(PaymentRecord, { links: true }),
      z.partial(RefundRecord, { links: true }),
      z.partial(ChargebackRecord, { links: true }),
      ChargebackReversalRecord,
      RollbackRecord,
    ]),
    { id: 'SettlementImportRecord' },
  ))();

/** A settlement of a feed document: as the API returns it, plus its `records`. */
export const SettlementImport = /* @__PURE__ */ (() =>
  z.withMeta(
    z.extend(
      z.partial(SettlementSchema, {
        id: true,
        object: true,
        description: true,
        created_at: true,
        updated_at: true,
        links: true,
      }),
      { records: z._default(z.array(SettlementImportRecord), []) },
    ),
    { id: 'SettlementImport' },
  ))();

export const SettlementImportDocument = /* @__PURE__ */ (() => z.withMeta(z.strictObject({ settlements: z.array(SettlementImport) }), { id: 'SettlementImportDocument' }))();

export type SettlementOutput = z.infer<typeof SettlementSchema>;
export type SettlementListItemOutput = z.infer<typeof SettlementListItem>;
export type SettlementRecordOutput = z.infer<typeof SettlementRecord>;
export type SettlementImportInput = z.infer<typeof SettlementImport>;
type ImportRecord = z.infer<typeof SettlementImportRecord>;
type ApiAmount = z.infer<typeof SettlementAmount>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Money as stored: integer minor units and an upper-case currency. */
export interface StoredAmount {
  amountMinor: number;
  currency: string;
}

/**
 * Clearings and records are reporting documents the service never computes on: they are kept
 * with the API's member names, timestamps normalized to microseconds, money in minor units.
 */
export type StoredClearingLine = Omit<z.infer<typeof ClearingLine>, 'amount'> & StoredAmount;
export interface StoredClearingGroup {
  created_at: string;
  clearing_lines: StoredClearingLine[];
}
export type StoredRecord = DistributiveOmit<ImportRecord, 'amount' | 'links'> & StoredAmount;

/** A settlement as stored (live mode only). */
export interface Settlement extends StoredAmount {
  id: string;
  orgId: string;
  mode: 'live';
  code: string;
  status: (typeof SETTLEMENT_STATUSES)[number];
  settlementDate: string;
  confirmationDate: string;
  clearingAccount: z.infer<typeof ClearingAccount>;
  clearings: StoredClearingGroup[];
  createdAt: string;
  updatedAt: string;
  /** The record set the settlement currently shows; each import writes a new one. */
  recordsVersion: string;
  recordCount: number;
  /** Hash of the imported document: re-importing the same content writes nothing. */
  contentHash: string;
}

export const storedAmount = (amount: ApiAmount): StoredAmount => ({
  amountMinor: parseMinor(amount.value),
  currency: amount.currency.toUpperCase(),
});

function storeAmount<T extends { amount: ApiAmount }>(value: T): Omit<T, 'amount'> & StoredAmount {
  const { amount, ...rest } = value;
  return { ...rest, ...storedAmount(amount) };
}

function moneyOutOf(value: StoredAmount) {
  return moneyOut({ minor: value.amountMinor, currency: value.currency }, 'lower');
}

function showAmount<T extends StoredAmount>(value: T): Omit<T, keyof StoredAmount> & { amount: ApiAmount } {
  const { amountMinor: _amountMinor, currency: _currency, ...rest } = value;
  return { ...rest, amount: moneyOutOf(value) };
}

const TIMESTAMP_MEMBERS = ['created_at', 'paid_at', 'deadline_at'] as const;

/** Every timestamp member as settlements show it: microseconds and `+00:00`. */
function normalizeTimestamps<T extends object>(value: T): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const member of TIMESTAMP_MEMBERS) {
    if (typeof copy[member] === 'string') copy[member] = toIsoMicros(copy[member] as string);
  }
  return copy as T;
}

export function toStoredRecord(record: ImportRecord): StoredRecord {
  const { links: _links, ...rest } = record as ImportRecord & { links?: unknown };
  return storeAmount(normalizeTimestamps(rest)) as StoredRecord;
}

export function toStoredClearings(clearings: SettlementImportInput['clearings']): StoredClearingGroup[] {
  return clearings.map((group) => ({
    created_at: toIsoMicros(group.created_at),
    clearing_lines: group.clearing_lines.map((line) => storeAmount(line)),
  }));
}

/** The record's place in the newest-first order: its transaction time, microseconds `+00:00`. */
export function transactionTime(record: StoredRecord): string {
  switch (record.object) {
    case 'payment':
      return record.paid_at ?? record.created_at;
    case 'refund':
    case 'chargeback':
      return record.created_at;
    default:
      return `${record.transaction_date}T00:00:00.000000+00:00`;
  }
}

/** The id of a record that has one (payments, refunds, chargebacks). */
export const recordId = (record: StoredRecord): string | undefined => ('id' in record ? record.id : undefined);

/** product-decisions §8, e.g. `Settlement of 3 clearings totalling 1234.56 EUR on 2026-11-20`. */
export function settlementDescription(settlement: Pick<Settlement, 'clearings' | 'amountMinor' | 'currency' | 'settlementDate'>) {
  const n = settlement.clearings.length;
  return `Settlement of ${n} ${n === 1 ? 'clearing' : 'clearings'} totalling ${formatMinor(settlement.amountMinor)} ${settlement.currency.toUpperCase()} on ${settlement.settlementDate}`;
}

function settlementFields(settlement: Settlement, urls: PublicUrls) {
  const self = `${urls.base}/v1/settlements/${encodeURIComponent(settlement.code)}`;
  return {
    id: settlement.id,
    object: 'settlement' as const,
    org_id: settlement.orgId,
    code: settlement.code,
    description: settlementDescription(settlement),
    settlement_date: settlement.settlementDate,
    confirmation_date: settlement.confirmationDate,
    status: settlement.status,
    amount: moneyOutOf(settlement),
    clearing_account: settlement.clearingAccount,
    created_at: settlement.createdAt,
    updated_at: settlement.updatedAt,
    links: { api: jsonLink(self), records: jsonLink(`${self}/records`) },
  };
}

/** `GET /v1/settlements/:code`: the settlement object with `clearings`. */
export function settlementResource(settlement: Settlement, urls: PublicUrls): SettlementOutput {
  return SettlementSchema.parse({
    ...settlementFields(settlement, urls),
    clearings: settlement.clearings.map((group) => ({
      created_at: group.created_at,
      clearing_lines: group.clearing_lines.map((line) => showAmount(line)),
    })),
  });
}

/** An item of `GET /v1/settlements`: the settlement object without `clearings`. */
export function settlementListItem(settlement: Settlement, urls: PublicUrls): SettlementListItemOutput {
  return SettlementListItem.parse(settlementFields(settlement, urls));
}

/** An element of `GET /v1/settlements/:code/records`; matched records link to their objects. */
export function recordResource(record: StoredRecord, urls: PublicUrls): SettlementRecordOutput {
  const api = (path: string) => jsonLink(`${urls.base}/v1/${path}`);
  const shown = showAmount(record) as DistributiveOmit<StoredRecord, keyof StoredAmount> & { amount: ApiAmount };
  switch (shown.object) {
    case 'payment':
      return SettlementRecord.parse({ ...shown, links: { api: api(`payments/${shown.id}`) } });
    case 'refund':
      return SettlementRecord.parse({ ...shown, links: { api: api(`refunds/${shown.id}`), payment: api(`payments/${shown.payment_id}`) } });
    case 'chargeback':
      return SettlementRecord.parse({
        ...shown,
        links: { api: api(`chargebacks/${shown.id}`), payment: api(`payments/${shown.payment_id}`) },
      });
    default:
      return SettlementRecord.parse(shown);
  }
}

/** `GET /v1/settlements`: `{has_more, data}` of settlements without `clearings`. */
export function settlementPage(page: { items: Settlement[]; hasMore: boolean }, urls: PublicUrls): z.infer<typeof SettlementListSchema> {
  return { has_more: page.hasMore, data: page.items.map((item) => settlementListItem(item, urls)) };
}

/** `GET /v1/settlements/:code/records`: `{has_more, data}` of records. */
export function recordPage(page: { items: StoredRecord[]; hasMore: boolean }, urls: PublicUrls): z.infer<typeof SettlementRecordListSchema> {
  return { has_more: page.hasMore, data: page.items.map((record) => recordResource(record, urls)) };
}

/** The accountants' CSV (`ops settlement export`, the dashboard's download): one row per record. */
const RECORD_CSV_HEADER = ['type', 'direction', 'id', 'payment_id', 'status', 'amount', 'currency', 'transaction_date'];

export const recordsCsv = (records: StoredRecord[]) => toCsv([RECORD_CSV_HEADER, ...records.map(recordCsvRow)]);

function recordCsvRow(record: StoredRecord): string[] {
  const paymentId = record.object === 'payment' ? record.id : (record.payment_id ?? '');
  const { value, currency } = moneyOutOf(record);
  return [
    record.object,
    record.direction,
    recordId(record) ?? '',
    paymentId,
    'status' in record ? record.status : '',
    value,
    currency,
    transactionTime(record).slice(0, 10),
  ];
}
