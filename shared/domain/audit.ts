import * as z from '../zod';
import type { Actor, Mode } from '../auth/principal';
import { ID_PREFIXES, isId } from '../ids';
import { LIMITS } from '../limits';
import { ListQuery, pageSchema } from '../pagination';
import { DatetimeSchema } from '../time';

/**
 * The audit trail (product-decisions §17): who did what, one immutable record per action of a
 * person or a key, written in the transaction of the change it records (docs/architecture.md,
 * "The audit trail"). This module is its vocabulary: the actions and what each names as its
 * target, the record and its API shape. Which operation records which action is said where the
 * operation is declared (`audit` in shared/api/), never in a use case.
 */

/** The kinds of object an action names as its target (an API object's `object`). */
export const AUDIT_OBJECTS = [
  'payment_link',
  'payment',
  'refund',
  'chargeback',
  'dispute_document',
  'event',
  'webhook_endpoint',
  'balance_transaction',
  'api_key',
  'user',
  'invitation',
  'report',
] as const;
export type AuditObject = (typeof AUDIT_OBJECTS)[number];

/**
 * One action: the kind of its target (null: it names none), whether it belongs to no mode (a
 * person's own actions and the team's: a key of either mode sees them), and when it is recorded.
 */
export interface AuditActionSpec {
  target: AuditObject | null;
  modeless?: true;
  description: string;
}

/**
 * Every action the trail records, `<object>.<verb>`. An action of a mode is recorded in the mode
 * the actor acted in (an API key's, a dashboard page's).
 */
export const AUDIT_ACTIONS = {
  'payment_link.created': { target: 'payment_link', description: 'A payment link was created.' },
  'payment_link.updated': { target: 'payment_link', description: 'A payment link was changed (status, limit, expiry, texts).' },
  'payment_link.checked_out': { target: 'payment_link', description: 'A test-mode checkout of the link was run by the test helper.' },
  'refund.created': { target: 'refund', description: 'A refund was created.' },
  'refund.canceled': { target: 'refund', description: 'A pending refund was canceled.' },
  'refund.transitioned': { target: 'refund', description: 'A test-mode refund was moved by the test helper.' },
  'chargeback.created': { target: 'chargeback', description: 'A test-mode chargeback was created by the test helper.' },
  'chargeback.transitioned': { target: 'chargeback', description: 'A test-mode chargeback was moved by the test helper.' },
  'chargeback.accepted': { target: 'chargeback', description: 'A chargeback was accepted.' },
  'chargeback.disputed': { target: 'chargeback', description: 'A chargeback was disputed with evidence.' },
  'dispute_document.created': { target: 'dispute_document', description: 'An evidence document was declared for a chargeback (its upload follows).' },
  'event.resent': { target: 'event', description: 'An event was sent again to its endpoints.' },
  'webhook_endpoint.created': { target: 'webhook_endpoint', description: 'A webhook endpoint was added.' },
  'webhook_endpoint.updated': { target: 'webhook_endpoint', description: 'A webhook endpoint was changed (URL, events, description, enabled or disabled).' },
  'webhook_endpoint.secret_rolled': { target: 'webhook_endpoint', description: "A webhook endpoint's signing secret was rolled." },
  'webhook_endpoint.deleted': { target: 'webhook_endpoint', description: 'A webhook endpoint was deleted.' },
  'report.created': { target: 'report', description: 'A report (a CSV of a list over a creation range) was asked for.' },
  'balance.adjusted': { target: 'balance_transaction', description: 'A test-mode balance was adjusted by the test helper.' },
  'job_run.created': { target: null, description: "A minute job was run now by the test helper, over the organization's test-mode items." },
  'api_key.created': { target: 'api_key', description: 'An API key was created.' },
  'api_key.rolled': { target: 'api_key', description: 'An API key was rolled: a new key replaces it, and it works until the end of the overlap chosen.' },
  'api_key.revoked': { target: 'api_key', description: 'An API key was revoked: it stopped working at once.' },
  'user.signed_in': { target: 'user', modeless: true, description: 'A person signed in to the dashboard.' },
  'user.sign_in_failed': {
    target: 'user',
    modeless: true,
    description:
      "A sign-in as this person was refused: a wrong password, a lockout (429), a wrong second-factor code, a passkey's answer that did not verify, or a person who may no longer sign in. The actor's email is the one tried.",
  },
  'user.signed_out': { target: 'user', modeless: true, description: 'A person signed out of one session.' },
  'user.signed_out_everywhere': { target: 'user', modeless: true, description: 'A person ended every session of theirs.' },
  'user.password_changed': { target: 'user', modeless: true, description: 'A person changed their password (their other sessions ended).' },
  'user.password_reset': { target: 'user', modeless: true, description: "A person set a new password through a reset link (every session of theirs ended)." },
  'user.two_factor_enabled': { target: 'user', modeless: true, description: 'A person turned two-factor authentication on (an authenticator app, with recovery codes).' },
  'user.two_factor_disabled': { target: 'user', modeless: true, description: 'A person turned two-factor authentication off (with their password).' },
  'user.recovery_codes_regenerated': { target: 'user', modeless: true, description: "A person made new recovery codes; the old ones stopped working." },
  'user.passkey_added': { target: 'user', modeless: true, description: 'A person added a passkey.' },
  'user.passkey_removed': { target: 'user', modeless: true, description: 'A person removed a passkey.' },
  'user.joined': { target: 'user', modeless: true, description: 'A person accepted an invitation and joined the team.' },
  'user.role_changed': { target: 'user', modeless: true, description: "A member's role was changed." },
  'user.removed': { target: 'user', modeless: true, description: 'A member was removed from the team: their sessions ended, their keys stopped working.' },
  'user.made_owner': { target: 'user', modeless: true, description: 'The owner handed ownership to this admin, and became an admin.' },
  'invitation.created': { target: 'invitation', modeless: true, description: 'A person was invited to the team by email, with a role.' },
  'invitation.resent': { target: 'invitation', modeless: true, description: 'An invitation was sent again with a new link (the old one stopped working).' },
  'invitation.revoked': { target: 'invitation', modeless: true, description: 'An invitation was revoked: its link stopped working.' },
  'team.two_factor_requirement_changed': { target: null, modeless: true, description: 'The owner turned "Require two-factor" on or off.' },
} as const satisfies Record<string, AuditActionSpec>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export const isAuditAction = (value: unknown): value is AuditAction => typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);

