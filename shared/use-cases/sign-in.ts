import { randomBytes } from 'node:crypto';
import type { Mode } from '../auth/principal';
import type { AuditActors } from '../domain/audit';
import type { TeamDirectory } from '../db/team-directory';
import {
  PENDING_SIGN_IN_SECONDS,
  SESSION_ID_PATTERN,
  newSession,
  SESSION_TOUCH_SECONDS,
  secondFactorStep,
  sessionEndsAt,
  standingProblem,
  type AttemptRefusal,
  type AttemptSlot,
  type AttemptWindows,
  type DashboardSession,
  type ListedSession,
  type PendingSignIns,
  type SecondFactorStep,
  type SessionStore,
  type TeamUser,
} from '../domain/team';
import { checkNewPassword } from '../auth/passwords';
import { hashToken } from '../auth/tokens';
import { BusinessRuleError, ConflictError, NotAuthenticatedError, TooManyRequestsError } from '../errors';
import { LIMITS } from '../limits';
import { isoMillis } from '../time';

/**
 * People signing in to the dashboard and their sessions (product-decisions §16), as a small
 * state machine: email and password → (a second factor, when the person owes one) → a session;
 * every request then resumes the session and reads its person anew.
 */

export interface SignInDeps {
  people: Pick<TeamDirectory, 'person' | 'personByEmail' | 'recordSignIn' | 'endSessions'>;
  /** The organization's security settings (the owner's "require two-factor"). */
  organization: (orgId: string) => Promise<{ requireTwoFactor?: boolean } | undefined>;
  sessions: SessionStore;
  pending: PendingSignIns;
  attempts: AttemptWindows;
  passwords: { verify(password: string, stored: string | undefined): Promise<boolean>; hash(password: string): Promise<string> };
  /** Who the request acts as once a person is known: its audit record's actor (a sign-in, a sign-out). */
  audit: AuditActors;
  now: () => Date;
}

/** Where a sign-in comes from: the browser, as the Security page lists its sessions, and the address the lockouts count. */
export interface SignInContext {
  ip: string;
  userAgent?: string;
}

/** The one answer to a wrong email or password, known or unknown (no enumeration: OWASP ASVS 5.0 V6.3.8). */
export const WRONG_EMAIL_OR_PASSWORD = 'Email or password is incorrect.';
const SESSION_ENDED = 'Your dashboard session has ended; sign in again';

/** A wrong code at a sign-in's second step (a TOTP code or a recovery code): 401, the person's failed sign-in. */
export class WrongSecondFactorError extends NotAuthenticatedError {
  constructor() {
    super('The code is not valid');
  }
}

/** What a correct password leads to: a session, or a pending sign-in whose second step (`step`) the person owes first. */
export type SignInOutcome = { kind: 'session'; sessionId: string; user: TeamUser } | { kind: 'second factor'; pendingId: string; step: SecondFactorStep };

/** A signed-in request: the session (its id from the cookie) and its person as they are now. */
export interface Member {
  sessionId: string;
  session: DashboardSession;
  user: TeamUser;
}

/** 32 random bytes, base64url (256 bits: OWASP ASVS 5.0 V7.2.3 asks for 128 at least). */
const randomId = () => randomBytes(32).toString('base64url');

