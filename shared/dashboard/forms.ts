import { escapeHtml } from '../http/page';
import { CONFIRM_FIELD } from './html';

/**
 * Dashboard forms. Field names are the API's attribute paths (`amount.value`, `payments_limit`),
 * so an error envelope's `attribute` names the field to show it next to; an error without one,
 * or naming no field of the form, shows above the form.
 */

/** A refused submission: the status it was answered with and the envelope's detail and attribute. */
export interface FormProblem {
  status: number;
  detail: string;
  attribute?: string;
}

/** What a form shows: the values to fill in, and the problem of the last submission if any. */
export interface FormState {
  values: Record<string, string>;
  problem?: FormProblem;
}

const fieldId = (form: string, name: string) => `${form}-${name.replace(/[^A-Za-z0-9_]+/g, '-')}`;

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'checkbox' | 'select' | 'textarea' | 'url' | 'email' | 'password';
  hint?: string;
  attributes?: string;
  /** For `select`: value and text of each option. */
  options?: [string, string][];
}

/** A form's fields and the form-level alert, bound to its id (unique on the page) and its state. */
export function formOf(form: string, state: FormState = { values: {} }) {
  const problem = state.problem;
  const fieldNames: string[] = [];

  function field(options: FieldOptions): string {
    fieldNames.push(options.name);
    const id = fieldId(form, options.name);
    // A password never comes back into a page (nor into the returned form's cookie: SECRET_FIELDS).
    const value = options.type === 'password' ? '' : (state.values[options.name] ?? '');
    const error = problem?.attribute === options.name ? problem.detail : undefined;
    const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    const aria = `${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
    const extra = options.attributes ? ` ${options.attributes}` : '';
    const hint = options.hint ? `\n<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : '';
    const errorText = error ? `\n<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : '';
    if (options.type === 'checkbox') {
      return `<label for="${id}"><input id="${id}" name="${escapeHtml(options.name)}" type="checkbox" value="on"${value ? ' checked' : ''}${aria}${extra}> ${escapeHtml(options.label)}</label>${errorText}`;
    }
    if (options.type === 'select') {
      const choices = (options.options ?? [])
        .map(([optionValue, text]) => `<option value="${escapeHtml(optionValue)}"${optionValue === value ? ' selected' : ''}>${escapeHtml(text)}</option>`)
        .join('');
      return `<div><label for="${id}">${escapeHtml(options.label)}</label>\n<select id="${id}" name="${escapeHtml(options.name)}"${aria}${extra}>${choices}</select>${hint}${errorText}</div>`;
    }
    if (options.type === 'textarea') {
      return `<div><label for="${id}">${escapeHtml(options.label)}</label>
<textarea id="${id}" name="${escapeHtml(options.name)}"${aria}${extra}>${escapeHtml(value)}</textarea>${hint}${errorText}</div>`;
    }
    return `<div><label for="${id}">${escapeHtml(options.label)}</label>
<input id="${id}" name="${escapeHtml(options.name)}" type="${options.type ?? 'text'}" value="${escapeHtml(value)}"${aria}${extra}>${hint}${errorText}</div>`;
  }

  /**
   * A UTC date and time in two fields (`{name}.date`, `{name}.time`) under one legend that says
   * UTC: a browser's date and time fields take no time zone, so what is typed is what is sent
   * (`utcDatetime`). The problem of `name` shows after both, and each field names it.
   */
  function dateTime(options: { name: string; legend: string; hint: string }): string {
    fieldNames.push(options.name);
    const id = fieldId(form, options.name);
    const error = problem?.attribute === options.name ? problem.detail : undefined;
    const aria = ` aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${error ? ' aria-invalid="true"' : ''}`;
    const input = (part: 'date' | 'time', label: string) =>
      `<div><label for="${id}-${part}">${label}</label>\n<input id="${id}-${part}" name="${escapeHtml(`${options.name}.${part}`)}" type="${part}" value="${escapeHtml(state.values[`${options.name}.${part}`] ?? '')}"${aria}></div>`;
    return `<fieldset class="datetime"><legend>${escapeHtml(options.legend)}</legend>
<div class="row">
${input('date', 'Date')}
${input('time', 'Time (UTC)')}
</div>
<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>${error ? `\n<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : ''}
</fieldset>`;
  }

  return {
    field,
    dateTime,
    /**
     * The checkbox a form that acts for good requires (dashboardForm's `confirm`), saying what
     * it does; never ticked in advance, its refusal beside it.
     */
    confirm: (label: string) => `<div class="confirm">${field({ name: CONFIRM_FIELD, label, type: 'checkbox' })}</div>`,
    /** The problem of a field the page renders itself (a hidden one its script fills in), beside it; its id is `{form}-{name}-error`. */
    fieldError(name: string): string {
      fieldNames.push(name);
      return problem?.attribute === name ? `<p class="field-error" id="${fieldId(form, name)}-error">${escapeHtml(problem.detail)}</p>` : '';
    },
    /** The value a field comes back with, or its default. */
    value: (name: string) => state.values[name] ?? '',
    /** The alert above the form: a problem that names none of the fields rendered so far. */
    alert: () => (problem && !fieldNames.includes(problem.attribute ?? '') ? `<p role="alert" id="${form}-error">${escapeHtml(problem.detail)}</p>` : ''),
  };
}

// ---------------------------------------------------------------------------------------------
// Form fields -> API bodies. Anything that is not what the field expects is passed on as typed,
// so the operation's schema refuses it exactly as the API would (400 for the shape).

/** A text field; empty means "not given". */
export const optionalText = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** A whole number field: digits become a number; anything else stays text (a 400 from the schema). */
export const optionalInteger = (value: string | undefined) => {
  const text = optionalText(value);
  return text !== undefined && /^[0-9]{1,15}$/.test(text) ? Number(text) : text;
};

/**
 * An amount as the API takes it (`15.00`) from one typed with a decimal comma (`15,00`, as much
 * of Europe writes it); anything else as typed, for the schema to judge.
 */
export const decimalAmount = (value: string | undefined) => {
  const text = optionalText(value);
  return text !== undefined && /^[0-9]+,[0-9]+$/.test(text) ? text.replace(',', '.') : text;
};

/**
 * The API's datetime from a form's UTC date and time fields (`dateTime`): `2026-12-01` and
 * `10:00` -> `2026-12-01T10:00:00Z`; both empty: not given; anything else as typed (both joined
 * by `T`, or the one given), for the schema to refuse.
 */
export function utcDatetime(fields: Record<string, string>, name: string): string | undefined {
  const [date, time] = [optionalText(fields[`${name}.date`]), optionalText(fields[`${name}.time`])];
  if (date === undefined || time === undefined) return date ?? time;
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}$/.test(time) ? `${date}T${time}:00Z` : `${date}T${time}`;
}

/** The values of a form's UTC date and time fields (`dateTime`) for a stored datetime (to the minute). */
export const utcDatetimeValues = (name: string, iso: string | null) => ({ [`${name}.date`]: iso?.slice(0, 10) ?? '', [`${name}.time`]: iso?.slice(11, 16) ?? '' });

/** A list typed one item a line (or comma-separated): each item trimmed, empty ones dropped. */
export const lines = (value: string | undefined) => (value ?? '').split(/[\r\n,]+/).map((item) => item.trim()).filter(Boolean);

/** A checkbox: present means true. */
export const checkbox = (value: string | undefined) => value !== undefined;

/** The object without its undefined members (an omitted field is absent from the body). */
export const defined = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