const specOf = (action: AuditAction): AuditActionSpec => AUDIT_ACTIONS[action];

/** Whether an action belongs to no mode. */
export const isModeless = (action: AuditAction) => specOf(action).modeless === true;

/** The kind of object an action names, or null. */
export const targetOf = (action: AuditAction) => specOf(action).target;

/**
 * Port: who a public form acts as, once its use case knows them (the person of a sign-in's
 * email): the request's audit record takes them as its actor (shared/db/audit-trail.ts). A
 * route with a principal never needs it.
 */
export interface AuditActors {
  identified(actor: Actor, orgId: string): void;
}

/** Who acted: a person, an API key, or the service itself (the operator's `ops` commands). */
export type AuditActor = Actor | { type: 'system' };

/**
 * Where a route's record finds its target's id (said by the route's declaration, shared/api/):
 * the path's `{id}`, the object the change creates, the person acting, a field of the form's
 * body (`{ body: 'user_id' }`), or nowhere (the action names none).
 */
export type AuditTargetSource = 'path' | 'created' | 'actor' | 'none' | { body: string };

export interface AuditTarget {
  type: AuditObject;
  id: string;
}

/** Records are kept this long; DynamoDB TTL removes them after (PCI DSS v4.0 10.5.1: at least a year). */
export const AUDIT_RETENTION_DAYS = 365;

/**
 * One record as the table keeps it. `mode` null: an action of no mode. `ip` and `userAgent`
 * are where the request came from (null for the operator's commands).
 */
export interface AuditRecord {
  id: string;
  orgId: string;
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget | null;
  mode: Mode | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** The two lists a record can be read from: a key of test mode reads the test one, of live mode the live one. */
export const AUDIT_VIEWS: readonly Mode[] = ['test', 'live'];

/** The lists a record is in: its mode's, or both when it belongs to no mode. */
export const viewsOf = (record: Pick<AuditRecord, 'mode'>): readonly Mode[] => (record.mode ? [record.mode] : AUDIT_VIEWS);

/** The id an actor is filtered by (`actor_id`): a person's or a key's; the service has none. */
export const actorIdOf = (actor: AuditActor): string | undefined => (actor.type === 'system' ? undefined : actor.id);

// ---------------------------------------------------------------------------------------------
// The API's face

const ActorSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('user'),
        id: z.withMeta(z.string(), { description: 'The person (`usr_…`).', example: 'usr_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
        email: z.withMeta(z.string(), { description: "The person's email; for a refused sign-in, the email tried." }),
      }),
      z.strictObject({ type: z.literal('api_key'), id: z.withMeta(z.string(), { description: 'The key (`key_…`), never its token.', example: 'key_01jd2x3y4z5a6b7c8d9e0f1g2h' }) }),
      z.strictObject({ type: z.literal('system') }),
    ]),
    { id: 'AuditActor', description: 'Who acted: a person in the dashboard, an API key, or the service (the operator\'s commands).' },
  ))();

