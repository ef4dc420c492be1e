import { LIMITS } from './limits';
import * as z from './zod';

/**
 * Money inside the service is integer minor units (cents) with an upper-case ISO currency.
 * The API's decimal strings and JSON numbers are produced only at the edge.
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
/** An amount as a customer reads it (`€49.90`); minor units of a two-decimal currency. */
export function formatForCustomer(minor: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(minorToNumber(minor));
}

export function minorToNumber(minor: number): number {
  return Number(formatMinor(minor));
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
