import type { Mode, Principal } from '../auth/principal';
import type { StoredUser } from '../auth/key-store';
import { ADMIN_CREATOR_DETAIL } from '../auth/authenticate';
import { BusinessRuleError, NotAuthenticatedError, NotFoundError, PermissionDeniedError, type ServiceError } from '../errors';
import type { Email } from './email';
import { roleScopes, type TeamRole } from './team-roles';
import { LIMITS } from '../limits';
import { isoMillis } from '../time';

/**
 * People of an organization and their dashboard sessions (product-decisions §16). A person is a
 * directory user (`usr_…`, the creator the contract's key rules read) with an email, a name, a
 * team role and a status; their sign-in, sessions and keys follow the same standing. Pure rules
 * and the ports the use cases take; adapters in shared/db, pages in shared/dashboard.
 */

export type UserStatus = 'invited' | 'active' | 'removed';

/** A directory user who is a person of the team. */
export interface TeamUser extends StoredUser {
  email: string;
  name: string;
  teamRole: TeamRole;
  status: UserStatus;
  /** The scrypt hash of the password (shared/auth/passwords.ts); none until an invitation is accepted. */
  passwordHash?: string;
  /**
   * Sessions are valid only while they carry this number: a password change or reset, a removal
   * and signing out everywhere raise it, which ends every session issued before at its next
   * request (the session that changed the password is issued again).
   */
  sessionVersion: number;
  createdAt: string;
  lastSignInAt?: string;
  /** When two-factor (TOTP) was enrolled; absent while it is not. */
  twoFactorEnabledAt?: string;
  /** How many passkeys the person has registered. */
  passkeyCount?: number;
}

/** Emails are compared case-insensitively (§16): this form keys the uniqueness item and every lookup. */
export const emailKey = (email: string) => email.trim().toLowerCase();

/** Whether a directory user is a person (has a team role), and so may ever sign in. */
export const isTeamUser = (user: StoredUser | undefined): user is TeamUser => !!user && typeof (user as Partial<TeamUser>).teamRole === 'string';

/**
 * Why a person may not use the dashboard now, or undefined: the contract's key rules read for
 * the person as for their keys (product-decisions §3, §16). Removed or without the organization
 * permission: 403; demoted or not active: 401; the global admin role: 422.
 */
export function standingProblem(user: TeamUser): ServiceError | undefined {
  if (user.status === 'removed' || !user.orgPermission) return new PermissionDeniedError('Your access to this organization has been removed; ask its owner or an admin');
  if (user.status !== 'active' || user.role === 'demoted') return new NotAuthenticatedError('This account can no longer sign in');
  if (user.role === 'admin') return new BusinessRuleError(ADMIN_CREATOR_DETAIL);
  return undefined;
}

/** A person acting in the dashboard in `mode`: their organization, their role's scopes, no acceptor binding. */
export const memberPrincipal = (user: TeamUser, mode: Mode): Principal => ({
  actor: { type: 'user', id: user.userId, email: user.email },
  orgId: user.orgId,
  mode,
  scopes: roleScopes(user.teamRole),
});

// ---------------------------------------------------------------------------------------------
// Managing the team

/** A member the team page names: an active person of the same organization (else the one 404). */
export function requireMember(actor: TeamUser, target: TeamUser | undefined): TeamUser {
  if (!target || target.orgId !== actor.orgId || target.status !== 'active') throw new NotFoundError('No such member of this team');
  return target;
}

/**
 * What owners and admins may not do to a member (§16; 422 beside the form): change or remove
 * themselves (another admin or the owner can), or the owner (ownership only changes hands);
 * nobody is made owner by a role change.
 */
export function checkMemberChange(actor: TeamUser, target: TeamUser, change: { role: TeamRole } | 'remove'): void {
  const removing = change === 'remove';
  if (target.userId === actor.userId) throw new BusinessRuleError(removing ? 'You cannot remove yourself: another admin or the owner can' : 'You cannot change your own role', removing ? undefined : 'role');
  if (target.teamRole === 'owner') {
    throw new BusinessRuleError(removing ? 'The owner cannot be removed: they hand ownership to an admin first' : "The owner's role changes only when they hand ownership over", removing ? undefined : 'role');
  }
  if (!removing && change.role === 'owner') throw new BusinessRuleError('Ownership is handed over by the owner, never given as a role', 'role');
}

