import {
  SettlementCodeTakenError,
  SettlementImportError,
  importSettlements,
  parseSettlementDocument,
  settlementDraft,
  type SettlementDraft,
  type SettlementImportStore,
} from '../../../shared/domain/settlement-import';
import { SettlementImport, type Settlement, type StoredRecord } from '../../../shared/domain/settlements';
import { BusinessRuleError } from '../../../shared/errors';
import { clearingLine, paymentRecord, refundRecord, settlementInput } from '../../support/settlements';
import { thrownBy } from './fixtures';

/**
 * The settlement feed import (product-decisions §8, §11): the document is validated whole with
 * the output schemas and refused whole at its first problem, naming the settlement and the
 * field; a code is one settlement however often it is imported. The store is in memory.
 */

const ORG = 'org_01jd2x3y4z5a6b7c8d9e0f1g2h';
const OTHER_ORG = 'org_01jd2x3y4z5a6b7c8d9e0f1g3j';
const ACCEPTOR = 'acceptor_01jd2x3y4z5a6b7c8d9e0f1g2h';
const NOW = new Date('2026-11-21T07:00:00.000Z');

const settlement = (overrides: Record<string, unknown> = {}) => settlementInput(ORG, { code: 'STL-A', ...overrides });
const { amount: _amount, ...lineWithoutAmount } = clearingLine();

describe('Function: parseSettlementDocument', () => {
  test.each<[string, unknown, string, string]>([
    ['refused: no settlements array', {}, 'settlements', 'document: settlements: '],
    ['refused: an unknown member beside settlements', { settlements: [], extra: 1 }, 'extra', 'document: extra: '],
    ['refused: an amount with three fraction digits', { settlements: [settlement({ amount: { value: '12.345', currency: 'EUR' } })] }, 'amount.value', 'settlement STL-A (settlements[0]): amount.value: '],
    ['refused: an unknown settlement field', { settlements: [settlement({ payout: true })] }, 'payout', 'settlement STL-A (settlements[0]): payout: '],
    ['refused: a settlement status outside the contract', { settlements: [settlement({ status: 'paid' })] }, 'status', 'settlement STL-A (settlements[0]): status: '],
    ['refused: a code that cannot name the resource', { settlements: [settlement({ code: 'A/B' })] }, 'code', 'settlement A/B (settlements[0]): code: '],
    ['refused: a clearing line without its amount', { settlements: [settlement({ clearings: [{ created_at: '2026-11-19T08:00:00Z', clearing_lines: [lineWithoutAmount] }] })] }, 'clearings[0].clearing_lines[0].amount', 'settlement STL-A (settlements[0]): clearings[0].clearing_lines[0].amount: '],
    ['refused: a record type outside the contract', { settlements: [settlement({ records: [{ object: 'transfer' }] })] }, 'records[0].object', 'settlement STL-A (settlements[0]): records[0].object: '],
    ['refused: a record id without its prefix', { settlements: [settlement({ records: [refundRecord({ id: 'pay_1' })] })] }, 'records[0].id', 'settlement STL-A (settlements[0]): records[0].id: '],
    ['refused: a code twice in the file', { settlements: [settlement(), settlement()] }, 'code', 'settlement STL-A (settlements[1]): code: appears twice in the file (also settlements[0])'],
    ['refused: an id twice in the file', { settlements: [settlement({ id: 'stl_1' }), settlement({ id: 'stl_1', code: 'STL-B' })] }, 'id', 'settlement STL-B (settlements[1]): id: appears twice in the file (also settlements[0])'],
    ['refused: a record id twice in one settlement', { settlements: [settlement({ records: [refundRecord({ id: 'rf_1' }), refundRecord({ id: 'rf_1' })] })] }, 'records[1].id', 'settlement STL-A (settlements[0]): records[1].id: rf_1 appears twice (also records[0])'],
    ['refused: a payment record of another organization', { settlements: [settlement({ records: [paymentRecord(OTHER_ORG, ACCEPTOR)] })] }, 'records[0].org_id', `settlement STL-A (settlements[0]): records[0].org_id: must be the settlement's organization ${ORG}`],
  ])('%s', (_rule, document, attribute, detail) => {
    // Act
    const error = thrownBy(() => parseSettlementDocument(document));
    // Assess
    expect(error).toBeInstanceOf(SettlementImportError);
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect((error as SettlementImportError).attribute).toBe(attribute);
    expect((error as SettlementImportError).detail).toContain(`Settlement file refused, nothing imported: ${detail}`);
  });

  test.each<[string, unknown[]]>([
    ['accepted: a settlement without records', [{ ...settlement(), records: undefined }]],
    ['accepted: the same code in two organizations', [settlement(), settlementInput(OTHER_ORG, { code: 'STL-A' })]],
    ['accepted: the same record id in two settlements', [settlement({ records: [refundRecord({ id: 'rf_1' })] }), settlement({ code: 'STL-B', records: [refundRecord({ id: 'rf_1' })] })]],
    ['accepted: an empty file', []],
  ])('%s', (_rule, settlements) => {
    // Act
    const parsed = parseSettlementDocument(JSON.parse(JSON.stringify({ settlements })));
    // Assess
    expect(parsed).toHaveLength(settlements.length);
    for (const input of parsed) expect(Array.isArray(input.records)).toBe(true);
  });
});

