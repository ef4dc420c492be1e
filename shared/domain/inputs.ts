import * as z from '../zod';
import { DECIMAL_AMOUNT, SIGNED_DECIMAL_AMOUNT, fitsMinorDigits, fitsMinorUnits, minorDigitsOf, tryParseMinor } from '../money';
import { LIMITS } from '../limits';
import { isValidDatetime } from '../time';

/**
 * The input vocabulary every request schema is written in. Each schema carries the contract's
 * split: a value of the wrong shape (type, pattern, format) is a 400; one that breaks a business
 * rule (not positive, too large) is a 422, marked with `businessRule` and mapped once by the
 * HTTP edge (shared/http/validation.ts).
 */

const BUSINESS_RULE = { businessRule: true } as const;

/** A zod refinement whose failure is a 422 rather than a 400 (reported at `path` when given). */
export const businessRule = <T>(check: (value: T) => boolean, message: string, path?: string[]) =>
  [check, { message, params: BUSINESS_RULE, ...(path ? { path } : {}) }] as const;

/** Whether a failed refinement was declared with `businessRule`. */
export const isBusinessRule = (params: unknown) => (params as { businessRule?: boolean } | undefined)?.businessRule === true;

const isPositive = (value: string) => !DECIMAL_AMOUNT.test(value) || (tryParseMinor(value) ?? 1) > 0;

/**
 * A string's length as the contract counts characters: Unicode code points, as JSON Schema's
 * `maxLength` counts them. JavaScript's `length` and zod's `maxLength` count UTF-16 units, two
 * for an emoji or any other character beyond U+FFFF.
 */
export function codePointLength(value: string): number {
  let length = 0;
  for (let index = 0; index < value.length; index += (value.codePointAt(index) ?? 0) > 0xffff ? 2 : 1) length++;
  return length;
}

/**
 * A client's text of `min` to `max` characters (code points): a business rule (422), as the
 * contract makes its lengths, stated in the schema as JSON Schema counts them (`minLength`,
 * `maxLength`), which zod's own length checks, counting UTF-16 units, would not be.
 */
export const boundedText = (field: string, min: number, max: number) =>
  z.withMeta(
    z.string().check(
      z.refine(
        ...businessRule<string>((value) => {
          const length = codePointLength(value);
          return length >= min && length <= max;
        }, `${field} is ${min > 0 ? `${min} to ${max}` : `at most ${max}`} characters long`),
      ),
    ),
    { ...(min > 0 ? { minLength: min } : {}), maxLength: max },
  );

/** `amount.value` of a new amount: the one place where "positive" is decided. */
export const positiveAmountValue = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.regex(DECIMAL_AMOUNT, 'must be a decimal with at most two fraction digits'),
      z.refine(...businessRule<string>(isPositive, 'amount.value must be positive')),
      z.refine(...businessRule<string>(fitsMinorUnits, 'amount.value is too large')),
    ))();

/** A signed `amount.value` (balance adjustments): negative debits. */
export const signedAmountValue = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.regex(SIGNED_DECIMAL_AMOUNT, 'must be a signed decimal with at most two fraction digits'),
      z.refine(...businessRule<string>(fitsMinorUnits, 'amount.value is too large')),
    ))();

/** An ISO 4217 code in any letter case (product-decisions §4): a code the standard does not list is a 400. */
export const currencyCode = /* @__PURE__ */ (() =>
  z.withMeta(
    z.string().check(
      z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code'),
      z.refine((code: string) => minorDigitsOf(code) !== undefined, 'amount.currency must be an ISO 4217 currency code'),
    ),
    { description: 'An ISO 4217 currency code, in any letter case.' },
  ))();

/**
 * A request's `{value, currency}`: besides each field's own rules, an amount finer than its
 * currency's minor unit (a fraction of a yen) is a 422 at `value`, the one place where it is decided.
 */
