import type { client } from './http';

/** An audit event as `GET /v1/audit_events` answers it. */
export interface AuditEventBody {
  id: string;
  action: string;
  actor: { type: string; id?: string; email?: string };
  target: { type: string; id: string } | null;
  mode: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** Every record of the key's list (newest first), with `query` (`&action=…`), read page by page. */
export async function auditEvents(reader: ReturnType<typeof client>, query = ''): Promise<AuditEventBody[]> {
  const events: AuditEventBody[] = [];
  for (let after = ''; ; ) {
    const page = await reader.get(`/v1/audit_events?limit=100${query}${after ? `&starting_after=${after}` : ''}`);
    if (page.status !== 200) throw new Error(`GET /v1/audit_events${query} answered ${page.status}`);
    events.push(...page.body.data);
    if (!page.body.has_more) return events;
    after = page.body.data.at(-1).id;
  }
}
