import {
  PAID_SHARDS,
  SHARDS_CLOSING_MS,
  closesShards,
  countsOnShards,
  foldsShards,
  itemPaidCount,
  leftClosed,
  waitsForShardsClosing,
  withPaidShards,
  type PaidShard,
  type PaidShards,
  type PaymentLink,
  type VersionedLink,
} from '../../../shared/domain/payment-links';
import { aLink } from './fixtures';

/**
 * An unlimited link's paid counter on shards (product-decisions §15, docs/architecture.md
 * Capacity): how a read sums them, which payments count on them, and which changes close,
 * fold and reopen them. Each a pure function of the link as read (and the change).
 */

const T1 = '2026-11-20T10:01:00.000Z';
const T2 = '2026-11-20T10:02:00.000Z';
const T3 = '2026-11-20T10:03:00.000Z';

const OPEN: PaidShards = { paid: { paidCount: 0, firstPaidAt: null, lastPaidAt: null }, closed: 0, closedAt: null, generation: 0 };
const CLOSED: PaidShards = { ...OPEN, closed: PAID_SHARDS, closedAt: T1 };
const SOME_CLOSED: PaidShards = { ...OPEN, closed: 3, closedAt: T1 };

const read = (overrides: Partial<PaymentLink>, shards: PaidShards | null = OPEN): VersionedLink => ({ ...aLink(overrides), version: 4, ...(shards ? { shards } : {}) });

describe('Function: withPaidShards (a link as read: its item and its shards)', () => {
  test.each<[string, Partial<PaymentLink>, PaidShard[], Pick<PaymentLink, 'paidCount' | 'firstPaidAt' | 'lastPaidAt'>, Omit<PaidShards, 'paid'>]>([
    ['read: no shard written yet -> the item\'s counts, shards open in no generation', { paidCount: 2, firstPaidAt: T1, lastPaidAt: T2 }, [], { paidCount: 2, firstPaidAt: T1, lastPaidAt: T2 }, { closed: 0, closedAt: null, generation: 0 }],
    [
      'read: paid_count is the item\'s count plus every shard\'s; first_paid_at the earliest, last_paid_at the latest',
      { paidCount: 1, firstPaidAt: T2, lastPaidAt: T2 },
      [{ paidCount: 3, firstPaidAt: T1, lastPaidAt: T3 }, { paidCount: 2, firstPaidAt: T2, lastPaidAt: T2 }],
      { paidCount: 6, firstPaidAt: T1, lastPaidAt: T3 },
      { closed: 0, closedAt: null, generation: 0 },
    ],
    ['read: only shards paid -> their counts, the item\'s null times left out', {}, [{ paidCount: 1, firstPaidAt: T3, lastPaidAt: T3 }], { paidCount: 1, firstPaidAt: T3, lastPaidAt: T3 }, { closed: 0, closedAt: null, generation: 0 }],
    ['read: a shard closed before any payment counts as closed, with nothing paid', {}, [{ closedAt: T2 }], { paidCount: 0, firstPaidAt: null, lastPaidAt: null }, { closed: 1, closedAt: T2, generation: 0 }],
    ['read: closed shards still count what they hold (until it is folded); closed when the last was', {}, [{ closedAt: T3, paidCount: 4, firstPaidAt: T1, lastPaidAt: T2 }, { closedAt: T2 }, {}], { paidCount: 4, firstPaidAt: T1, lastPaidAt: T2 }, { closed: 2, closedAt: T3, generation: 0 }],
    ['read: reopened shards -> their generation', {}, [{ paidCount: 0, generation: 9 }, { paidCount: 1, firstPaidAt: T1, lastPaidAt: T1, generation: 9 }], { paidCount: 1, firstPaidAt: T1, lastPaidAt: T1 }, { closed: 0, closedAt: null, generation: 9 }],
  ])('%s', (_rule, item, shards, counts, state) => {
    // Act
    const link = withPaidShards(read(item, null), shards);
    // Assess
    expect({ paidCount: link.paidCount, firstPaidAt: link.firstPaidAt, lastPaidAt: link.lastPaidAt }).toEqual(counts);
    expect({ closed: link.shards!.closed, closedAt: link.shards!.closedAt, generation: link.shards!.generation }).toEqual(state);
    expect(itemPaidCount(link)).toBe(item.paidCount ?? 0);
  });
});

describe('Function: countsOnShards (where a paid payment counts)', () => {
  test.each<[string, Partial<PaymentLink>, PaidShards | null, boolean]>([
    ['pay: an active unlimited link with open shards -> on a shard, never on the link item', {}, OPEN, true],
    ['pay: a limited link -> on the link item, under its race-free limit', { paymentsLimit: 5 }, OPEN, false],
    ['pay: shards being closed by a change -> on the link item, under its conditions', {}, SOME_CLOSED, false],
    ['pay: every shard closed -> on the link item', {}, CLOSED, false],
    ['pay: a link read without its shards -> on the link item', {}, null, false],
    ['pay: an inactive link -> not on a shard', { status: 'inactive' }, OPEN, false],
  ])('%s', (_rule, link, shards, onShards) => {
    expect(countsOnShards(read(link, shards))).toBe(onShards);
  });
});

