import * as z from 'zod/mini';

/*
 * The service's zod: the functional `zod/mini` API over the same core as zod's classic API.
 * Classic schemas carry every method on their prototype, so one `z.object(...)` kept about
 * 97 KB of zod in each function; mini keeps only the functions a bundle calls (~30 KB).
 * Parsing, issues and the OpenAPI document (zod-openapi reads the core) are the same.
 * Import it as `import * as z from '<path>/zod'` (a lint rule refuses `zod` itself elsewhere).
 */

/** How the messages name a format the service's schemas check (as zod's English locale does). */
const FORMATS: Record<string, string> = { email: 'email address', url: 'URL', datetime: 'ISO datetime', date: 'ISO date' };
const SIZE_UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items', map: 'entries' };
const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));
/** The received type as zod's locale names it: `NaN`, `Infinity` and `-Infinity` by their value. */
const typeName = (input: unknown) =>
  input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input === 'number' && !Number.isFinite(input) ? String(input) : typeof input;

function bound(word: 'Too big' | 'Too small', origin: string, adjective: string, limit: number | bigint): string {
  const unit = SIZE_UNITS[origin];
  return unit ? `${word}: expected ${origin} to have ${adjective}${limit} ${unit}` : `${word}: expected ${origin} to be ${adjective}${limit}`;
}

/**
 * The messages of zod's English locale, for the issues these schemas can raise. Mini leaves the
 * locale to the application and the error envelopes quote these; the locale module itself
 * (with every format and type of every schema kind) cost 2.6 KB in every function.
 */
function issueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${typeName(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `Invalid input: expected ${shown(issue.values[0])}` : `Invalid option: expected one of ${issue.values.map(shown).join('|')}`;
    case 'too_big':
      return bound('Too big', issue.origin ?? 'value', issue.exact ? 'exactly ' : issue.inclusive ? '<=' : '<', issue.maximum);
    case 'too_small':
      return bound('Too small', issue.origin, issue.exact ? 'exactly ' : issue.inclusive ? '>=' : '>', issue.minimum);
    case 'invalid_format':
      return issue.format === 'regex' ? `Invalid string: must match pattern ${issue.pattern}` : `Invalid ${FORMATS[issue.format] ?? issue.format}`;
    case 'not_multiple_of':
      return `Invalid number: must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map(shown).join(', ')}`;
    case 'invalid_union': {
      // A discriminated union names the discriminator's values (not in the issue's type).
      const options = (issue as { options?: unknown[] }).options;
      return options?.length ? `Invalid discriminator value. Expected ${options.map((option) => `'${String(option)}'`).join(' | ')}` : 'Invalid input';
    }
    default:
      return 'Invalid input';
  }
}

z.config({ localeError: issueMessage });

export * from 'zod/mini';

/**
 * Classic's `schema.meta(data)`: a clone of `schema` (its parent, for the JSON Schema's
 * `$ref`s) that carries `data` in the global registry, where zod-openapi reads ids,
 * descriptions and examples.
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy as T;
}
