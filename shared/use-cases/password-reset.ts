import { checkNewPassword } from '../auth/passwords';
import { hashToken, linkTokenId, newLinkToken, tokenMatches } from '../auth/tokens';
import type { TeamDirectory } from '../db/team-directory';
import { EmailUnavailableError, type EmailSender } from '../domain/email';
import { PASSWORD_RESET_SECONDS, standingProblem, type SessionStore, type TeamMessages, type TeamUser } from '../domain/team';
import { NotFoundError, TooManyRequestsError } from '../errors';
import { LIMITS } from '../limits';
import { isoMillis } from '../time';
import type { AuditActors } from '../domain/audit';
import { personActor, type SignInContext } from './sign-in';

/**
 * Password reset by email (product-decisions §16): `Forgot password?` asks for an email and
 * always answers the same; a person of the dashboard gets a link valid one hour, single-use; the
 * new password ends every session; two-factor is still asked at the next sign-in (a reset signs
 * nobody in).
 */

export interface PasswordResetDeps {
  people: Pick<TeamDirectory, 'person' | 'personByEmail' | 'createReset' | 'reset' | 'resetPassword'>;
  sessions: Pick<SessionStore, 'listOfUser' | 'removeListed'>;
  /** Fixed-window counters (shared/db/rate-limit.ts): the seconds until the window ends when it is full. */
  limiter: { take(subject: string, limit: number, windowSeconds: number, nowMs?: number): Promise<number | undefined> };
  email: EmailSender;
  messages: Pick<TeamMessages, 'passwordReset'>;
  passwords: { hash(password: string): Promise<string> };
  /** Who a reset acts as: the person of the link (their audit record's actor). */
  audit: AuditActors;
  now: () => Date;
}

/** Every link that cannot be used (any more) gets these words (404), whatever the reason. */
export const RESET_LINK_GONE = 'This password reset link no longer works: it was used, replaced by a newer one, or it expired. Ask for a new one.';

/** A reset's link: `{dashboard_url}/password-reset/{token}`. */
export const passwordResetLink = (dashboardUrl: string, token: string) => `${dashboardUrl}/password-reset/${token}`;

export function passwordResets(deps: PasswordResetDeps) {
  /** The person a link resets the password of, while it works (its token, unexpired, the person still active). */
  async function personOfLink(token: string): Promise<TeamUser> {
    const userId = linkTokenId(token);
    const reset = userId ? await deps.people.reset(userId) : undefined;
    const user = reset && tokenMatches(token, reset.tokenHash) && Date.parse(reset.expiresAt) > deps.now().getTime() ? await deps.people.person(reset.userId) : undefined;
    if (!user || standingProblem(user)) throw new NotFoundError(RESET_LINK_GONE);
    return user;
  }

  return {
    /**
     * A reset asked for `email` (§16: the same answer whoever asks):
     * 1. a slot of the requesting address's window (past it: 429, which says nothing of the email);
     * 2. for an email of a person who may use the dashboard, and within the email's own window
     *    (past it nothing more is sent, the answer unchanged): a new reset of one hour replacing
     *    any earlier one, its token's SHA-256 stored, and the link sent. A mail service that
     *    cannot take it changes nothing in the answer either (the SES adapter logs why).
     */
    async request(email: string, context: SignInContext, dashboardUrl: string): Promise<void> {
      const { perAddress, perEmail, windowSeconds } = LIMITS.passwordResetRequests;
      const addressRetry = await deps.limiter.take(`reset-address:${context.ip}`, perAddress, windowSeconds, deps.now().getTime());
      if (addressRetry !== undefined) {
        throw new TooManyRequestsError(`Too many password reset requests from your network: try again in ${Math.ceil(addressRetry / 60)} minutes.`, addressRetry);
      }
      const user = await deps.people.personByEmail(email);
      if (!user || standingProblem(user)) return;
      if ((await deps.limiter.take(`reset-email:${user.userId}`, perEmail, windowSeconds, deps.now().getTime())) !== undefined) return;
      const token = newLinkToken(user.userId);
      await deps.people.createReset(user.userId, hashToken(token), isoMillis(deps.now().getTime() + PASSWORD_RESET_SECONDS * 1000));
      try {
        await deps.email.send(deps.messages.passwordReset({ to: user.email, link: passwordResetLink(dashboardUrl, token) }));
      } catch (error) {
        if (!(error instanceof EmailUnavailableError)) throw error;
      }
    },

    /** The email a working link resets the password of (its page shows it); else 404. */
    emailOfLink: async (token: string): Promise<string> => (await personOfLink(token)).email,

    /**
     * A new password through a link:
     * 1. the link must work (404);
     * 2. the password follows the rules of §16 (422 beside it);
     * 3. one transaction: the reset taken (single use: a second finds it gone, 404), the
     *    password set and every session of the person ended; then their session items removed.
     */
    async reset(token: string, password: string): Promise<TeamUser> {
      const user = await personOfLink(token);
      checkNewPassword(password, user.email);
      const listed = await deps.sessions.listOfUser(user.userId);
      const passwordHash = await deps.passwords.hash(password);
      deps.audit.identified(personActor(user), user.orgId);
      if (!(await deps.people.resetPassword(user, hashToken(token), passwordHash, deps.now()))) throw new NotFoundError(RESET_LINK_GONE);
      await deps.sessions.removeListed(listed.map((session) => session.idHash));
      return user;
    },
  };
}

export type PasswordResets = ReturnType<typeof passwordResets>;