describe('Function: closesShards (a change that must close every shard first)', () => {
  test.each<[string, Partial<PaymentLink>, PaidShards, Partial<PaymentLink>, boolean]>([
    ['change: a limit set on an unlimited link with open shards -> close first', {}, OPEN, { paymentsLimit: 10 }, true],
    ['change: inactivation -> close first', {}, OPEN, { status: 'inactive' }, true],
    ['change: expiry (the sweep, or at checkout) -> close first', {}, OPEN, { status: 'expired', expiresAt: null }, true],
    ['change: a new expires_at -> close first (payers checked the old one)', {}, OPEN, { expiresAt: T3 }, true],
    ['change: a new description -> no close, payers go on', {}, OPEN, { description: 'Other' }, false],
    ['change: shards half closed by a writer that stopped -> closed again', {}, SOME_CLOSED, { paymentsLimit: 10 }, true],
    ['change: every shard closed already -> no close (the write folds them)', {}, CLOSED, { paymentsLimit: 10 }, false],
    ['change: a limited link (its payments never on shards) -> no close', { paymentsLimit: 5 }, OPEN, { paymentsLimit: 6 }, false],
    ['change: an inactive link reactivated -> no close', { status: 'inactive' }, CLOSED, { status: 'active' }, false],
  ])('%s', (_rule, link, shards, change, closes) => {
    const before = read(link, shards);
    expect(closesShards(before, { ...before, ...change })).toBe(closes);
  });
});

describe('Function: foldsShards and leftClosed (a write over closed shards)', () => {
  test.each<[string, Partial<PaymentLink>, PaidShards, Partial<PaymentLink>, { fold: boolean; reopen: boolean }]>([
    ['write: a limit set, every shard closed -> summed into the link item, left closed', {}, CLOSED, { paymentsLimit: 10 }, { fold: true, reopen: false }],
    ['write: inactivated, every shard closed -> summed, left closed', {}, CLOSED, { status: 'inactive' }, { fold: true, reopen: false }],
    ['write: a new expiry, still unlimited and active -> summed and reopened', {}, CLOSED, { expiresAt: T3 }, { fold: true, reopen: true }],
    ['write: the limit removed from a limited link -> reopened', { paymentsLimit: 5 }, CLOSED, { paymentsLimit: null }, { fold: true, reopen: true }],
    ['write: open shards (a description) -> neither', {}, OPEN, { description: 'Other' }, { fold: false, reopen: false }],
  ])('%s', (_rule, link, shards, change, expected) => {
    const before = read(link, shards);
    expect(foldsShards(before, { ...before, ...change })).toEqual(expected);
  });

  test.each<[string, Partial<PaymentLink>, PaidShards, boolean]>([
    ['left: an active unlimited link with every shard closed (its change refused or not needed) -> reopen', {}, CLOSED, true],
    ['left: a limited link with closed shards -> stay closed', { paymentsLimit: 3 }, CLOSED, false],
    ['left: an expired link -> stay closed', { status: 'expired' }, CLOSED, false],
    ['left: open shards -> nothing to reopen', {}, OPEN, false],
  ])('%s', (_rule, link, shards, reopen) => {
    expect(leftClosed(read(link, shards))).toBe(reopen);
  });
});

describe('Function: waitsForShardsClosing (a payer meeting a change under way)', () => {
  const closedAgo = (ms: number): PaidShards => ({ ...CLOSED, closedAt: new Date(Date.parse(T3) - ms).toISOString() });
  test.each<[string, Partial<PaymentLink>, PaidShards, boolean]>([
    ['pay: shards closed a moment ago on an unlimited link -> wait, read it again (the change decides)', {}, closedAgo(50), true],
    ['pay: shards being closed (some still open) -> wait', {}, { ...SOME_CLOSED, closedAt: closedAgo(50).closedAt }, true],
    ['pay: shards closed longer ago than a change takes (its writer stopped) -> count on the link item now', {}, closedAgo(SHARDS_CLOSING_MS), false],
    ['pay: a limited link (its shards closed when the limit was set) -> the link item, no wait', { paymentsLimit: 5 }, closedAgo(50), false],
    ['pay: open shards -> no wait', {}, OPEN, false],
  ])('%s', (_rule, link, shards, waits) => {
    expect(waitsForShardsClosing(read(link, shards), new Date(T3))).toBe(waits);
  });
});
