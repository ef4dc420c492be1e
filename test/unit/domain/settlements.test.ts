import { settlementDraft } from '../../../shared/domain/settlement-import';
import {
  SettlementImport,
  SettlementImportRecord,
  SettlementListItem,
  SettlementRecord,
  SettlementSchema,
  isRecordId,
  isSettlementCode,
  isSettlementId,
  recordsCsv,
  recordPage,
  recordResource,
  settlementDescription,
  settlementListItem,
  settlementPage,
  settlementResource,
  toStoredRecord,
  transactionTime,
  type Settlement,
  type StoredRecord,
} from '../../../shared/domain/settlements';
import { chargebackRecord, chargebackReversalRecord, clearingGroup, clearingLine, paymentRecord, refundRecord, rollbackRecord, settlementInput } from '../../support/settlements';
import { urls } from './fixtures';

/**
 * Settlements and their records (contract "Settlement", "Settlement records"; product-decisions
 * §8): the generated description, the stored forms of a feed document (microsecond `+00:00`
 * timestamps, minor units), the output shapes (lower-case currency) and the records' order.
 */

const ORG = 'org_01jd2x3y4z5a6b7c8d9e0f1g2h';
const ACCEPTOR = 'acceptor_01jd2x3y4z5a6b7c8d9e0f1g2h';
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

/** A record as the import stores it: validated by the feed's schema, then stored. */
const stored = (record: Record<string, unknown>): StoredRecord => toStoredRecord(SettlementImportRecord.parse(record));

/** A settlement as the import stores it. */
function aSettlement(overrides: Record<string, unknown> = {}): Settlement {
  const input = SettlementImport.parse(settlementInput(ORG, { code: 'STL-2026-11-20', ...overrides }));
  return { ...settlementDraft(input, 'stl_01jd2x3y4z5a6b7c8d9e0f1g2h', undefined, new Date('2026-11-21T07:00:00.000Z')), recordsVersion: 'v1' };
}

describe('Function: settlementDescription', () => {
  test.each<[string, number, number, string, string]>([
    ['description: one clearing is singular', 1, 123456, 'EUR', 'Settlement of 1 clearing totalling 1234.56 EUR on 2026-11-20'],
    ['description: several clearings are plural', 3, 123456, 'EUR', 'Settlement of 3 clearings totalling 1234.56 EUR on 2026-11-20'],
    ['description: no clearing is plural', 0, 0, 'EUR', 'Settlement of 0 clearings totalling 0.00 EUR on 2026-11-20'],
    ['description: the currency in upper case, whatever is stored', 2, 1000, 'eur', 'Settlement of 2 clearings totalling 10.00 EUR on 2026-11-20'],
    ['description: the value with two fraction digits', 1, 5, 'EUR', 'Settlement of 1 clearing totalling 0.05 EUR on 2026-11-20'],
  ])('%s', (_rule, clearings, amountMinor, currency, expected) => {
    // Prepare
    const settlement = { clearings: Array.from({ length: clearings }, () => ({ created_at: '', clearing_lines: [] })), amountMinor, currency, settlementDate: '2026-11-20' };
    // Act
    const description = settlementDescription(settlement);
    // Assess
    expect(description).toBe(expected);
  });
});

