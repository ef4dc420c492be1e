import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { Section } from '../domain/dashboard';
import type { TeamUser } from '../domain/team';
import { ROLE_NAMES, roleMay, type Permission } from '../domain/team-roles';
import { escapeHtml, htmlDocument } from '../http/page';
import { copyButton } from './copy-script';
import { formatForCustomer } from '../money';
import type { PageRequest } from '../pagination';

/**
 * The dashboard's page frame and the small pieces every page is made of. Tables turn into
 * labelled cards below 40rem, so no page scrolls sideways on a phone; ids, amounts, dates,
 * badges and buttons never break across lines.
 */
const WIDE = '  main { max-width: 72rem; }\n';
const STYLE = `
  a { color: #1d4ed8; }
  .top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1rem; justify-content: space-between; }
  .top .brand { display: flex; align-items: center; gap: .5rem; font-weight: 600; white-space: nowrap; }
  .top .brand a { color: inherit; text-decoration: none; }
  form.search { display: flex; gap: .4rem; margin-left: auto; }
  form.search input { width: 17rem; }
  button, .button { padding: .5rem 1rem; font: inherit; border-radius: 6px; border: 1px solid #1d2330; background: #fff; color: #1d2330; cursor: pointer; white-space: nowrap; text-decoration: none; display: inline-block; }
  .primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
  nav.main ul { list-style: none; padding: 0; margin: 1rem 0 0; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; border-bottom: 1px solid #e3e6ec; padding-bottom: .5rem; }
  nav.main a { white-space: nowrap; text-decoration: none; display: inline-block; line-height: 1.5rem; }
  nav.main a[aria-current="page"] { font-weight: 600; color: #1d2330; }
  h1 { margin: 1.25rem 0 .25rem; }
  .who span, .chart .total span { white-space: nowrap; }
  .who span.person { white-space: normal; overflow-wrap: anywhere; }
  h2 { font-size: 1.1rem; margin: 2rem 0 .25rem; }
  .heading { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: .5rem 1rem; }
  .heading h2 { margin-bottom: 0; }
  .signin button { margin-top: 1rem; width: 100%; }
  .signin-links { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .5rem 1rem; margin: 1rem 0 0; }
  table { width: 100%; border-collapse: collapse; font-size: .9rem; }
  caption { text-align: left; color: #555e6e; padding: .25rem 0 .5rem; }
  th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
  thead th { background: #f5f6f8; white-space: nowrap; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  td.text, .url { overflow-wrap: anywhere; }
  td.type { white-space: nowrap; }
  time, code, .badge { white-space: nowrap; }
  .url code { white-space: normal; }
  code { font-size: .85em; }
  .badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .1rem .45rem; border-radius: 999px; background: #e5e7eb; }
  .badge.good { background: #dcfce7; color: #14532d; }
  .badge.warn { background: #fef3c7; color: #78350f; }
  .badge.bad { background: #fee2e2; color: #7f1d1d; }
  tr.failed, li.failed { background: #fef2f2; }
  .mode.live { background: #bbf7d0; }
  .notice { background: #dcfce7; color: #14532d; padding: .6rem .8rem; border-radius: 6px; margin: .75rem 0; }
  .notice p { margin: 0 0 .4rem; }
  .notice label { margin-top: .25rem; }
  .notice .hint { margin: .35rem 0 0; font-size: .85rem; }
  input.secret { font-family: ui-monospace, monospace; font-size: .85rem; line-height: 1.5; background: #fff; }
  .copyable { display: flex; gap: .5rem; align-items: stretch; }
  .copyable input { flex: 1; min-width: 0; }
  .copyable button[hidden] { display: none; }
  p.copy-status:empty { margin: 0; }
  [role="alert"], .field-error { background: #fee2e2; color: #7f1d1d; padding: .6rem .8rem; border-radius: 6px; }
  .field-error { margin: .35rem 0 0; padding: .35rem .6rem; font-size: .9rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  dl.stacked { grid-template-columns: minmax(0, 1fr); gap: .2rem; }
  dl.stacked dd { margin-bottom: .6rem; }
  dd.evidence { white-space: pre-wrap; max-width: 48rem; }
  nav.pager { display: flex; gap: 1rem; margin-top: .75rem; }
  ul.attempts, ul.plain { list-style: none; margin: 0; padding: 0; }
  ul.plain li { overflow-wrap: anywhere; }
  pre.payload { white-space: pre-wrap; overflow-wrap: anywhere; background: #f8fafc; border: 1px solid #e3e6ec; border-radius: 6px; padding: .75rem; font-size: .8rem; max-height: 32rem; overflow-y: auto; }
  details.types { margin: .5rem 0 0; font-size: .9rem; }
  details.types ul { columns: 2 18rem; margin-top: .35rem; }
  form.filter { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0 .75rem; }
  form.filter label { margin: 0; }
  form.filter select { width: auto; }
  form.filter div { display: flex; flex-direction: column; gap: .2rem; }
  form.filter button { align-self: flex-end; }
  .deadline { background: #fef3c7; color: #78350f; padding: .6rem .8rem; border-radius: 6px; }
  textarea { font-family: ui-monospace, monospace; font-size: .9rem; }
  ul.attempts li { padding: .15rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }
  form.stacked { max-width: 32rem; }
  form.stacked .row { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
  form.stacked .checks label { display: flex; gap: .5rem; align-items: center; font-weight: 400; margin: .35rem 0; }
  form.stacked .checks input { width: auto; }
  form.stacked .hint { color: #555e6e; font-size: .85rem; margin: .25rem 0 0; }
  fieldset.datetime { border: 0; padding: 0; margin: .75rem 0; min-width: 0; }
  fieldset.datetime legend { font-weight: 500; padding: 0; }
  fieldset.datetime label { font-weight: 400; margin-top: .35rem; }
  form.stacked button { margin-top: 1.25rem; }
  form.inline { display: inline; }
  td form.inline select { width: auto; padding: .3rem; }
  td form.inline + form.inline { margin-left: .25rem; }
  form.stacked .scopes { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0 1rem; }
  fieldset { border: 1px solid #e3e6ec; border-radius: 8px; margin: 1rem 0 0; }
  .confirm label { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: .75rem 0 .25rem; }
  .confirm input { width: auto; flex: none; }
  form.act { margin: .5rem 0; padding: .75rem; border: 1px solid #e3e6ec; border-radius: 8px; max-width: 32rem; }
  form.act .confirm label { margin-top: 0; }
  form.act button { margin-top: .5rem; }
  td form.act { border: 0; padding: 0; margin: 0 0 .6rem; max-width: 18rem; }
  td form.act label { margin-top: 0; }
  td form.act button { margin-top: .35rem; }
  select { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #b8bfcc; border-radius: 6px; background: #fff; }
  figure.chart { margin: 0 0 1.25rem; }
  .chart svg { display: block; width: 100%; height: 10rem; background: #f8fafc; border-radius: 6px; }
  .chart .axis { display: flex; justify-content: space-between; color: #555e6e; font-size: .8rem; margin-top: .25rem; }
  .chart .total { margin: .25rem 0 .5rem; }
  .actions-row { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
  figure.qr { margin: .75rem 0; }
  figure.qr svg { display: block; width: 12rem; height: 12rem; }
  code.key { white-space: normal; overflow-wrap: anywhere; font-size: .95rem; letter-spacing: .05em; }
  code.wraps { white-space: normal; overflow-wrap: anywhere; }
  details.agent code { display: block; margin-top: .25rem; font-size: .85rem; }
  [role="alert"]:empty { display: none; }
  form.signin .hint { color: #555e6e; font-size: .85rem; margin: .25rem 0 0; }
  ol.recovery-codes { columns: 2 9rem; margin: .5rem 0; font-family: ui-monospace, monospace; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  @media (max-width: 40rem) {
    main { margin: 0; border-radius: 0; padding: 1rem; }
    h1 { font-size: 1.1rem; overflow-wrap: anywhere; }
    h2 { font-size: 1rem; }
    .who span { display: block; }
    .who .separator { display: none; }
    .top .brand a { display: none; }
    .top button { padding: .4rem .8rem; }
    form.search { order: 3; flex: 1 1 100%; margin-left: 0; }
    form.search input { flex: 1; width: auto; }
    form.stacked .row { grid-template-columns: 1fr; }
    table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
    table.cards, table.cards tbody, table.cards caption { display: block; }
    table.cards tr { display: block; border: 1px solid #e3e6ec; border-radius: 8px; margin-bottom: .75rem; padding: .25rem 0; }
    table.cards th[scope="row"], table.cards td { display: flow-root; border: 0; padding: .3rem .75rem; text-align: right; }
    table.cards th[scope="row"] { text-align: left; background: #f5f6f8; }
    table.cards td::before { content: attr(data-label); float: left; margin-right: 1rem; font-weight: 600; color: #555e6e; white-space: nowrap; }
    table.cards td.text, table.cards td.list, table.cards td.type { text-align: left; white-space: normal; }
    table.cards td.text::before, table.cards td.list::before, table.cards td.type::before { float: none; display: block; }
    /* An id keeps to one line where it fits (beside its label, else below it); one wider than its box wraps inside it rather than past the page. */
    code { display: inline-block; max-width: 100%; white-space: normal; overflow-wrap: anywhere; }
    a > code { text-decoration: underline; }
  }
`;

