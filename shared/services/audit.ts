import { createAuditRepository } from '../db/audit-repository';
import { once, processWiring } from './wiring';

/** The audit trail's reads (`GET /v1/audit_events`, the Audit page). */
export const auditPorts = /* @__PURE__ */ once(() => ({ audit: createAuditRepository(processWiring().db, processWiring().tableName) }));
