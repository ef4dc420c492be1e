import fc from 'fast-check';
import { LIMITS } from '../../shared/limits';

/** An email address of exactly `length` characters that the WHATWG rule accepts. */
export const emailOf = (length: number) => `${'a'.repeat(Math.max(1, length - '@example.com'.length))}@example.com`;

const around = (bound: number) => fc.integer({ min: bound - 2, max: bound + 2 });

/** What a checkout collects, at and just past each bound of LIMITS.customer, far past it, and either side of its rule. */
export const customerDetailEdges = fc.oneof(
  around(LIMITS.customer.emailLength).map(emailOf),
  fc.integer({ min: 1, max: 300 }).map((kilobytes) => emailOf(kilobytes * 1024)),
  around(LIMITS.customer.phoneLength).map((length) => '1'.repeat(length)),
  around(LIMITS.customer.addressLength).chain((length) => fc.constantFrom('x', '€', '\u0000').map((char) => char.repeat(length))),
  fc.constantFrom('ann@example', 'ann@@example', '  ann@example.com ', '+49 (30) 1234-56', 'call me', ' '),
);

/** Datetimes outside years 0000-9999 in UTC or on days that do not exist; currencies that are no ISO 4217 code, or amounts finer than theirs. */
export const datetimeAndMoneyEdges = fc.constantFrom(
  '9999-12-31T23:59:59-23:59',
  '0000-01-01T00:00:00+00:01',
  '2027-02-30T00:00:00Z',
  '2027-01-01T24:00:00Z',
  '9999-12-31T23:59:59.999Z',
  'XYZ',
  'jpy',
  'KWD',
  '1000.5',
);
