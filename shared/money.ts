import { ISO_4217 } from './iso-4217';
import { LIMITS } from './limits';
import * as z from './zod';

/**
 * Money inside the service is an integer of minor units with an upper-case ISO 4217 currency.
 * A minor unit is a hundredth of the major unit in every currency, the unit of the contract's
 * two-digit decimals (`"1000.00"` JPY is 100000): balances, refunds, settlements and events
 * add and compare amounts without a table, and stored amounts mean what they always meant.
 * A currency's own minor unit decides which amounts exist (JPY: whole yen, multiples of 100;
 * KWD's third digit cannot be written in the contract's forms, so a KWD amount here is a whole
 * number of ten fils) and how a customer reads one (`formatForCustomer`). The API's decimal
 * strings and JSON numbers are produced only at the edge; an acquirer's count in the currency's
 * own minor unit is converted here, exactly both ways (`toCurrencyMinorUnits`,
 * `fromCurrencyMinorUnits`), so an amount the service cannot hold matches none it has.
 */
export interface Money {
  minor: number;
  currency: string;
}

export const DECIMAL_AMOUNT = /^[0-9]+(\.[0-9]{1,2})?$/;
export const SIGNED_DECIMAL_AMOUNT = /^-?[0-9]+(\.[0-9]{1,2})?$/;

/** Parses `"12.5"` or `"-3.00"` into minor units; the caller has matched the pattern. */
export function parseMinor(value: string): number {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(minor)) throw new RangeError('amount out of range');
  return negative ? -minor : minor;
}

/** `parseMinor` for untrusted input: undefined when malformed or beyond a safe integer. */
export function tryParseMinor(value: string): number | undefined {
  if (!SIGNED_DECIMAL_AMOUNT.test(value)) return undefined;
  try {
    return parseMinor(value);
  } catch {
    return undefined;
  }
}

/** For schemas: a decimal string of at most LIMITS.amountMinor (others are 422 `too large`, not 500). */
export const fitsMinorUnits = (value: string) => {
  if (!SIGNED_DECIMAL_AMOUNT.test(value)) return true;
  const minor = tryParseMinor(value);
  return minor !== undefined && Math.abs(minor) <= LIMITS.amountMinor;
};

/** `1050` -> `"10.50"`. */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `1050` -> `10.5`, the JSON-number form of payment-link output. */
export function minorToNumber(minor: number): number {
  return Number(formatMinor(minor));
}

/** ISO 4217's digits of each currency's minor unit, by upper-case code (shared/iso-4217.ts). */
const MINOR_DIGITS = /* @__PURE__ */ (() =>
  new Map(
    Object.entries(ISO_4217.codesByMinorDigits).flatMap(([digits, codes]) => codes.split(/\s+/).map((code) => [code, Number(digits)] as const)),
  ))();

/** Every code ISO 4217 lists, alphabetically. */
export const currencyCodes = (): string[] => [...MINOR_DIGITS.keys()].sort();

/** The digits of `currency`'s minor unit (JPY 0, EUR 2, KWD 3); undefined for a code ISO 4217 does not list. */
export function minorDigitsOf(currency: string): number | undefined {
  return MINOR_DIGITS.get(currency.toUpperCase());
}

/** Whether `minor` is a whole number of `currency`'s own minor unit: JPY has none, so whole yen only. */
export function fitsMinorDigits(minor: number, currency: string): boolean {
  const digits = minorDigitsOf(currency) ?? 2;
  return digits >= 2 || minor % 10 ** (2 - digits) === 0;
}

/** How many places a currency's own minor unit sits from the service's hundredths: JPY -2, EUR 0, KWD 1. */
const shiftOf = (currency: string) => (minorDigitsOf(currency) ?? 2) - 2;

/**
 * `money` counted in its currency's own minor unit, the ISO 4217 exponent (what an acquirer
 * counts in): EUR 10.50 is 1050, JPY 1,000 is 1000, KWD 1.23 is 1230 fils. Exact: a fraction of
 * a yen, which the input rules (`fitsMinorDigits`) never let in, is a RangeError, never rounded.
 */
export function toCurrencyMinorUnits(money: Money): number {
  const shift = shiftOf(money.currency);
  const units = shift >= 0 ? money.minor * 10 ** shift : money.minor / 10 ** -shift;
  if (!Number.isSafeInteger(units)) throw new RangeError(`${money.minor} hundredths of ${money.currency} are not a whole number of its minor unit`);
  return units;
}

/**
 * An amount counted in its currency's own minor unit, as the service's money when the service
 * holds it exactly: 1230 fils are KWD 1.23; 1225 fils (KWD 1.225) have a third digit that no
 * amount here has (the contract's amounts have two), so they are undefined, never rounded to a
 * neighbour. A fraction of an amount is never another amount.
 */
export function fromCurrencyMinorUnits(units: number, currency: string): Money | undefined {
  const shift = shiftOf(currency);
  const minor = shift >= 0 ? units / 10 ** shift : units * 10 ** -shift;
  return Number.isSafeInteger(units) && Number.isSafeInteger(minor) ? { minor, currency: normalizeCurrency(currency) } : undefined;
}

/** The same amount in the same currency (letter case aside); an amount the service cannot hold (none) is never equal. */
export const sameMoney = (a: Money | null | undefined, b: Money | null | undefined): boolean =>
  !!a && !!b && a.minor === b.minor && normalizeCurrency(a.currency) === normalizeCurrency(b.currency);

/**
 * An amount as a customer reads it, the one form every page shows: `€49.90`, `¥1,000`,
 * `KWD 1.500`. The digits are ISO 4217's, not ICU's (which shows HUF 10.50 as `HUF 11`), and the
 * decimal string is formatted as it is, never through a floating-point number.
 */
export function formatForCustomer(minor: number, currency: string): string {
  const digits = minorDigitsOf(currency) ?? 2;
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(formatMinor(minor) as Intl.StringNumericLiteral);
}

export function normalizeCurrency(code: string): string {
  return code.toUpperCase();
}

/** `{value: "10.50", currency}` with the currency in the letter case the resource uses. */
export function moneyOut(money: Money, letterCase: 'upper' | 'lower'): { value: string; currency: string } {
  return {
    value: formatMinor(money.minor),
    currency: letterCase === 'upper' ? money.currency.toUpperCase() : money.currency.toLowerCase(),
  };
}

/** The API's money object on output: a decimal string with two fraction digits and a currency. */
export const AmountSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      value: z.withMeta(z.string().check(z.regex(/^-?[0-9]+\.[0-9]{2}$/)), { description: 'Decimal with two fraction digits.', example: '10.50' }),
      currency: z.withMeta(z.string().check(z.regex(/^[A-Za-z]{3}$/)), {
        description: 'Three-letter currency code; its letter case depends on the resource.',
        example: 'EUR',
      }),
    }),
    { id: 'Amount' },
  ))();