describe('Function: settlementResource and settlementListItem', () => {
  test('settlement object: the contract fields; amounts in lower case; timestamps in microseconds +00:00; links by code', () => {
    // Prepare
    const settlement = aSettlement({ clearings: [clearingGroup([clearingLine(), clearingLine({ direction: 'debit', amount: { value: '5.5', currency: 'EUR' } })])] });
    // Act
    const resource = settlementResource(settlement, urls);
    // Assess
    expect(resource).toEqual({
      id: settlement.id,
      object: 'settlement',
      org_id: ORG,
      code: 'STL-2026-11-20',
      description: 'Settlement of 1 clearing totalling 1234.56 EUR on 2026-11-20',
      settlement_date: '2026-11-20',
      confirmation_date: '2026-11-21',
      status: 'settled',
      amount: { value: '1234.56', currency: 'eur' },
      clearing_account: { method: 'sepa', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', owner: 'Acme B.V.' },
      clearings: [
        {
          created_at: '2026-11-19T08:00:00.123456+00:00',
          clearing_lines: [
            { ...clearingLine(), amount: { value: '100.00', currency: 'eur' } },
            { ...clearingLine({ direction: 'debit' }), amount: { value: '5.50', currency: 'eur' } },
          ],
        },
      ],
      created_at: '2026-11-20T06:00:00.654321+00:00',
      updated_at: '2026-11-21T06:00:00.000001+00:00',
      links: {
        api: { href: `${urls.base}/v1/settlements/STL-2026-11-20`, type: 'application/json' },
        records: { href: `${urls.base}/v1/settlements/STL-2026-11-20/records`, type: 'application/json' },
      },
    });
  });

  test('list item: the settlement object without clearings', () => {
    // Prepare
    const settlement = aSettlement();
    // Act
    const item = settlementListItem(settlement, urls);
    // Assess
    const { clearings: _clearings, ...withoutClearings } = settlementResource(settlement, urls);
    expect(item).toEqual(withoutClearings);
    expect(SettlementListItem.safeParse(item).success).toBe(true);
  });

  test('links: a code with reserved characters is encoded in the path', () => {
    // Prepare
    const settlement = aSettlement({ code: "A:B@C+D'1" });
    // Act
    const { links } = settlementResource(settlement, urls);
    // Assess
    expect(links.api.href).toBe(`${urls.base}/v1/settlements/A%3AB%40C%2BD'1`);
    expect(links.records.href).toBe(`${urls.base}/v1/settlements/A%3AB%40C%2BD'1/records`);
  });

  test('pages: {has_more, data} of list items', () => {
    // Prepare
    const settlement = aSettlement();
    // Act
    const page = settlementPage({ items: [settlement], hasMore: true }, urls);
    // Assess
    expect(page).toEqual({ has_more: true, data: [settlementListItem(settlement, urls)] });
  });
});

describe('Function: toStoredRecord', () => {
  test.each<[string, string, string]>([
    ['timestamps: Z without fraction -> microseconds +00:00', '2026-11-18T10:00:00Z', '2026-11-18T10:00:00.000000+00:00'],
    ['timestamps: milliseconds Z -> microseconds +00:00', '2026-11-18T10:00:00.123Z', '2026-11-18T10:00:00.123000+00:00'],
    ['timestamps: microseconds +00:00 kept as given', '2026-11-18T10:00:00.123456+00:00', '2026-11-18T10:00:00.123456+00:00'],
    ['timestamps: another offset -> the same instant in +00:00', '2026-11-18T12:00:00+02:00', '2026-11-18T10:00:00.000000+00:00'],
    ['timestamps: another offset keeps the microseconds', '2026-11-18T12:00:00.123456+02:00', '2026-11-18T10:00:00.123456+00:00'],
  ])('%s', (_rule, given, expected) => {
    // Prepare
    const record = paymentRecord(ORG, ACCEPTOR, { created_at: given, paid_at: given });
    // Act
    const kept = stored(record) as Extract<StoredRecord, { object: 'payment' }>;
    // Assess
    expect([kept.created_at, kept.paid_at]).toEqual([expected, expected]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['stored: a payment\'s amount in minor units with an upper-case currency, links dropped', paymentRecord(ORG, ACCEPTOR, { amount: { value: '10.5', currency: 'eur' }, links: { api: { href: 'x', type: 'y' } } }), { amountMinor: 1050, currency: 'EUR' }],
    ['stored: a chargeback\'s deadline_at in microseconds', chargebackRecord({ deadline_at: '2026-11-25T12:00:00Z' }), { deadline_at: '2026-11-25T12:00:00.000000+00:00' }],
    ['stored: a payment without description, metadata or paid_at has them null', { ...paymentRecord(ORG, ACCEPTOR), description: undefined, metadata: undefined, paid_at: undefined }, { description: null, metadata: null, paid_at: null }],
    ['stored: a rollback without payment_id has it null', { ...rollbackRecord(), payment_id: undefined }, { payment_id: null }],
  ])('%s', (_rule, record, expected) => {
    // Act
    const kept = stored(JSON.parse(JSON.stringify(record)));
    // Assess
    expect(kept).toMatchObject(expected);
    expect(kept).not.toHaveProperty('links');
    expect(kept).not.toHaveProperty('amount');
  });
});

describe('Function: recordResource', () => {
  const api = (path: string) => ({ href: `${urls.base}/v1/${path}`, type: 'application/json' });
  const payment = paymentRecord(ORG, ACCEPTOR);
  const refund = refundRecord();
  const chargeback = chargebackRecord();
  const reversal = chargebackReversalRecord();
  const rollback = rollbackRecord();

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['records: a payment carries its full fields and links.api', payment, {
      ...payment,
      created_at: '2026-11-18T10:00:00.000000+00:00',
      paid_at: '2026-11-18T10:01:00.000000+00:00',
      links: { api: api(`payments/${payment.id}`) },
    }],
    ['records: a refund links to itself and its payment', refund, {
      ...refund,
      created_at: '2026-11-18T11:00:00.000000+00:00',
      links: { api: api(`refunds/${refund.id}`), payment: api(`payments/${refund.payment_id}`) },
    }],
    ['records: a chargeback links to itself and its payment', chargeback, {
      ...chargeback,
      created_at: '2026-11-18T12:00:00.000000+00:00',
      deadline_at: '2026-11-25T12:00:00.000000+00:00',
      links: { api: api(`chargebacks/${chargeback.id}`), payment: api(`payments/${chargeback.payment_id}`) },
    }],
    ['records: a chargeback reversal has no id and no links', reversal, reversal],
    ['records: a rollback has no id and no links', rollback, rollback],
  ])('%s', (_rule, record, expected) => {
    // Act
    const shown = recordResource(stored(record), urls);
    // Assess
    expect(shown).toEqual(expected);
    expect(SettlementRecord.safeParse(shown).success).toBe(true);
  });

  test.each([
    ['EUR', 'eur'],
    ['eur', 'eur'],
    ['Usd', 'usd'],
  ])('records: amount currency %s is shown in lower case (%s), the value with two fraction digits', (currency, shown) => {
    // Act
    const { amount } = recordResource(stored(refundRecord({ amount: { value: '3', currency } })), urls);
    // Assess
    expect(amount).toEqual({ value: '3.00', currency: shown });
  });

  test('pages: {has_more, data} of records', () => {
    // Prepare
    const records = [stored(refund), stored(rollback)];
    // Act
    const page = recordPage({ items: records, hasMore: false }, urls);
    // Assess
    expect(page).toEqual({ has_more: false, data: records.map((record) => recordResource(record, urls)) });
  });
});