describe('Function: settlementDraft', () => {
  const existing = { createdAt: '2026-11-01T00:00:00.000000+00:00' } as Settlement;
  const draftOf = (overrides: Record<string, unknown>, before?: Settlement) => settlementDraft(SettlementImport.parse(settlement(overrides)), 'stl_x', before, NOW);

  test.each<[string, Record<string, unknown>, Settlement | undefined, string, string]>([
    ['timestamps: the file\'s created_at and updated_at, in microseconds +00:00', { created_at: '2026-11-20T06:00:00Z', updated_at: '2026-11-21T06:00:00.5Z' }, undefined, '2026-11-20T06:00:00.000000+00:00', '2026-11-21T06:00:00.500000+00:00'],
    ['timestamps: without created_at a re-import keeps the first one', { created_at: undefined, updated_at: undefined }, existing, existing.createdAt, '2026-11-21T07:00:00.000000+00:00'],
    ['timestamps: without created_at a first import is created now', { created_at: undefined, updated_at: undefined }, undefined, '2026-11-21T07:00:00.000000+00:00', '2026-11-21T07:00:00.000000+00:00'],
  ])('%s', (_rule, overrides, before, createdAt, updatedAt) => {
    // Act
    const draft = draftOf(overrides, before);
    // Assess
    expect([draft.createdAt, draft.updatedAt]).toEqual([createdAt, updatedAt]);
  });

  test('stored: live mode, money in minor units with an upper-case currency, clearings in minor units, the record count', () => {
    // Act
    const draft = draftOf({ amount: { value: '99.9', currency: 'eur' }, records: [refundRecord(), refundRecord()] });
    // Assess
    expect(draft).toMatchObject({ id: 'stl_x', orgId: ORG, mode: 'live', code: 'STL-A', amountMinor: 9990, currency: 'EUR', recordCount: 2 });
    expect(draft.clearings).toEqual([{ created_at: '2026-11-19T08:00:00.123456+00:00', clearing_lines: [{ ...lineWithoutAmount, amountMinor: 10000, currency: 'EUR' }] }]);
  });

  test('content hash: the same content hashes alike; any change differs', () => {
    // Prepare
    const same = settlement({ records: [refundRecord({ id: 'rf_1', payment_id: 'pay_1' })] });
    // Act
    const [first, again, changed] = [same, same, { ...same, status: 'failed' }].map((input) => settlementDraft(SettlementImport.parse(input), 'stl_x', undefined, NOW).contentHash);
    // Assess
    expect(first).toBe(again);
    expect(changed).not.toBe(first);
  });
});