const minutes = (seconds: number) => `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;

/** A person as the audit trail names them. */
export const personActor = (user: TeamUser) => ({ type: 'user' as const, id: user.userId, email: user.email });

export function signIns(deps: SignInDeps) {
  /** A new session for `user` (a new id on every sign-in: OWASP ASVS 5.0 V7.2.4), in test mode unless `mode` says. */
  async function issueSession(user: TeamUser, context: SignInContext, mode: Mode = 'test'): Promise<string> {
    deps.audit.identified(personActor(user), user.orgId);
    const now = deps.now();
    const sessionId = randomId();
    await deps.sessions.create(sessionId, newSession(user, context, now, mode));
    return sessionId;
  }

  /** The person of `email`, named as the request's actor with the email tried (never the password): a refused sign-in is recorded as theirs. */
  async function triedBy(email: string): Promise<TeamUser | undefined> {
    const user = await deps.people.personByEmail(email);
    if (user) deps.audit.identified({ ...personActor(user), email: email.trim() }, user.orgId);
    return user;
  }

  /**
   * A lock's refusal (429): recorded as a failed sign-in of `email`'s person while the lock has
   * refused no more attempts than its window allows failures (`limit`), so that trying a locked
   * subject grows the audit trail no faster than its lockout lets guesses through (decisions 134).
   */
  async function refuse(refusal: AttemptRefusal, limit: number, email: string, reason: string): Promise<never> {
    if (refusal.refusals > 0 && refusal.refusals <= limit) await triedBy(email);
    throw new TooManyRequestsError(`${reason}: try again in ${minutes(refusal.retryAfterSeconds)}.`, refusal.retryAfterSeconds);
  }

  /** A slot of each lockout window (§16), the email's first: refused with 429 and the seconds to wait, before any password, code or passkey is checked. */
  async function attemptSlots(email: string, ip: string): Promise<AttemptSlot[]> {
    const { failuresPerEmail, failuresPerAddress, windowSeconds } = LIMITS.signIn;
    const forEmail = await deps.attempts.take(`email:${email.trim().toLowerCase()}`, failuresPerEmail, windowSeconds);
    if ('retryAfterSeconds' in forEmail) return refuse(forEmail, failuresPerEmail, email, 'Too many failed sign-ins for this email address');
    const forAddress = await deps.attempts.take(`address:${ip}`, failuresPerAddress, windowSeconds);
    if ('retryAfterSeconds' in forAddress) {
      await forEmail.succeeded();
      return refuse(forAddress, failuresPerAddress, email, 'Too many failed sign-ins from your network');
    }
    return [forEmail, forAddress];
  }

  /** The end of a checked attempt (a password, a code, a passkey's answer): a right one gives its slots back, a wrong one keeps them. */
  const settle = (slots: AttemptSlot[], right: boolean) => Promise.all(slots.map((slot) => (right ? slot.succeeded() : slot.failed())));

  /**
   * Checks a password of `email`'s person under the lockouts: the attempt slots first (429), then
   * the password, hashed whether or not the email has a person, so that an unknown email answers
   * as a wrong password does, in about the same time (401). A right password gives its slots back.
   */
  async function checkPassword(email: string, password: string, ip: string): Promise<TeamUser> {
    const slots = await attemptSlots(email, ip);
    const user = await triedBy(email);
    const right = await deps.passwords.verify(password, user?.passwordHash);
    await settle(slots, right);
    if (!right || !user) throw new NotAuthenticatedError(WRONG_EMAIL_OR_PASSWORD);
    return user;
  }

  /**
   * A signed-in person's password again, to confirm a change (their password's, ownership's):
   * checked under the sign-in lockouts (429); a wrong one is a 422 beside `field`.
   */
  async function confirmPassword(member: Member, password: string, context: SignInContext, field: string): Promise<void> {
    try {
      await checkPassword(member.user.email, password, context.ip);
    } catch (error) {
      if (error instanceof NotAuthenticatedError) throw new BusinessRuleError('This is not your current password', field);
      throw error;
    }
  }

  /** The step after the first factor: the session, or a pending sign-in when the person owes a second factor. */
  async function afterPassword(user: TeamUser, context: SignInContext): Promise<SignInOutcome> {
    const step = secondFactorStep(user, (await deps.organization(user.orgId)) ?? {});
    if (!step) return { kind: 'session', sessionId: await issueSession(user, context), user };
    const now = deps.now();
    const pendingId = randomId();
    await deps.pending.create(pendingId, {
      userId: user.userId,
      step,
      createdAt: isoMillis(now),
      expiresAt: isoMillis(now.getTime() + PENDING_SIGN_IN_SECONDS * 1000),
      failures: 0,
    });
    return { kind: 'second factor', pendingId, step };
  }

  /**
   * The second factor checked: the pending sign-in taken, once (a replay of the same step
   * finds it gone: 401), and its person's session issued.
   */
  async function completeSignIn(pendingId: string, context: SignInContext): Promise<string> {
    const found = await pendingSignIn(pendingId);
    if (!found || !(await deps.pending.take(pendingId))) throw new NotAuthenticatedError(SESSION_ENDED);
    return issueSession(found.user, context);
  }

  /** A pending sign-in and its person, while it lasts and the person may still sign in. */
  async function pendingSignIn(pendingId: string | undefined): Promise<{ step: SecondFactorStep; user: TeamUser } | undefined> {
    if (!pendingId || !SESSION_ID_PATTERN.test(pendingId)) return undefined;
    const pending = await deps.pending.find(pendingId);
    const user = pending && (await deps.people.person(pending.userId));
    return pending && user && !standingProblem(user) ? { step: pending.step, user } : undefined;
  }

  return {
    issueSession,
    checkPassword,
    confirmPassword,
    afterPassword,

    /**
     * Signs in with email and password:
     * 1. a slot of the email's and the address's lockout windows (else 429 with Retry-After,
     *    recorded as the email's person's failed sign-in while the lock has refused few enough);
     * 2. the password checked (a dummy hash for an unknown email): wrong → 401, the slots kept;
     * 3. right: the slots given back; a person who may not use the dashboard now is refused with
     *    the key rules' status (403 removed, 401 demoted, 422 global admin);
     * 4. the sign-in noted, then the session, or a pending sign-in for the second factor.
     */
    async withPassword(email: string, password: string, context: SignInContext): Promise<SignInOutcome> {
      const user = await checkPassword(email, password, context.ip);
      const problem = standingProblem(user);
      if (problem) throw problem;
      await deps.people.recordSignIn(user.userId, isoMillis(deps.now()));
      return afterPassword(user, context);
    },

    /**
     * Signs in the person of a passkey registered to them (both factors, §16): a slot of their
     * email's and the address's lockout windows first (429, as a password's); then named as the
     * request's actor, so that a refusal from here on is their failed sign-in; `verify` checks
     * the passkey's answer (401, the slots kept: a failure like a wrong password; verified, given
     * back); one who may not use the dashboard now is refused as with a password; the sign-in
     * noted; a session.
     */
    async withPasskey(userId: string, verify: () => Promise<void>, context: SignInContext): Promise<{ sessionId: string; user: TeamUser }> {
      const user = await deps.people.person(userId);
      if (!user) throw new NotAuthenticatedError(SESSION_ENDED);
      const slots = await attemptSlots(user.email, context.ip);
      deps.audit.identified(personActor(user), user.orgId);
      try {
        await verify();
      } catch (error) {
        await settle(slots, false);
        throw error;
      }
      await settle(slots, true);
      const problem = standingProblem(user);
      if (problem) throw problem;
      await deps.people.recordSignIn(user.userId, isoMillis(deps.now()));
      return { sessionId: await issueSession(user, context), user };
    },

    /** A pending sign-in and its person, while it lasts (its second step's pages show and check it). */
    pendingSignIn,

    /** A wrong second factor: false when it was the last one allowed (the pending sign-in is over). */
    failSecondFactor: (pendingId: string) => deps.pending.fail(pendingId),

    completeSignIn,

    /**
     * The second step of `user`'s pending sign-in, under the lockouts as a password is (§16: five
     * failures of any kind lock the email): a slot of their email's and the address's windows
     * first (429); then they are named as the request's actor, so that a wrong code is their
     * failed sign-in; `prove` checks the code (a TOTP code or a recovery code): wrong → the slots
     * kept, WrongSecondFactorError (401); right → the slots given back, the sign-in completed.
     */
    async withSecondFactor(pendingId: string, user: TeamUser, prove: () => Promise<boolean>, context: SignInContext): Promise<string> {
      const slots = await attemptSlots(user.email, context.ip);
      deps.audit.identified(personActor(user), user.orgId);
      const right = await prove();
      await settle(slots, right);
      if (!right) throw new WrongSecondFactorError();
      return completeSignIn(pendingId, context);
    },

    /**
     * The person of a dashboard request:
     * 1. the session must exist and not be past its idle or absolute end (401);
     * 2. its person is read now: removed, demoted or without the permission since, or their
     *    sessions ended (a password change, signing out everywhere) → refused, so a change
     *    applies to the next request (§16: within 5 s);
     * 3. its last request is recorded at most once a minute (SESSION_TOUCH_SECONDS).
     */
    async resume(sessionId: string | undefined): Promise<Member> {
      if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) throw new NotAuthenticatedError(SESSION_ENDED);
      const session = await deps.sessions.find(sessionId);
      const now = deps.now();
      if (!session || sessionEndsAt(session) <= now.getTime()) throw new NotAuthenticatedError(SESSION_ENDED);
      const user = await deps.people.person(session.userId);
      if (!user || user.sessionVersion !== session.sessionVersion) throw new NotAuthenticatedError(SESSION_ENDED);
      const problem = standingProblem(user);
      if (problem) throw problem;
      if (now.getTime() - Date.parse(session.lastSeenAt) >= SESSION_TOUCH_SECONDS * 1000) {
        await deps.sessions.touch(sessionId, { ...session, lastSeenAt: isoMillis(now) });
      }
      return { sessionId, session, user };
    },

    /** The mode the session's pages show from now on. */
    async switchMode(member: Member, mode: Mode): Promise<void> {
      if (!(await deps.sessions.switchMode(member.sessionId, mode))) throw new NotAuthenticatedError(SESSION_ENDED);
    },

    /** Ends this session (its item removed, the sign-out recorded as its person's); one that ended already is left as it is. */
    async signOut(sessionId: string | undefined): Promise<void> {
      if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) return;
      const session = await deps.sessions.find(sessionId);
      const user = session && (await deps.people.person(session.userId));
      if (!session || !user) return;
      deps.audit.identified(personActor(user), user.orgId);
      await deps.sessions.remove(sessionId);
    },

    /**
     * A new password from the Security page (OWASP ASVS 5.0 V6.2.2, V6.2.3):
     * 1. the current password, checked under the sign-in lockouts (wrong: 422 beside it; 429);
     * 2. the new one follows the rules of §16 (422 beside it);
     * 3. hashed and set with the person's sessions ended but this one, in one transaction
     *    (§16: a password change ends every other session); the others' items are removed.
     */
    async changePassword(member: Member, currentPassword: string, newPassword: string, context: SignInContext): Promise<void> {
      const { user } = member;
      await confirmPassword(member, currentPassword, context, 'current_password');
      checkNewPassword(newPassword, user.email, 'new_password');
      const others = (await deps.sessions.listOfUser(user.userId)).filter((session) => session.idHash !== hashToken(member.sessionId));
      const passwordHash = await deps.passwords.hash(newPassword);
      if (!(await deps.people.endSessions(user.userId, user.sessionVersion, { passwordHash, keep: member.sessionId }))) {
        throw new ConflictError('Your password or sessions changed meanwhile: reload the page and try again');
      }
      await deps.sessions.removeListed(others.map((session) => session.idHash));
    },

    /** A person's sessions, newest first, for the Security page. */
    sessionsOf: (member: Member): Promise<ListedSession[]> => deps.sessions.listOfUser(member.user.userId),

    /**
     * Signs the person out everywhere, this browser included (OWASP ASVS 5.0 V7.5.2): their
     * session version raised (every session ends at its next request) and the items removed.
     */
    async signOutEverywhere(member: Member): Promise<void> {
      const listed = await deps.sessions.listOfUser(member.user.userId);
      await deps.people.endSessions(member.user.userId, member.user.sessionVersion);
      await deps.sessions.removeListed(listed.map((session) => session.idHash));
    },
  };
}

export type SignIns = ReturnType<typeof signIns>;