describe('Function: transactionTime', () => {
  test.each<[string, Record<string, unknown>, string]>([
    ['order: a paid payment by paid_at', paymentRecord(ORG, ACCEPTOR, { created_at: '2026-11-18T10:00:00Z', paid_at: '2026-11-18T10:30:00Z' }), '2026-11-18T10:30:00.000000+00:00'],
    ['order: an unpaid payment by created_at', paymentRecord(ORG, ACCEPTOR, { status: 'failed', created_at: '2026-11-18T10:00:00Z', paid_at: null }), '2026-11-18T10:00:00.000000+00:00'],
    ['order: a refund by created_at', refundRecord({ created_at: '2026-11-18T11:00:00Z' }), '2026-11-18T11:00:00.000000+00:00'],
    ['order: a chargeback by created_at, not deadline_at', chargebackRecord({ created_at: '2026-11-18T12:00:00Z' }), '2026-11-18T12:00:00.000000+00:00'],
    ['order: a chargeback reversal at the start of its transaction_date', chargebackReversalRecord({ transaction_date: '2026-11-17' }), '2026-11-17T00:00:00.000000+00:00'],
    ['order: a rollback at the start of its transaction_date', rollbackRecord({ transaction_date: '2026-11-16' }), '2026-11-16T00:00:00.000000+00:00'],
  ])('%s', (_rule, record, expected) => {
    // Act
    const time = transactionTime(stored(record));
    // Assess
    expect(time).toBe(expected);
    expect(time).toMatch(MICROS);
  });

  test('order: newest first by transaction time across record types and offsets, as text (the sort key)', () => {
    // Prepare
    const records = [
      rollbackRecord({ payment_id: 'pay_rollback', transaction_date: '2026-11-18' }),
      paymentRecord(ORG, ACCEPTOR, { id: 'pay_late', created_at: '2026-11-18T01:00:00Z', paid_at: '2026-11-18T09:00:00.000001+00:00' }),
      refundRecord({ id: 'rf_offset', created_at: '2026-11-18T10:00:00+02:00' }),
      chargebackRecord({ id: 'cb_first', created_at: '2026-11-17T23:59:59.999999+00:00' }),
      paymentRecord(ORG, ACCEPTOR, { id: 'pay_early', created_at: '2026-11-18T08:59:59.999Z', paid_at: null, status: 'open' }),
    ].map(stored);
    // Act
    const newestFirst = [...records].sort((a, b) => (transactionTime(a) < transactionTime(b) ? 1 : -1));
    // Assess
    expect(newestFirst.map((record) => ('id' in record ? record.id : record.payment_id))).toEqual(['pay_late', 'pay_early', 'rf_offset', 'pay_rollback', 'cb_first']);
  });
});

