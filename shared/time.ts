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
  if (zone !== 'Z' && zone !== '+00:00') return isoMicros(value);
  return `${seconds}.${fraction.padEnd(6, '0')}+00:00`;
}

/** ISO 8601 datetime with an explicit zone; fractional seconds optional. */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function isValidDatetime(value: string): boolean {
  return ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
}

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