/** A dashboard page (the house style names the inline icon); pages with tables (all but the sign-in form) are wide. */
export const dashboardDocument = (title: string, body: string, wide = true) => htmlDocument(title, body, wide ? STYLE + WIDE : STYLE);

// ---------------------------------------------------------------------------------------------
// Small pieces

/** `2026-11-20T10:00:00.000Z` -> a `<time>` showing `2026-11-20 10:00 UTC`. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

/** An amount as a customer reads it (`€49.90`, `¥1,000`), as the checkout shows it. */
export const money = (minor: number, currency: string) => escapeHtml(formatForCustomer(minor, currency));

const BADGE_TONE: Record<string, 'good' | 'warn' | 'bad' | ''> = {
  active: 'good',
  paid: 'good',
  captured: 'good',
  refunded: 'good',
  won: 'good',
  open: 'warn',
  pending: 'warn',
  processing: 'warn',
  disputed: 'warn',
  inactive: '',
  expired: '',
  canceled: '',
  accepted: 'bad',
  lost: 'bad',
  failed: 'bad',
  succeeded: 'good',
};

export const badge = (text: string, tone: 'good' | 'warn' | 'bad' | '' = BADGE_TONE[text] ?? '') =>
  `<span class="badge${tone ? ` ${tone}` : ''}">${escapeHtml(text)}</span>`;