describe('Function: recordsCsv', () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ['csv: a payment is its own payment_id', paymentRecord(ORG, ACCEPTOR, { id: 'pay_1', amount: { value: '10', currency: 'EUR' } }), ['payment', 'credit', 'pay_1', 'pay_1', 'paid', '10.00', 'eur', '2026-11-18']],
    ['csv: a refund names its payment', refundRecord({ id: 'rf_1', payment_id: 'pay_1' }), ['refund', 'debit', 'rf_1', 'pay_1', 'refunded', '2.50', 'eur', '2026-11-18']],
    ['csv: a chargeback reversal has no id and no status', chargebackReversalRecord({ payment_id: 'pay_1' }), ['chargeback_reversal', 'credit', '', 'pay_1', '', '7.00', 'eur', '2026-11-17']],
    ['csv: a rollback without payment has empty ids', rollbackRecord({ payment_id: null }), ['rollback', 'debit', '', '', '', '3.00', 'eur', '2026-11-16']],
  ])('%s', (_rule, record, row) => {
    // Act
    const csv = recordsCsv([stored(record)]);
    // Assess
    expect(csv).toBe(`type,direction,id,payment_id,status,amount,currency,transaction_date\r\n${row.join(',')}\r\n`);
  });
});

describe('Function: isSettlementCode, isSettlementId and isRecordId', () => {
  test.each<[string, (value: string) => boolean, string, boolean]>([
    ['lookup: a bank reference is a code', isSettlementCode, 'STL-2026-11-20', true],
    ['lookup: URL path characters are allowed in a code', isSettlementCode, "A:B@C+D'1", true],
    ['lookup: a slash is not', isSettlementCode, 'A/B', false],
    ['lookup: a code is at most 100 characters', isSettlementCode, 'x'.repeat(101), false],
    ['lookup: an empty code is none', isSettlementCode, '', false],
    ['lookup: stl_ names a settlement id', isSettlementId, 'stl_01jd2x3y4z5a6b7c8d9e0f1g2h', true],
    ['lookup: a code is no settlement id', isSettlementId, 'STL-2026-11-20', false],
    ['cursor: a payment id', isRecordId, 'pay_1', true],
    ['cursor: a refund id', isRecordId, 'rf_1', true],
    ['cursor: a chargeback id', isRecordId, 'cb_1', true],
    ['cursor: a settlement id is no record cursor', isRecordId, 'stl_1', false],
    ['cursor: an id with characters outside the body', isRecordId, 'pay_1-2', false],
  ])('%s', (_rule, check, value, expected) => {
    // Act
    const valid = check(value);
    // Assess
    expect(valid).toBe(expected);
  });
});

describe('Schema: SettlementSchema', () => {
  test('every settlement object the service shows passes its own output schema', () => {
    // Act
    const parsed = SettlementSchema.safeParse(settlementResource(aSettlement(), urls));
    // Assess
    expect(parsed.error?.issues).toBeUndefined();
  });
});
