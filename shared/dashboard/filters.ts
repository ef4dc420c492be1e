import type { ApiOperation } from '../api/operation';
import type { ApiEvent } from '../http/response';
import { escapeHtml } from '../http/page';
import { parseWith } from '../http/validation';
import { listQueryFields } from '../pagination';
import * as z from '../zod';

/**
 * A dashboard list's filters are its `/v1` list's (product-decisions §18): the query fields that
 * operation declares beyond the list rules, read with that operation's schema (the same 400 and
 * 422), and shown as one GET form above the table. Nothing here names a filter a second time
 * but its label.
 */

const LIST_FIELDS = new Set(Object.keys(listQueryFields));

/** The filters an operation declares: its query fields that are not the list rules. */
export const filterNames = (operation: ApiOperation) => Object.keys(operation.query.shape).filter((name) => !LIST_FIELDS.has(name));

/** How each filter is labelled and entered; a filter without one is a text field named as in the API. */
const FIELDS: Record<string, { label: string; type?: string; placeholder?: string }> = {
  status: { label: 'Status' },
  type: { label: 'Type' },
  'created[gte]': { label: 'Created from', type: 'date' },
  'created[lt]': { label: 'Created before', type: 'date' },
  customer_email: { label: 'Customer email', type: 'email', placeholder: 'ann@example.com' },
  payment_link: { label: 'Payment link', placeholder: 'pl_…' },
  source: { label: 'Source', placeholder: 'pay_…, rf_… or cb_…' },
};

/** A date of the form's date field is that day's first instant in UTC, the datetime the API takes. */
export const asDatetime = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

/**
 * A list page's query as its operation reads it: the list parameters and its filters (empty
 * fields of the form left out, dates made datetimes); other parameters ignored, as the pages do.
 */
export function filteredQueryOf<Q>(event: ApiEvent, operation: ApiOperation): Q {
  const given = event.queryStringParameters ?? {};
  const names = [...LIST_FIELDS, ...filterNames(operation)];
  const picked = Object.fromEntries(
    names.filter((name) => given[name] !== undefined && given[name] !== '').map((name) => [name, name.startsWith('created[') ? asDatetime(given[name]!) : given[name]]),
  );
  return parseWith(operation.query, picked, 'query') as Q;
}

/** The filters as they were given (for the form and the pager's links), empty ones left out. */
export function filterValues(event: ApiEvent, operation: ApiOperation): Record<string, string> {
  const given = event.queryStringParameters ?? {};
  return Object.fromEntries(filterNames(operation).flatMap((name) => (given[name] ? [[name, given[name]!]] : [])));
}

/** The choices of an enum filter, or undefined for a free one. */
function choicesOf(schema: z.ZodMiniType): readonly string[] | undefined {
  const inner = schema instanceof z.ZodMiniOptional ? (schema._zod.def.innerType as z.ZodMiniType) : schema;
  return inner instanceof z.ZodMiniEnum ? (inner.options as string[]) : undefined;
}

/** The GET form of a list's filters, filled in with `values`, sent to the list's own page. */
export function filterForm(action: string, operation: ApiOperation, values: Record<string, string>): string {
  const fields = filterNames(operation).map((name) => {
    const id = `filter-${name.replace(/\W+/g, '-').replace(/-$/, '')}`;
    const field = FIELDS[name] ?? { label: name };
    const value = values[name] ?? '';
    const choices = choicesOf(operation.query.shape[name] as z.ZodMiniType);
    const input = choices
      ? `<select id="${id}" name="${escapeHtml(name)}"><option value="">Any</option>${choices
          .map((choice) => `<option value="${escapeHtml(choice)}"${choice === value ? ' selected' : ''}>${escapeHtml(choice.replace(/_/g, ' '))}</option>`)
          .join('')}</select>`
      : `<input id="${id}" name="${escapeHtml(name)}" type="${field.type ?? 'text'}" value="${escapeHtml(field.type === 'date' ? value.slice(0, 10) : value)}"${
          field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : ''
        } autocomplete="off">`;
    return `<div><label for="${id}">${escapeHtml(field.label)}</label>\n${input}</div>`;
  });
  return `<form class="filter" role="search" aria-label="Filters" method="get" action="${escapeHtml(action)}">
${fields.join('\n')}
<button type="submit">Filter</button>
</form>`;
}