export const code = (value: string) => `<code>${escapeHtml(value)}</code>`;

/** Free text a merchant may leave empty: a dash, so an empty field never reads as a missing one. */
export const textOrDash = (value: string | null | undefined) => (value ? escapeHtml(value) : '—');

/** An event type that may break after its dots (`transactions.<wbr>payment_link.<wbr>…`), never inside a word. */
export const eventType = (type: string) => escapeHtml(type).replace(/\./g, '.<wbr>');

/** A link whose text is an id in code type. */
export const idLink = (href: string, id: string) => `<a href="${escapeHtml(href)}">${code(id)}</a>`;

/** How far a deadline is: `due in 2 days 23 hours`, `due in 5 hours 10 minutes`, `due in 12 minutes`, or `overdue` (rounded down). */
export function dueText(iso: string, now: Date): string {
  const minutes = Math.floor((Date.parse(iso) - now.getTime()) / 60_000);
  if (minutes < 0) return 'overdue';
  if (minutes === 0) return 'due in under a minute';
  const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const parts: [number, string][] = days ? [[days, 'day'], [hours, 'hour']] : hours ? [[hours, 'hour'], [rest, 'minute']] : [[rest, 'minute']];
  return `due in ${parts
    .filter(([amount], index) => index === 0 || amount > 0)
    .map(([amount, unit]) => `${amount} ${unit}${amount === 1 ? '' : 's'}`)
    .join(' ')}`;
}

export const missingScope = (scope: string) => `<p class="note">Not shown: your role does not include ${code(scope)}.</p>`;

/** Every dashboard form carries its token in this field. */
export const FORM_TOKEN_FIELD = 'csrf_token';

/** A hidden field with the session's form token: every POST form carries one. */
export const tokenField = (formToken: string) => `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(formToken)}">`;

