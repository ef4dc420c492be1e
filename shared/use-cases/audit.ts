import type { AuditReader, AuditRepository } from '../db/audit-repository';
import { AUDIT_FILTERS, auditEventView, isAuditEventId, type AuditAction, type AuditFilter } from '../domain/audit';
import { InvalidRequestError } from '../errors';
import { pageRequest } from '../pagination';

export interface AuditQuery {
  limit?: string;
  starting_after?: string;
  ending_before?: string;
  action?: AuditAction;
  actor_id?: string;
  target_id?: string;
}

/**
 * The filter a query asks for: at most one of `action`, `actor_id`, `target_id`, each a list of
 * its own (a page stays one Query); a second is a 400 on it.
 */
export function auditFilterOf(query: AuditQuery): AuditFilter {
  const given = AUDIT_FILTERS.filter((name) => query[name] !== undefined);
  if (given.length > 1) throw new InvalidRequestError(`Filter by one of ${AUDIT_FILTERS.join(', ')} at a time`, given[1]);
  const [name] = given;
  return name ? ({ [name]: query[name] } as AuditFilter) : {};
}

/**
 * A page of the audit trail (product-decisions §17): the reader's organization, the records of
 * its mode and those of no mode, newest first, with at most one filter (`GET /v1/audit_events`,
 * the Audit page).
 */
export async function auditPage(deps: { audit: Pick<AuditRepository, 'page'> }, reader: AuditReader, query: AuditQuery) {
  const filter = auditFilterOf(query);
  const request = pageRequest(query, isAuditEventId);
  const page = await deps.audit.page(reader, request, filter);
  return { filter, request, items: page.items.map(auditEventView), hasMore: page.hasMore };
}
