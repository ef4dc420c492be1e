// eslint-disable-next-line no-restricted-syntax -- the reference: zod's own English locale, which the service's messages must match.
import { en } from 'zod/locales';
import * as z from '../../../shared/zod';

/*
 * shared/zod.ts writes zod's English messages itself (the locale module cost 2.6 KB in every
 * function). Each schema kind the service uses, with an input it refuses, must read the same
 * as with zod's locale: the error envelopes quote these messages.
 */
const english = en().localeError;

const cases: [string, z.ZodMiniType, unknown][] = [
  ['wrong type', z.string(), 5],
  ['null for a number', z.number(), null],
  ['array for an object', z.object({ a: z.string() }), []],
  ['NaN', z.number(), Number.NaN],
  ['Infinity (JSON.parse of 1e999)', z.number(), Number.POSITIVE_INFINITY],
  ['-Infinity', z.int(), Number.NEGATIVE_INFINITY],
  ['a missing field', z.object({ a: z.string() }), {}],
  ['a literal', z.literal('payment_link'), 'payment'],
  ['an enum', z.enum(['active', 'inactive']), 'expired'],
  ['a long string', z.string().check(z.maxLength(3)), 'abcd'],
  ['a short string', z.string().check(z.minLength(2)), 'a'],
  ['an exact length', z.string().check(z.length(3)), 'ab'],
  ['a big integer', z.int().check(z.lte(10)), 11],
  ['a small integer', z.int().check(z.gte(1)), 0],
  ['a negative number', z.number().check(z.nonnegative()), -1],
  ['a non-integer', z.int(), 2.5],
  ['a long array', z.array(z.string()).check(z.maxLength(1)), ['a', 'b']],
  ['a pattern', z.string().check(z.regex(/^[0-9]+$/)), 'x'],
  ['an email', z.email(), 'nobody'],
  ['a url', z.url(), 'not a url'],
  ['an ISO datetime', z.iso.datetime(), 'yesterday'],
  ['an ISO date', z.iso.date(), '2026-13-45'],
  ['a multiple', z.number().check(z.multipleOf(5)), 7],
  ['unknown keys', z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 }],
  ['a union', z.union([z.string(), z.number()]), true],
  ['a discriminated union', z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]), { type: 'c' }],
];

test.each(cases)("%s: the message is zod's English one", (_name, schema, input) => {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  const issues = result.error!.issues;
  for (const issue of issues) {
    const reference = english({ ...issue, input: inputAt(input, issue.path) } as never);
    expect(issue.message).toBe(typeof reference === 'string' ? reference : reference?.message);
  }
});

function inputAt(input: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], input);
}