/**
 * Every form that performs an operation carries a one-time nonce in this field, new on each page
 * load: the operation's idempotency key, so a double click or a resubmit of one form runs once.
 */
export const FORM_NONCE_FIELD = 'form_nonce';

/** 128 random bits, base64url: what a page's form carries and what a form's function accepts. */
export const isFormNonce = (value: string | undefined): value is string => /^[A-Za-z0-9_-]{22}$/.test(value ?? '');

/** A form that acts for good (a refund, a deactivation, an answer) acts only with this checkbox ticked. */
export const CONFIRM_FIELD = 'confirm';

/**
 * What a form's outcome tells the page it redirects to, once: a sentence, and a secret the
 * person must copy now (a webhook endpoint's, at its creation or roll). `key` names the object
 * of the page that shows it (an endpoint id).
 */
export interface Notice {
  key: string;
  text: string;
  secret?: string;
  /** The notice came again (its form's answer replayed): its secret was shown once already and is not shown. */
  secretShown?: true;
}

/** How a notice shows its secret: the first time, and when its form's answer comes again. */
export interface SecretView {
  shown(secret: string): string;
  shownBefore: string;
}

/**
 * A secret in a field to copy from, named `label`; shown before, `again` says how to get a new
 * one. `copyButton`: with a Copy button beside the field, for a page that loads the copy script
 * (shared/dashboard/copy-script.ts).
 */
export const copyableSecret = (label: string, again: string, options: { copyButton?: true } = {}): SecretView => ({
  shown: (secret) => {
    const copy = options.copyButton ? copyButton(REVEALED_SECRET) : undefined;
    return `
<label for="${REVEALED_SECRET}">${escapeHtml(label)}</label>
<div class="copyable">
<input id="${REVEALED_SECRET}" class="secret" type="text" value="${escapeHtml(secret)}" readonly spellcheck="false" autocomplete="off" aria-describedby="${REVEALED_SECRET}-hint">${copy ? `\n${copy.button}` : ''}
</div>
<p class="hint" id="${REVEALED_SECRET}-hint">Copy it now: it is not shown again, not even on this page after a reload.</p>${copy ? `\n${copy.status}` : ''}`;
  },
  shownBefore: `\n<p class="hint">Its ${escapeHtml(label.toLowerCase())} was shown once, when this form was first answered, and is not shown again. ${escapeHtml(again)}</p>`,
});

/** The id of the field that shows a secret once. */
const REVEALED_SECRET = 'revealed-secret';

/** A webhook endpoint's signing secret, with a Copy button as an API key's token (its page loads the copy script). */
const SIGNING_SECRET = copyableSecret('Signing secret', 'If it was not kept, roll the secret for a new one.', { copyButton: true });

/** A notice where its page shows it: the sentence, and its secret (`view`: a signing secret unless said), said to be shown this once. */
export function noticeBox(notice: Notice | undefined, view: SecretView = SIGNING_SECRET): string {
  if (!notice) return '';
  const secret = notice.secret ? view.shown(notice.secret) : notice.secretShown ? view.shownBefore : '';
  return `<div class="notice" role="status">
<p>${escapeHtml(notice.text)}</p>${secret}
</div>`;
}

/** Fields whose values never leave the request that posts them: not into a page, a cookie or a log. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['password', 'current_password', 'new_password', 'code']);

/** Every form that acts carries the mode of its page in this field: it acts in that mode, whichever mode the session shows by then. */
export const MODE_FIELD = 'page_mode';

/** The hidden fields of a form that performs an operation: the session's token, the page's mode and a fresh one-time nonce. */
export const actionFields = (frame: Pick<Frame, 'formToken' | 'principal'>) =>
  `${tokenField(frame.formToken)}<input type="hidden" name="${MODE_FIELD}" value="${frame.principal.mode}"><input type="hidden" name="${FORM_NONCE_FIELD}" value="${randomBytes(16).toString('base64url')}">`;

/**
 * A form that performs an operation: it posts to `action` with the session's token, the page's
 * mode and a fresh one-time nonce, then `fields` (rendered before the caller asks its form for the alert, so a
 * problem shows beside its field), then its button. The server checks what the browser would
 * (`novalidate`), so every refusal reads as the API's.
 */
