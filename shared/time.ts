import * as z from './zod';

/**
 * The service's two datetime formats: milliseconds with `Z` for every resource, and
 * microseconds with `+00:00` for settlements. Stored values are always `isoMillis`.
 */
export function isoMillis(date: Date | number = Date.now()): string {
  return new Date(date).toISOString();
}

export function isoMicros(date: Date | number | string): string {
  const iso = new Date(date).toISOString(); // 2026-11-20T10:00:00.123Z
  return `${iso.slice(0, 23)}000+00:00`;
}

/** Keeps an already-microsecond timestamp as given (settlement imports carry microseconds). */
export function toIsoMicros(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!match) return isoMicros(value);
  const [, seconds, fraction = '', zone] = match;
  // Another offset: the instant in UTC (Date keeps milliseconds), then the given digits beyond them.
  if (zone !== 'Z' && zone !== '+00:00') return `${isoMicros(value).slice(0, 23)}${fraction.padEnd(6, '0').slice(3)}+00:00`;
  return `${seconds}.${fraction.padEnd(6, '0')}+00:00`;
}

/** ISO 8601 datetime with an explicit zone; fractional seconds optional. */
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** The instants a stored datetime can name: `isoMillis` writes four-digit years, 0000 to 9999 in UTC. */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);

/**
 * A datetime a client may send: ISO 8601 with a zone, naming a moment that exists (no February
 * 30th, hour 24, leap second or 24-hour offset, which `Date.parse` would move or refuse
 * unevenly) and that falls within years 0000 to 9999 in UTC, so that it is stored as written.
 */
export function isValidDatetime(value: string): boolean {
  const match = ISO_DATETIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes] = match.slice(7).map((part) => Number(part ?? 0));
  const exists = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59;
  if (!exists || offsetHours > 23 || offsetMinutes > 59) return false;
  const instant = Date.parse(value);
  return instant >= EARLIEST && instant <= LATEST;
}

/**
 * A moment another system names (the acquirer's defense period or event date), as a stored
 * datetime: `isoMillis`, moved to the nearest end of years 0000 to 9999 when it lies beyond, so
 * that it keeps the contract's form (`toISOString` writes year 275760 as `+275760-…`). A client's
 * datetime outside them is refused instead (`isValidDatetime`); the acquirer's cannot be sent back.
 */
export function boundedIsoMillis(date: Date): string {
  return isoMillis(Math.min(Math.max(date.getTime(), EARLIEST), LATEST));
}

/** A valid datetime's instant (`isValidDatetime`) in nanoseconds since the epoch: clients may send up to nine fraction digits. */
export function instantNanos(value: string): bigint {
  const beyondMillis = (/\.\d{3}(\d*)/.exec(value)?.[1] ?? '').padEnd(6, '0');
  return BigInt(Date.parse(value)) * 1_000_000n + BigInt(beyondMillis);
}

/**
 * The first millisecond at or after a valid datetime: ids and stored datetimes count
 * milliseconds, so an instant between two is bounded by the later one.
 */
export const ceilMillis = (value: string) => Number((instantNanos(value) + 999_999n) / 1_000_000n);

/** An output datetime of every resource but settlements: ISO 8601 in UTC, milliseconds, `Z`. */
export const DatetimeSchema = /* @__PURE__ */ (() => z.withMeta(z.iso.datetime({ precision: 3 }), { example: '2026-11-20T10:00:00.000Z' }))();

/** Exponential backoff with full jitter: a random wait up to base·2^attempt, capped (ms). */
export function backoffMs(attempt: number, baseMs = 5, capMs = 250): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}

export function backoff(attempt: number, baseMs = 5, capMs = 250): Promise<void> {
  return sleep(backoffMs(attempt, baseMs, capMs));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
