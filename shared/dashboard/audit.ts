import { AUDIT_ACTION_NAMES, type AuditEvent } from '../domain/audit';
import { escapeHtml } from '../http/page';
import type { PageRequest } from '../pagination';
import type { AuditQuery } from '../use-cases/audit';
import { formOf, type FormProblem } from './forms';
import { userAgentCell } from './user-agent';
import { code, pager, pageUrl, signedInPage, table, textOrDash, time, type Frame, type TableSpec } from './html';

/**
 * The Audit page (product-decisions §17: owner and admins, both modes): the records of the page's
 * mode and those of no mode, newest first, with the API's filters (one at a time) and cursors.
 */

export interface AuditPageView {
  query: AuditQuery;
  page?: { items: AuditEvent[]; hasMore: boolean; request: PageRequest };
  problem?: FormProblem;
}

const actorCell = (event: AuditEvent) =>
  event.actor.type === 'user' ? `${escapeHtml(event.actor.email)}<br>${code(event.actor.id)}` : event.actor.type === 'api_key' ? `API key ${code(event.actor.id)}` : 'The service';

const spec: TableSpec<AuditEvent> = {
  row: (event) => ` data-id="${escapeHtml(event.id)}"`,
  head: { label: 'When', cell: (event) => `${time(event.created_at)}<br>${code(event.id)}` },
  columns: [
    // The longest actions wrap when the table needs the room, keeping it within a 1280 px page.
    { label: 'Action', cell: (event) => `<code class="wraps">${escapeHtml(event.action)}</code>` },
    { label: 'Actor', kind: 'text', cell: actorCell },
    { label: 'Target', kind: 'text', cell: (event) => (event.target ? `${escapeHtml(event.target.type)} ${code(event.target.id)}` : '—') },
    { label: 'Mode', cell: (event) => escapeHtml(event.mode ?? 'none') },
    { label: 'Address', cell: (event) => textOrDash(event.ip) },
    // A few words, the whole string a click or a tap away: the raw one took much of a 1280 px row.
    { label: 'User agent', kind: 'text', cell: (event) => userAgentCell(event.user_agent) },
  ],
};

export function auditPage(frame: Frame, view: AuditPageView): string {
  const filters = formOf('audit-filter', { values: { action: view.query.action ?? '', actor_id: view.query.actor_id ?? '', target_id: view.query.target_id ?? '' }, ...(view.problem ? { problem: view.problem } : {}) });
  const fields = `<div class="row">
${filters.field({ name: 'action', label: 'Action', type: 'select', options: [['', 'Any action'], ...AUDIT_ACTION_NAMES.map((action): [string, string] => [action, action])] })}
${filters.field({ name: 'actor_id', label: 'Actor id', hint: 'A person (usr_…) or an API key (key_…).', attributes: 'autocomplete="off" spellcheck="false"' })}
${filters.field({ name: 'target_id', label: 'Target id', hint: 'The object acted on (pl_…, rf_…, key_…, …).', attributes: 'autocomplete="off" spellcheck="false"' })}
</div>`;
  const form = `<form class="stacked" method="get" action="${escapeHtml(`${frame.urls.dashboard}/audit`)}" aria-label="Filter the audit trail">
${fields}
<p class="hint">One filter at a time.</p>
${filters.alert()}
<button type="submit">Filter</button>
</form>`;
  const { page } = view;
  const filter = Object.fromEntries(Object.entries({ action: view.query.action, actor_id: view.query.actor_id, target_id: view.query.target_id }).filter(([, value]) => value));
  const body = !page
    ? ''
    : page.items.length === 0
      ? `<p class="note">${page.request.startingAfter || page.request.endingBefore ? 'Nothing more in this direction.' : 'No audit events match.'}</p>`
      : `${table(spec, page.items, `Audit events of ${frame.principal.mode} mode and of no mode, newest first; kept a year.`)}
${pager('Audit events: pages', page, (cursor) => pageUrl(frame.urls, '/audit', { ...filter, ...cursor }))}`;
  return signedInPage(frame, 'Audit', `${form}\n${body}`, '/audit');
}