export function postForm(form: { action: string; frame: Frame; fields?: string; button: string; kind?: 'stacked' | 'act' | 'inline'; primary?: boolean }): string {
  return `<form class="${form.kind ?? 'stacked'}" method="post" action="${escapeHtml(form.action)}" novalidate>
${actionFields(form.frame)}
${form.fields ?? ''}
<button${form.primary ? ' class="primary"' : ''} type="submit">${escapeHtml(form.button)}</button>
</form>`;
}

/** A section of a page under its own heading. */
export const titledSection = (id: string, title: string, body: string) =>
  `<section aria-labelledby="${id}">
<h2 id="${id}">${escapeHtml(title)}</h2>
${body}
</section>`;

// ---------------------------------------------------------------------------------------------
// Tables

/**
 * One column: its header, its cell, and `kind` (`num`: right-aligned figures, `text`: free text
 * that may wrap, `list`, `type`: an event type, on one line unless the table is a card).
 */
export interface Column<T> {
  label: string;
  cell: (item: T) => string;
  kind?: 'num' | 'text' | 'list' | 'type';
  /** Extra attributes of the cell (`data-field="paid_count"`). */
  attributes?: string;
}

/**
 * How a kind of object shows as a table row: `head` is the row header (its id), `row` the
 * `<tr>` attributes (`data-id`, or a class), `columns` the cells after it.
 */
export interface TableSpec<T> {
  head?: Column<T>;
  row: (item: T) => string;
  columns: Column<T>[];
}

function cell<T>(column: Column<T>, item: T): string {
  const attributes = `${column.kind ? ` class="${column.kind}"` : ''} data-label="${escapeHtml(column.label)}"${column.attributes ? ` ${column.attributes}` : ''}`;
  return `<td${attributes}>${column.cell(item)}</td>`;
}

