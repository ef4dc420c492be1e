import type { Scope } from '../auth/principal';
import { PermissionDeniedError } from '../errors';

/**
 * What each team role may do in the dashboard (product-decisions §16), as data: the one table
 * every page (which controls it shows), every form (the 403 on a forged post) and the tests read.
 * A permission is an operation's scope (the dashboard runs the API's use cases with the role's
 * scopes) or one of the dashboard's own permissions below, which no API key holds.
 */

export const TEAM_ROLES = ['owner', 'admin', 'developer', 'operator', 'finance', 'support', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The roles an invitation or a role change may give: ownership only changes hands (`team:transfer_ownership`). */
export const ASSIGNABLE_ROLES = TEAM_ROLES.filter((role): role is Exclude<TeamRole, 'owner'> => role !== 'owner');

/** What the dashboard alone grants: the team, the organization's security settings, the settlement CSVs, API keys per mode. */
export const DASHBOARD_PERMISSIONS = [
  /** Invite, change roles, remove (never the owner). */
  'team:manage',
  /** Hand ownership to an admin. */
  'team:transfer_ownership',
  /** The organization's security settings (requiring two-factor). */
  'security:manage',
  /** Download a settlement's records as CSV. */
  'settlement:export',
  /** Create, roll and revoke API keys of each mode (product-decisions §17). */
  'api_key:test',
  'api_key:live',
] as const;
export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];

export type Permission = Scope | DashboardPermission;

/** A page or form any signed-in member may use (their own security page, the mode switch). */
export const ANY_MEMBER = 'any member' as const;

/**
 * "Read everything" (§16): every list and object page. Never a secret (key tokens, webhook
 * secrets, which no page shows but once to whoever creates or rolls them) nor the team's
 * security details.
 */
const READ_EVERYTHING = [
  'payment_link:read',
  'payment:read',
  'refund:read',
  'chargeback:read',
  'settlement:read',
  'event:read',
  'webhook:read',
  'balance:read',
  // Whoever may read the lists may take them away as CSV (product-decisions §18): a report is
  // the list's rows, nothing a role cannot already page through (docs/decisions.md).
  'report:create',
  'report:read',
] as const satisfies readonly Scope[];

const MONEY_ACTIONS = ['payment_link:create', 'payment_link:update', 'refund:create', 'chargeback:update'] as const satisfies readonly Scope[];
const DEVELOPER_ACTIONS = ['webhook:write', 'event:resend', 'api_key:test'] as const satisfies readonly Permission[];

/** The audit trail (product-decisions §17: its page is the owner's and admins'). */
const ADMIN: readonly Permission[] = [...READ_EVERYTHING, ...MONEY_ACTIONS, ...DEVELOPER_ACTIONS, 'settlement:export', 'api_key:live', 'audit:read', 'team:manage'];

/** The table of §16. "Cancel a refund" is `refund:create`, as `POST /v1/refunds/{id}/cancel` declares. */
export const ROLE_PERMISSIONS: Record<TeamRole, readonly Permission[]> = {
  owner: [...ADMIN, 'security:manage', 'team:transfer_ownership'],
  admin: ADMIN,
  developer: [...READ_EVERYTHING, ...DEVELOPER_ACTIONS],
  operator: [...READ_EVERYTHING, ...MONEY_ACTIONS],
  finance: [...READ_EVERYTHING, 'settlement:export'],
  support: [...READ_EVERYTHING, 'refund:create'],
  viewer: READ_EVERYTHING,
};

/** What people call each role on the team page and in invitations. */
export const ROLE_NAMES: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  operator: 'Operator',
  finance: 'Finance',
  support: 'Support',
  viewer: 'Viewer',
};

export const isTeamRole = (value: unknown): value is TeamRole => TEAM_ROLES.includes(value as TeamRole);

const isDashboardPermission = (permission: Permission): permission is DashboardPermission => DASHBOARD_PERMISSIONS.includes(permission as DashboardPermission);

/** Whether `role` may do what `permission` names (ANY_MEMBER: every role). */
export const roleMay = (role: TeamRole, permission: Permission | typeof ANY_MEMBER): boolean =>
  permission === ANY_MEMBER || ROLE_PERMISSIONS[role].includes(permission);

/** The operations' scopes of a role: the dashboard's use cases run with these. */
export const roleScopes = (role: TeamRole): Scope[] => ROLE_PERMISSIONS[role].filter((permission): permission is Scope => !isDashboardPermission(permission));

/** A forged post or a typed URL beyond the role: the 403 page, naming the role and what it lacks. */
export function requirePermission(role: TeamRole, permission: Permission | typeof ANY_MEMBER): void {
  if (!roleMay(role, permission)) throw new PermissionDeniedError(`Your role, ${ROLE_NAMES[role]}, does not allow this (${permission})`);
}
