import { AUDIT_RETENTION_DAYS, AuditEventListSchema, listAuditEventsQuery } from '../domain/audit';
import { defineList, NoParams } from './operation';

export const listAuditEvents = /* @__PURE__ */ defineList({
  path: '/v1/audit_events',
  handler: 'list-audit-events',
  auth: { scope: 'audit:read' },
  params: NoParams,
  query: listAuditEventsQuery,
  tag: 'Audit events',
  summary: 'List audit events',
  description:
    "Who did what in the key's organization, newest first: every write through the API or the dashboard, sign-ins (refused ones too), " +
    `sign-outs and password changes, API key changes, each recorded in the transaction of its change and kept ${AUDIT_RETENTION_DAYS} days. ` +
    "A key sees the records of its own mode and those of no mode (`mode: null`: a person's own actions). At most one of `action`, `actor_id`, " +
    '`target_id` at a time.',
  success: { status: 200, description: 'A page of audit events.', schema: AuditEventListSchema },
  errors: { 400: { description: 'An unknown query parameter, an `action` that is not one of the actions, a malformed `actor_id` or `target_id`, or two filters at once.' } },
});

export const auditEventOperations = [listAuditEvents];