describe('Use case: importSettlements (in-memory store)', () => {
  /** Organizations, settlements by code and id, and what was saved; `race` makes the next first save lose to another id. */
  function settlementStore(organizations: string[], existing: Settlement[] = []) {
    const byId = new Map(existing.map((item) => [item.id, item]));
    const saved: { draft: SettlementDraft; records: StoredRecord[] }[] = [];
    let raceWinner: string | undefined;
    const store: SettlementImportStore = {
      organizationExists: async (orgId) => organizations.includes(orgId),
      findByCode: async (orgId, code) => [...byId.values()].find((item) => item.orgId === orgId && item.code === code),
      findById: async (id) => byId.get(id),
      async save(draft, records) {
        if (raceWinner && draft.id !== raceWinner) {
          const winner = raceWinner;
          raceWinner = undefined;
          byId.set(winner, { ...draft, id: winner, recordsVersion: 'v0' });
          throw new SettlementCodeTakenError(winner);
        }
        byId.set(draft.id, { ...draft, recordsVersion: `v${saved.length + 1}` });
        saved.push({ draft, records });
      },
    };
    return { store, saved, loseNextRaceTo: (id: string) => (raceWinner = id) };
  }
  const previously = (overrides: Partial<Settlement> = {}): Settlement => ({
    ...settlementDraft(SettlementImport.parse(settlement()), 'stl_first', undefined, new Date('2026-11-01T00:00:00.000Z')),
    createdAt: '2026-11-01T00:00:00.000000+00:00',
    recordsVersion: 'v0',
    ...overrides,
  });

  test('import: every settlement saved with its records stored; the answer counts them', async () => {
    // Prepare
    const { store, saved } = settlementStore([ORG]);
    const document = { settlements: [settlement({ records: [refundRecord({ id: 'rf_1' })] }), settlement({ code: 'STL-B' })] };
    // Act
    const result = await importSettlements(store, document, NOW);
    // Assess
    expect(result).toEqual({ imported: 2 });
    expect(saved.map(({ draft }) => draft.code)).toEqual(['STL-A', 'STL-B']);
    expect(saved[0].records).toEqual([expect.objectContaining({ object: 'refund', id: 'rf_1', amountMinor: 250, currency: 'EUR' })]);
    expect(saved.every(({ draft }) => /^stl_/.test(draft.id))).toBe(true);
  });

  test('import: a settlement of an unknown organization refuses the whole file; nothing is saved', async () => {
    // Prepare
    const { store, saved } = settlementStore([ORG]);
    const document = { settlements: [settlement(), settlementInput(OTHER_ORG, { code: 'STL-B' })] };
    // Act
    const error = await importSettlements(store, document, NOW).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(SettlementImportError);
    expect(error).toMatchObject({ attribute: 'org_id', detail: expect.stringContaining(`organization ${OTHER_ORG} does not exist`) });
    expect(saved).toEqual([]);
  });

  test('import: a file the schemas refuse saves nothing', async () => {
    // Prepare
    const { store, saved } = settlementStore([ORG]);
    // Act
    const error = await importSettlements(store, { settlements: [settlement(), settlement({ code: 'STL-B', status: 'paid' })] }, NOW).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(SettlementImportError);
    expect(saved).toEqual([]);
  });

  test('import: a known code is the same settlement: its id and first created_at are kept', async () => {
    // Prepare
    const { store, saved } = settlementStore([ORG], [previously()]);
    // Act
    await importSettlements(store, { settlements: [settlement({ created_at: undefined, status: 'failed' })] }, NOW);
    // Assess
    expect(saved.map(({ draft }) => [draft.id, draft.createdAt, draft.status])).toEqual([['stl_first', '2026-11-01T00:00:00.000000+00:00', 'failed']]);
  });

  test.each<[string, Settlement[], Record<string, unknown>, string]>([
    ['import: an id that does not match the code\'s settlement -> refused', [previously()], { id: 'stl_other' }, 'stl_other does not match stl_first, already imported with this code'],
    ['import: an id that already belongs to another code -> refused', [previously({ code: 'STL-OLD' })], { id: 'stl_first' }, 'stl_first already belongs to settlement STL-OLD'],
  ])('%s', async (_rule, existing, overrides, detail) => {
    // Prepare
    const { store, saved } = settlementStore([ORG], existing);
    // Act
    const error = await importSettlements(store, { settlements: [settlement(overrides)] }, NOW).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(SettlementImportError);
    expect(error).toMatchObject({ attribute: 'id', detail: expect.stringContaining(detail) });
    expect(saved).toEqual([]);
  });

  test('import: a given id names a new settlement', async () => {
    // Prepare
    const { store, saved } = settlementStore([ORG]);
    // Act
    await importSettlements(store, { settlements: [settlement({ id: 'stl_given' })] }, NOW);
    // Assess
    expect(saved.map(({ draft }) => draft.id)).toEqual(['stl_given']);
  });

  test('import: two first imports of one code raced and the other won: this one updates the winner', async () => {
    // Prepare
    const { store, saved, loseNextRaceTo } = settlementStore([ORG]);
    loseNextRaceTo('stl_winner');
    // Act
    const result = await importSettlements(store, { settlements: [settlement()] }, NOW);
    // Assess
    expect(result).toEqual({ imported: 1 });
    expect(saved.map(({ draft }) => draft.id)).toEqual(['stl_winner']);
  });

  test('import: a lost race with an explicit id is not papered over: the error surfaces', async () => {
    // Prepare
    const { store, saved, loseNextRaceTo } = settlementStore([ORG]);
    loseNextRaceTo('stl_winner');
    // Act
    const error = await importSettlements(store, { settlements: [settlement({ id: 'stl_mine' })] }, NOW).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(SettlementCodeTakenError);
    expect(saved).toEqual([]);
  });
});