export function table<T>(spec: TableSpec<T>, items: T[], caption: string): string {
  const headers = [...(spec.head ? [spec.head] : []), ...spec.columns].map((column) => `<th scope="col">${escapeHtml(column.label)}</th>`).join('');
  const rows = items.map(
    (item) => `<tr${spec.row(item)}>
${spec.head ? `<th scope="row">${spec.head.cell(item)}</th>\n` : ''}${spec.columns.map((column) => cell(column, item)).join('\n')}
</tr>`,
  );
  return `<table class="cards">
<caption>${escapeHtml(caption)}</caption>
<thead><tr>${headers}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

/** A section: heading (with an optional link beside it), then its table, its empty state, or the scope the key lacks. */
export function section<T>(
  heading: { id: string; title: string; more?: string },
  data: Section<T>,
  content: { spec: TableSpec<T>; caption: string; empty: string; after?: string },
): string {
  let body: string;
  if (!data.allowed) body = missingScope(data.scope);
  else if (data.items.length === 0) body = `<p class="note">${escapeHtml(content.empty)}</p>`;
  else body = table(content.spec, data.items, content.caption);
  return `<section aria-labelledby="${heading.id}">
<div class="heading"><h2 id="${heading.id}">${escapeHtml(heading.title)}</h2>${heading.more ?? ''}</div>
${body}${data.allowed && content.after ? `\n${content.after}` : ''}
</section>`;
}

/**
 * Links to the newer and the older page of a list, by the API's cursors: there are newer items
 * when this page was reached going back (`starting_after`) or more lie that way; older ones
 * likewise. `href` builds the page's URL from cursor parameters.
 */
export function pager(
  label: string,
  page: { items: { id: string }[]; hasMore: boolean; request: PageRequest },
  href: (cursor: Record<string, string>) => string,
): string {
  const { items, hasMore, request } = page;
  if (items.length === 0) return '';
  const backwards = request.endingBefore !== undefined;
  const newer = backwards ? hasMore : request.startingAfter !== undefined;
  const older = backwards || hasMore;
  const links = [
    newer ? `<a rel="prev" href="${escapeHtml(href({ ending_before: items[0].id }))}">Newer</a>` : '',
    older ? `<a rel="next" href="${escapeHtml(href({ starting_after: items[items.length - 1].id }))}">Older</a>` : '',
  ].filter(Boolean);
  return links.length ? `<nav class="pager" aria-label="${escapeHtml(label)}">${links.join('\n')}</nav>` : '';
}

/** A dashboard URL with query parameters. */
export function pageUrl(urls: PublicUrls, path: string, query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return `${urls.dashboard}${path}${search ? `?${search}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// The frame of every signed-in page

export const NAV = [
  { path: '', title: 'Overview' },
  { path: '/payment-links', title: 'Payment links' },
  { path: '/payments', title: 'Payments' },
  { path: '/refunds', title: 'Refunds' },
  { path: '/chargebacks', title: 'Chargebacks' },
  { path: '/events', title: 'Events' },
  { path: '/webhooks', title: 'Webhooks' },
  { path: '/balance-transactions', title: 'Balance' },
  { path: '/settlements', title: 'Settlements' },
  { path: '/team', title: 'Team' },
  { path: '/api-keys', title: 'API keys', permission: 'api_key:test' },
  { path: '/audit', title: 'Audit', permission: 'audit:read' },
  { path: '/security', title: 'Security' },
] as const;

export type NavPath = (typeof NAV)[number]['path'];

const modeBadge = (principal: Principal) =>
  principal.mode === 'test' ? '<span class="mode">Test mode</span>' : '<span class="mode live">Live mode</span>';

/** What every signed-in page is drawn for: the caller (in the page's mode), the person signed in, the public URLs and the session's form token. */
export interface Frame {
  principal: Principal;
  person: Pick<TeamUser, 'name' | 'email' | 'teamRole'>;
  urls: PublicUrls;
  formToken: string;
}

/** Whether the person's role allows `permission`: a page shows a control only when it does (the same table refuses the form: 403). */
export const may = (frame: Pick<Frame, 'person'>, permission: Permission) => roleMay(frame.person.teamRole, permission);

/** The switch to the other mode: it posts the mode wanted and the section to come back to (an object of one mode is not in the other). */
function modeSwitch(frame: Frame, current: NavPath | undefined): string {
  const other = frame.principal.mode === 'test' ? 'live' : 'test';
  return `<form class="mode-switch" method="post" action="${escapeHtml(`${frame.urls.dashboard}/mode`)}">${actionFields(frame)}<input type="hidden" name="mode" value="${other}"><input type="hidden" name="return_to" value="${escapeHtml(new URL(`${frame.urls.dashboard}${current ?? ''}`).pathname)}"><button type="submit">Switch to ${other} mode</button></form>`;
}

/**
 * A signed-in page: the bar (mode and its switch, search by id or customer email, sign out), the
 * navigation (`current` marked), the title, who is signed in, then `body`.
 */
export function signedInPage(
  frame: Frame,
  title: string,
  body: string,
  current?: NavPath,
  search = '',
): string {
  const { principal, person, urls, formToken } = frame;
  return dashboardDocument(
    title,
    `<header class="top">
<div class="brand">${modeBadge(principal)} <a href="${escapeHtml(urls.dashboard)}">Payment operations</a></div>
<form class="search" role="search" method="get" action="${escapeHtml(`${urls.dashboard}/search`)}">
<label class="visually-hidden" for="search-id">Search by id or customer email</label>
<input id="search-id" name="id" type="search" value="${escapeHtml(search)}" placeholder="An id or an email" autocomplete="off" spellcheck="false" required>
<button type="submit">Search</button>
</form>
${modeSwitch(frame, current)}
<form method="post" action="${escapeHtml(`${urls.dashboard}/sign-out`)}">${tokenField(formToken)}<button type="submit">Sign out</button></form>
</header>
<nav class="main" aria-label="Dashboard"><ul>${NAV.filter((item) => !('permission' in item) || may(frame, item.permission)).map(
      (item) => `<li><a href="${escapeHtml(`${urls.dashboard}${item.path}`)}"${item.path === current ? ' aria-current="page"' : ''}>${item.title}</a></li>`,
    ).join('')}</ul></nav>
<h1>${escapeHtml(title)}</h1>
<p class="note who"><span>Organization ${code(principal.orgId)}</span><span class="separator"> · </span><span class="person">${escapeHtml(person.name)} (${escapeHtml(person.email)}), ${ROLE_NAMES[person.teamRole]}</span></p>
${body}`,
  );
}
