import { randomBytes } from 'node:crypto';

/**
 * Ids are `prefix_` + a ULID-style body in lower-case Crockford base32: 10 characters of
 * millisecond time, 16 of randomness, incremented within one millisecond so that ids made by
 * one process are strictly increasing. Newest-first order is therefore id order, and an id is
 * its own pagination cursor: it maps straight onto the sort key.
 */
export const ID_PREFIXES = {
  chargeback: 'cb',
  disputeDocument: 'doc',
  payment: 'pay',
  paymentLink: 'pl',
  refund: 'rf',
  settlement: 'stl',
  organization: 'org',
  acceptor: 'acceptor',
  event: 'evt',
  user: 'usr',
  invitation: 'inv',
  apiKey: 'key',
  webhook: 'whk',
  settlementRecord: 'str',
  balanceTransaction: 'btx',
  auditEvent: 'aud',
  report: 'rpt',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_LENGTH = 10;
/** The random end of an id body, in characters. */
export const ID_RANDOM_LENGTH = 16;
const BODY = `[${ALPHABET}]{${TIME_LENGTH + ID_RANDOM_LENGTH}}`;

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_LENGTH; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function freshRandom(): number[] {
  return [...randomBytes(ID_RANDOM_LENGTH)].map((byte) => byte % 32);
}

/** Adds one to the base32 digits; the randomness has 80 bits, so it never overflows in practice. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

export function idBody(now: number = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = freshRandom();
  }
  return encodeTime(lastTime) + lastRandom.map((d) => ALPHABET[d]).join('');
}

export function newId(kind: IdKind, now?: number): string {
  return `${ID_PREFIXES[kind]}_${idBody(now)}`;
}

/** The smallest id of `kind` made at `ms` or later: a sort-key bound for "created since". */
export function firstIdAt(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(Math.max(0, Math.floor(ms)))}${'0'.repeat(ID_RANDOM_LENGTH)}`;
}

/**
 * The largest id of `kind` made before `ms`: a sort-key bound for "created before". Before the
 * first millisecond ids can name, the bare prefix, which sorts below every id.
 */
export function lastIdBefore(kind: IdKind, ms: number): string {
  const before = Math.ceil(ms) - 1;
  return before < 0 ? `${ID_PREFIXES[kind]}_` : `${ID_PREFIXES[kind]}_${encodeTime(before)}${ALPHABET[31].repeat(ID_RANDOM_LENGTH)}`;
}

/**
 * The id right after or right before `id` in id order (`step` 1 or -1): what makes an exclusive
 * bound (a cursor) inclusive, for a key condition that bounds both ends (`BETWEEN`). The body
 * is counted as one base32 number; the prefix stays.
 */
export function adjacentId(id: string, step: 1 | -1): string {
  const separator = id.lastIndexOf('_') + 1;
  const digits = [...id.slice(separator)].map((character) => ALPHABET.indexOf(character));
  for (let i = digits.length - 1; i >= 0; i--) {
    digits[i] += step;
    if (digits[i] >= 0 && digits[i] < 32) break;
    digits[i] = step === 1 ? 0 : 31;
  }
  return id.slice(0, separator) + digits.map((digit) => ALPHABET[digit]).join('');
}

/** When an id was made (epoch ms): its time part. */
export function idTime(id: string): number {
  const body = id.slice(id.lastIndexOf('_') + 1, id.lastIndexOf('_') + 1 + TIME_LENGTH);
  return [...body].reduce((ms, character) => ms * 32 + ALPHABET.indexOf(character), 0);
}

const patterns = new Map<IdKind, RegExp>();

/** True when `value` is a well-formed id of this kind (it may still name nothing). */
export function isId(kind: IdKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  let pattern = patterns.get(kind);
  if (!pattern) {
    pattern = new RegExp(`^${ID_PREFIXES[kind]}_${BODY}$`);
    patterns.set(kind, pattern);
  }
  return pattern.test(value);
}
