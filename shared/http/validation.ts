import * as z from '../zod';
import { isBusinessRule } from '../domain/inputs';
import { BusinessRuleError, InvalidRequestError, PayloadTooLargeError } from '../errors';
import { LIMITS } from '../limits';

/**
 * The contract's split: shape problems (wrong type, unknown field, pattern or format, enum)
 * are 400; business rules (a required value missing, a non-positive amount, a range) are 422.
 * Schemas declare business rules with `businessRule(...)` (shared/domain/inputs.ts); everything
 * else zod reports is shape.
 */

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function isBusinessIssue(issue: z.core.$ZodIssue, input: unknown): boolean {
  if (issue.code === 'custom') return isBusinessRule(issue.params);
  // A required field that is simply absent is a missing value (422), not a wrong type (400).
  return issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
}

function attributeOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'unrecognized_keys') return [...issue.path, issue.keys[0]].join('.');
  return issue.path.length ? issue.path.join('.') : undefined;
}

function describe(issue: z.core.$ZodIssue, input: unknown, where: string): string {
  const attribute = attributeOf(issue);
  if (issue.code === 'unrecognized_keys') return `Unknown ${where} field: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `${attribute} is required`;
  if (issue.code === 'custom') return issue.message;
  return attribute ? `${attribute}: ${issue.message}` : issue.message;
}

/** Parses `input` with `schema`; throws InvalidRequestError (400) or BusinessRuleError (422). */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const shapeIssue = result.error.issues.find((issue) => !isBusinessIssue(issue, input));
  if (shapeIssue) throw new InvalidRequestError(describe(shapeIssue, input, where), attributeOf(shapeIssue));
  const ruleIssue = result.error.issues[0];
  throw new BusinessRuleError(describe(ruleIssue, input, where), attributeOf(ruleIssue));
}

/** JSON body text -> value; anything unparsable, or not an object, is a 400. */
export function parseJsonBody(body: string | undefined, isBase64Encoded = false): unknown {
  if (body === undefined || body === null || body === '') return {};
  const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  // API Gateway carries up to 10 MB: the service's own bound is checked here too.
  if (Buffer.byteLength(text) > LIMITS.requestBodyBytes) throw new PayloadTooLargeError(`The request body is larger than ${LIMITS.requestBodyBytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('Malformed JSON in request body');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRequestError('The request body must be a JSON object');
  }
  return value;
}
