import { collectedFields, missingCustomerDetails, type CustomerField, type PaymentLink } from '../domain/payment-links';
import { customerDetailsInput, type CustomerDetails } from '../domain/payments';

/** Why the checkout refuses a field: empty though the link collects it (to pay), too long, or not of its kind. */
export type FieldProblem = 'missing' | 'too_long' | 'malformed';

/** A refused checkout form: what the customer typed, and each refused field's problem. */
export interface RefusedForm {
  status: 400 | 422;
  values: Partial<Record<CustomerField, string>>;
  problems: Partial<Record<CustomerField, FieldProblem>>;
}

/**
 * The customer's details in a submitted checkout form, read with the test helper's own schemas
 * (an empty field is an absent one), or why they are refused: a field of the wrong shape is a
 * 400 and, for Pay, a field the link collects left empty a 422, as the helper answers. Every
 * problem is reported at once, so the page can show each beside its field.
 */
export function readCustomerDetails(link: PaymentLink, fields: Record<string, string>, outcome: string): { details: CustomerDetails } | { refused: RefusedForm } {
  const values: RefusedForm['values'] = {};
  const filled: CustomerDetails = {};
  for (const field of collectedFields(link)) {
    const typed = fields[field] ?? '';
    values[field] = typed;
    if (typed.trim() !== '') filled[field] = typed;
  }
  const details: CustomerDetails = {};
  const problems: RefusedForm['problems'] = {};
  for (const [field, typed] of Object.entries(filled) as [CustomerField, string][]) {
    const parsed = customerDetailsInput[field].safeParse(typed);
    if (parsed.success) details[field] = parsed.data;
    else problems[field] = parsed.error.issues[0].code === 'too_big' ? 'too_long' : 'malformed';
  }
  const malformed = Object.keys(problems).length > 0;
  if (outcome === 'paid') for (const field of missingCustomerDetails(link, filled)) problems[field] = 'missing';
  if (!Object.keys(problems).length) return { details };
  return { refused: { status: malformed ? 400 : 422, values, problems } };
}