/** Who ownership may go to: an active admin of the team (§16), else 422 beside the choice. */
export function checkNewOwner(owner: TeamUser, target: TeamUser | undefined): TeamUser {
  if (!target || target.orgId !== owner.orgId || target.status !== 'active' || target.teamRole !== 'admin') {
    throw new BusinessRuleError('Ownership goes to an admin of the team: make them an admin first', 'user_id');
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Invitations and password resets (links by email)

/** An invitation to join the team (§16): pending until accepted, revoked or 7 days old. */
export interface Invitation {
  id: string;
  orgId: string;
  email: string;
  teamRole: Exclude<TeamRole, 'owner'>;
  /** Who invited (a user id). */
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** An invitation's link works this long after it is sent (or sent again)… */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;
/** …and a password reset's this long (§16). */
export const PASSWORD_RESET_SECONDS = 60 * 60;

/** The emails a team sends its people (their words, as text and HTML: shared/dashboard/emails.ts). */
export interface TeamMessages {
  invitation(details: { to: string; organization: string; role: TeamRole; invitedBy: string; link: string }): Email;
  passwordReset(details: { to: string; link: string }): Email;
}

/** The refusal when an email already has a user (§16: 422 beside the field). */
export const EMAIL_TAKEN = 'This email address already has a user';

/** Who may be invited: a new email (one that already has a user is refused beside the field), to any role but owner. */
export function checkInvitation(role: TeamRole, emailTaken: boolean, pending: boolean): void {
  if (role === 'owner') throw new BusinessRuleError('Ownership is handed over by the owner, never given by an invitation', 'role');
  if (emailTaken) throw new BusinessRuleError(EMAIL_TAKEN, 'email');
  if (pending) throw new BusinessRuleError('This email address has a pending invitation: send it again from the list below', 'email');
}

// ---------------------------------------------------------------------------------------------
// Sessions

/** A session ends after this long without a request (OWASP ASVS 5.0 V7.3.1)… */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** …and this long after sign-in, whatever its use (V7.3.2). */
export const SESSION_MAX_SECONDS = 12 * 60 * 60;
/**
 * A session's last request is written at most this often (not on every page): its idle end is
 * 30 to 31 minutes after its last request.
 */
export const SESSION_TOUCH_SECONDS = 60;

/** A signed-in browser of one person; the table keys it by the SHA-256 of the cookie's random id. */
export interface DashboardSession {
  userId: string;
  orgId: string;
  /** The mode its pages show (test by default; the switch on every page changes it). */
  mode: Mode;
  /** The person's `sessionVersion` when it was issued. */
  sessionVersion: number;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end: createdAt + SESSION_MAX_SECONDS. */
  expiresAt: string;
  /** The browser that signed in, as the Security page lists it (at most 200 characters). */
  userAgent?: string;
  /** The address it signed in from. */
  ip?: string;
}

/** A session as the Security page lists it: its store key (the id's hash, not a usable cookie) and what it shows. */
export interface ListedSession extends DashboardSession {
  idHash: string;
}

/** 32 random bytes, base64url: the only thing the session cookie holds. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The session a sign-in issues `user` at `now` (its absolute end SESSION_MAX_SECONDS on), from the browser `from` names, its pages in `mode`. */
export function newSession(user: Pick<TeamUser, 'userId' | 'orgId' | 'sessionVersion'>, from: { ip: string; userAgent?: string }, now: Date, mode: Mode): DashboardSession {
  return {
    userId: user.userId,
    orgId: user.orgId,
    mode,
    sessionVersion: user.sessionVersion,
    createdAt: isoMillis(now),
    lastSeenAt: isoMillis(now),
    expiresAt: isoMillis(now.getTime() + SESSION_MAX_SECONDS * 1000),
    ip: from.ip,
    ...(from.userAgent ? { userAgent: from.userAgent.slice(0, LIMITS.userAgentLength) } : {}),
  };
}

/** When the session stops working: idle since its last request, or at its absolute end. */
export const sessionEndsAt = (session: Pick<DashboardSession, 'lastSeenAt' | 'expiresAt'>): number =>
  Math.min(Date.parse(session.lastSeenAt) + SESSION_IDLE_SECONDS * 1000, Date.parse(session.expiresAt));

/** Port: sessions by the random id the cookie carries (stored by its hash). */
export interface SessionStore {
  create(sessionId: string, session: DashboardSession): Promise<void>;
  find(sessionId: string): Promise<DashboardSession | undefined>;
  /** Records a request of a session that still exists: `session` with its new `lastSeenAt` (its idle end moves on). */
  touch(sessionId: string, session: DashboardSession): Promise<void>;
  /** Switches the mode its pages show; false when the session no longer exists. */
  switchMode(sessionId: string, mode: Mode): Promise<boolean>;
  remove(sessionId: string): Promise<void>;
  /** A person's sessions, newest first (an index: a moment behind the writes). */
  listOfUser(userId: string): Promise<ListedSession[]>;
  /** Removes sessions by their store key (what `listOfUser` lists). */
  removeListed(idHashes: string[]): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Signing in

/**
 * What follows a correct password: the session, or first a second factor (`code`: the person
 * has two-factor or passkeys and gives one; `enrol`: the organization requires two-factor and
 * the person has none yet, so they enrol before any other page).
 */
export type SecondFactorStep = 'code' | 'enrol';

/** Whether the person has a second factor: TOTP, or a passkey (which counts as both, §16). */
export const hasSecondFactor = (user: Pick<TeamUser, 'twoFactorEnabledAt' | 'passkeyCount'>) => !!user.twoFactorEnabledAt || (user.passkeyCount ?? 0) > 0;

/**
 * Refused: the removal would leave the person without a second factor while their organization
 * requires one (422). The removal's own write holds the condition, so two removals at once (two
 * tabs) cannot both pass.
 */
export class LastSecondFactorError extends BusinessRuleError {
  constructor() {
    super('Your organization requires two-factor authentication: add a passkey or another second factor before removing this one');
  }
}

/** The second step a person owes after their password, if any (§16 "Two-factor"). */
export function secondFactorStep(user: TeamUser, organization: { requireTwoFactor?: boolean }): SecondFactorStep | undefined {
  if (hasSecondFactor(user)) return 'code';
  if (organization.requireTwoFactor) return 'enrol';
  return undefined;
}

/** A sign-in between its password and its second factor: short-lived, single-use, stored by the hash of its cookie's id. */
export interface PendingSignIn {
  userId: string;
  step: SecondFactorStep;
  createdAt: string;
  expiresAt: string;
  /** Wrong codes so far; PENDING_SIGN_IN_FAILURES end the attempt. */
  failures: number;
}

/** The second step must follow the password within this long… */
export const PENDING_SIGN_IN_SECONDS = 5 * 60;
/** …and five wrong codes end it (§16). */
export const PENDING_SIGN_IN_FAILURES = 5;

/** Port: pending sign-ins by the random id their cookie carries (stored by its hash). */
export interface PendingSignIns {
  create(pendingId: string, pending: PendingSignIn): Promise<void>;
  find(pendingId: string): Promise<PendingSignIn | undefined>;
  /** Counts a wrong code; false when that was the last one allowed (the attempt is over and removed). */
  fail(pendingId: string): Promise<boolean>;
  /** Takes it, once: false when it was taken (or removed) before. */
  take(pendingId: string): Promise<boolean>;
}

/**
 * One taken attempt of a throttled subject (an email, an address): a failure keeps it counted,
 * a success gives it back.
 */
export interface AttemptSlot {
  /** A wrong password: the slot stays counted; when it filled the window, the lock runs a whole window from now. */
  failed(): Promise<void>;
  /** A right password: the slot is given back. */
  succeeded(): Promise<void>;
}

/**
 * An attempt its subject's lock refused: the seconds until the subject may try again, and how
 * many attempts that lock has refused, this one included (0: its window ended meanwhile).
 */
export interface AttemptRefusal {
  retryAfterSeconds: number;
  refusals: number;
}

/** Port: attempt windows in the table, taken before any password is checked. */
export interface AttemptWindows {
  /** A slot of `subject`'s window of `limit`, or its refusal, counted on the window. */
  take(subject: string, limit: number, windowSeconds: number): Promise<AttemptSlot | AttemptRefusal>;
}
