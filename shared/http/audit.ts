import type { Principal } from '../auth/principal';
import { isAudited, type Audit } from '../api/operation';
import { auditRecordPuts, reportUnrecorded, RequestAudit, withRequestAudit, type AuditCaller } from '../db/audit-trail';
import { transactWrite } from '../db/side-effects';
import { BusinessRuleError, NotAuthenticatedError, PermissionDeniedError, TooManyRequestsError } from '../errors';
import { LIMITS } from '../limits';
import { processWiring } from '../services/wiring';
import type { ApiEvent } from './response';

/**
 * The edge of the audit trail (product-decisions §17): every handler builder that runs a writing
 * route (`apiHandler`, `dashboardForm`, `dashboardScriptRequest`, the sign-in and sign-out forms)
 * runs its use case through `audited` with the route's declaration, so that no use case records
 * anything itself (shared/db/audit-trail.ts carries the record into the change's transaction).
 */

/** Who calls and from where: the principal (when there is one), the path's `{id}` and the parsed body (for a target read from them), the request's address and user agent. */
export function auditCallerOf(event: ApiEvent, principal?: Principal, body?: unknown): AuditCaller {
  const userAgent = event.headers?.['user-agent'];
  const pathId = event.pathParameters?.id;
  return {
    ...(principal ? { actor: principal.actor, orgId: principal.orgId, mode: principal.mode } : {}),
    ...(pathId !== undefined ? { pathId } : {}),
    ...(body && typeof body === 'object' ? { body: body as Record<string, unknown> } : {}),
    ip: event.requestContext?.http?.sourceIp ?? null,
    userAgent: userAgent ? userAgent.slice(0, LIMITS.userAgentLength) : null,
  };
}

/**
 * What a person is refused with: a wrong password, code or passkey, a standing that no longer
 * lets them in (the key rules' 401, 403, 422), a lockout (429).
 */
const isRefusal = (error: unknown) =>
  error instanceof NotAuthenticatedError || error instanceof PermissionDeniedError || error instanceof BusinessRuleError || error instanceof TooManyRequestsError;

/**
 * Runs `work` (the route's use case) with its record waiting for the transaction of its change.
 * A route that declares `refusedAs` records a refusal of the person it identified on its own (a
 * failed sign-in changes nothing else: a wrong password, code or passkey, a lockout); a failed
 * write otherwise records nothing.
 */
export async function audited<T>(audit: Audit | undefined, caller: AuditCaller, work: () => Promise<T>): Promise<T> {
  if (!isAudited(audit)) return work();
  const request = new RequestAudit(audit, caller);
  let result: T;
  try {
    result = await withRequestAudit(request, work);
  } catch (error) {
    const refusal = isRefusal(error) ? request.refusal() : undefined;
    if (refusal) {
      const { db, tableName } = processWiring();
      await transactWrite(db, auditRecordPuts(tableName, refusal));
    }
    throw error;
  }
  reportUnrecorded(request);
  return result;
}