export const amountInput = (fields: { value: z.ZodMiniString; currency: z.ZodMiniString }) =>
  z.strictObject(fields).check(
    z.refine(
      ...businessRule<{ value: string; currency: string }>(({ value, currency }) => {
        const minor = tryParseMinor(value);
        return minor === undefined || fitsMinorDigits(minor, currency);
      }, 'amount.value has a fraction its currency does not have', ['value']),
    ),
  );

/**
 * What a checkout collects (`collect_email`, `collect_phone`, `collect_address`), one rule for
 * the server and the page's markup: the patterns are written for HTML's `pattern` attribute
 * (compiled with the `v` flag, as browsers do) and the server compiles them the same way.
 * The email is HTML's "valid e-mail address", the rule of every browser's `input type=email`.
 */
const DOMAIN_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9\\-]{0,61}[a-zA-Z0-9])?';
export const EMAIL_ADDRESS_PATTERN = `[a-zA-Z0-9.!#$%&'*+\\/=?^_\`\\{\\|\\}~\\-]+@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*`;
/** Digits with the marks people write between them (`+49 (30) 1234-56`, `030/123.456`), at least one digit. */
export const PHONE_NUMBER_PATTERN = '\\+?[ \\(\\)\\.\\/\\-]*[0-9][0-9 \\(\\)\\.\\/\\-]*';

const wholeMatch = (pattern: string) => new RegExp(`^(?:${pattern})$`, 'v');

/**
 * A customer's text, measured as the page's `maxlength` measures it: line breaks as one `\n`
 * (a browser sends a textarea's as CRLF), trimmed (as a browser trims an email), bounded before
 * any pattern runs, then, when it has one, matched.
 */
const customerText = (maxLength: number, pattern?: { source: string; message: string }) =>
  z.string().check(
    z.overwrite((value) => value.replace(/\r\n?/g, '\n')),
    z.trim(),
    z.minLength(1),
    z.maxLength(maxLength, { abort: true }),
    ...(pattern ? [z.regex(wholeMatch(pattern.source), pattern.message)] : []),
  );

export const emailAddressInput = /* @__PURE__ */ (() =>
  customerText(LIMITS.customer.emailLength, { source: EMAIL_ADDRESS_PATTERN, message: 'must be an email address such as ann@example.com' }))();

export const phoneNumberInput = /* @__PURE__ */ (() =>
  customerText(LIMITS.customer.phoneLength, { source: PHONE_NUMBER_PATTERN, message: 'must be a phone number: digits, spaces and + ( ) - . /' }))();

export const postalAddressInput = /* @__PURE__ */ (() => customerText(LIMITS.customer.addressLength))();

/** A datetime a client sends: ISO 8601 with a time zone, fractional seconds optional. */
export const datetimeInput = /* @__PURE__ */ (() =>
  z.withMeta(z.string().check(z.refine(isValidDatetime, 'must be an ISO 8601 datetime with a time zone')), {
    format: 'date-time',
    description: 'ISO 8601 with a time zone; fractional seconds optional.',
  }))();

/** An http(s) URL a client gives, at most LIMITS.urlLength characters (longer is a 400, like any malformed URL). */
export const httpUrlInput = /* @__PURE__ */ (() =>
  z.withMeta(
    z.pipe(z.string().check(z.maxLength(LIMITS.urlLength)), z.url({ protocol: /^https?$/, error: 'must be an http or https URL' })),
    { format: 'uri', maxLength: LIMITS.urlLength },
  ))();

/**
 * For a record of a client's keys, before zod copies it (the `in` of a pipe): `__proto__` would
 * vanish into the copy's prototype and `constructor` or `prototype` would shadow what objects
 * rely on (422).
 */
export function rejectReservedKeys(value: unknown, payload: z.core.ParsePayload): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const reserved = Object.keys(value).filter((key) => (LIMITS.reservedMetadataKeys as readonly string[]).includes(key));
  if (reserved.length) {
    payload.issues.push({
      code: 'custom',
      message: `metadata keys ${LIMITS.reservedMetadataKeys.join(', ')} are reserved: ${reserved.join(', ')}`,
      params: BUSINESS_RULE,
      input: value,
      path: [],
    });
  }
  return value;
}