const IpSchema = /* @__PURE__ */ (() => z.withMeta(z.nullable(z.string()), { description: 'The address the request came from; null for the operator\'s commands.', example: '203.0.113.7' }))();
const UserAgentSchema = /* @__PURE__ */ (() =>
  z.withMeta(z.nullable(z.string()), { description: `The request's \`User-Agent\`, at most ${LIMITS.userAgentLength} characters; null when it sent none.` }))();

/** One action's record: `action` a constant, `target` of the kind the action names (or null), `mode` null for an action of no mode. */
const auditEventOf = (action: AuditAction) => {
  const spec = specOf(action);
  const target = spec.target === null ? z.null() : z.strictObject({ type: z.literal(spec.target), id: z.string() });
  return z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'The record (`aud_…`).', example: 'aud_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
      object: z.literal('audit_event'),
      action: z.literal(action),
      actor: ActorSchema,
      target,
      mode: spec.modeless ? z.null() : z.enum(['test', 'live']),
      ip: IpSchema,
      user_agent: UserAgentSchema,
      created_at: DatetimeSchema,
    }),
    { id: `${action.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}AuditEvent`, description: spec.description },
  );
};

/** An audit record as the API returns it: one schema per `action`, so a typed client narrows `target` by it. */
export const AuditEventSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.discriminatedUnion('action', AUDIT_ACTION_NAMES.map(auditEventOf) as [ReturnType<typeof auditEventOf>, ...ReturnType<typeof auditEventOf>[]]),
    { id: 'AuditEvent', description: 'Who did what: one immutable record per action of a person or an API key, kept a year.' },
  ))();

export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditEventListSchema = /* @__PURE__ */ (() => pageSchema(AuditEventSchema, 'AuditEventList', 'A page of audit records, newest first.'))();

export function auditEventView(record: AuditRecord): AuditEvent {
  return {
    id: record.id,
    object: 'audit_event',
    action: record.action,
    actor: record.actor,
    target: record.target,
    mode: record.mode,
    ip: record.ip,
    user_agent: record.userAgent,
    created_at: record.createdAt,
  } as AuditEvent;
}

/** The id kinds an actor can have: a person or a key. */
const ACTOR_ID = new RegExp(`^(${ID_PREFIXES.user}|${ID_PREFIXES.apiKey})_[0-9a-z]{26}$`);
/** Any object id the trail names as a target. */
const TARGET_ID = /^[a-z]+_[0-9a-z]{26}$/;

/**
 * `GET /v1/audit_events`: the list parameters and at most one filter (each filter is a list of
 * its own: a page stays one Query). A value that cannot name anything is a 400.
 */
export const listAuditEventsQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.extend(ListQuery, {
      action: z.withMeta(z.optional(z.enum(AUDIT_ACTION_NAMES as [AuditAction, ...AuditAction[]])), { description: 'Only the records of this action.' }),
      actor_id: z.withMeta(z.optional(z.string().check(z.regex(ACTOR_ID, 'must be a person (`usr_…`) or an API key (`key_…`)'))), {
        description: 'Only what this person (`usr_…`) or API key (`key_…`) did.',
      }),
      target_id: z.withMeta(z.optional(z.string().check(z.regex(TARGET_ID, 'must be an object id (`pl_…`, `rf_…`, `key_…`, …)'))), {
        description: 'Only the records naming this object as their target.',
      }),
    }),
    { id: 'ListAuditEventsQuery' },
  ))();

export const AUDIT_FILTERS = ['action', 'actor_id', 'target_id'] as const;
export type AuditFilter = { action: AuditAction } | { actor_id: string } | { target_id: string } | Record<string, never>;

export const isAuditEventId = (value: string) => isId('auditEvent', value);
