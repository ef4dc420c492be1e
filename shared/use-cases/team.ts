import { checkNewPassword } from '../auth/passwords';
import { hashToken, linkTokenId, newLinkToken, tokenMatches } from '../auth/tokens';
import type { TeamDirectory } from '../db/team-directory';
import { EmailUnavailableError, type EmailSender } from '../domain/email';
import {
  EMAIL_TAKEN,
  INVITATION_SECONDS,
  checkInvitation,
  checkMemberChange,
  checkNewOwner,
  emailKey,
  requireMember,
  type Invitation,
  type SessionStore,
  type TeamMessages,
  type TeamUser,
} from '../domain/team';
import type { TeamRole } from '../domain/team-roles';
import { BusinessRuleError, NotFoundError } from '../errors';
import { newId } from '../ids';
import { LIMITS } from '../limits';
import { isoMillis } from '../time';
import type { AuditActors } from '../domain/audit';
import { personActor, type Member, type SignInContext, type SignInOutcome, type SignIns } from './sign-in';

/**
 * The team page's changes (product-decisions §16): owners and admins change roles and remove
 * members, the owner hands ownership to an admin. Each change is one conditional write that
 * meets the members as they are now, so concurrent changes never leave two owners or none.
 */

export interface TeamDeps {
  people: Pick<
    TeamDirectory,
    | 'person'
    | 'personByEmail'
    | 'peopleOf'
    | 'changeRole'
    | 'remove'
    | 'handOver'
    | 'copyStandingToKeys'
    | 'invitationsOf'
    | 'invitation'
    | 'createInvitation'
    | 'renewInvitation'
    | 'revokeInvitation'
    | 'acceptInvitation'
  >;
  sessions: Pick<SessionStore, 'listOfUser' | 'removeListed'>;
  signIns: Pick<SignIns, 'confirmPassword' | 'afterPassword'>;
  organization: (orgId: string) => Promise<{ name: string } | undefined>;
  email: EmailSender;
  messages: TeamMessages;
  passwords: { hash(password: string): Promise<string> };
  /** Who accepting an invitation acts as: the person it creates (their audit record's actor). */
  audit: AuditActors;
  now: () => Date;
}

const CHANGED_MEANWHILE = 'This member changed meanwhile: reload the team page and try again';
const NO_SUCH_INVITATION = 'No such invitation of this team';
/** Every link of an invitation that cannot be used any more gets these words (404): the reason is nobody's business but the team's. */
export const INVITATION_GONE = 'This invitation link no longer works: it was used, sent again, revoked or it expired. Ask the person who invited you for a new one.';

/** An invitation's link: `{dashboard_url}/invitations/{token}` (§16). */
export const invitationLink = (dashboardUrl: string, token: string) => `${dashboardUrl}/invitations/${token}`;

export function teamManagement(deps: TeamDeps) {
  /** The invitation's email, sent now: false when the mail service refused or could not be reached (the invitation stands; it can be sent again). */
  async function sendInvitation(invitation: Invitation, token: string, inviter: TeamUser, dashboardUrl: string): Promise<boolean> {
    const organization = (await deps.organization(invitation.orgId))?.name ?? invitation.orgId;
    try {
      await deps.email.send(
        deps.messages.invitation({ to: invitation.email, organization, role: invitation.teamRole, invitedBy: inviter.name, link: invitationLink(dashboardUrl, token) }),
      );
      return true;
    } catch (error) {
      if (error instanceof EmailUnavailableError) return false;
      throw error;
    }
  }

  /** The invitation a link opens, while it works (its token, unexpired), and the organization's name. */
  async function invitationOf(token: string): Promise<{ invitation: Invitation; organization: string } | undefined> {
    const id = linkTokenId(token);
    const stored = id ? await deps.people.invitation(id) : undefined;
    if (!stored || !tokenMatches(token, stored.tokenHash) || Date.parse(stored.expiresAt) <= deps.now().getTime()) return undefined;
    const { tokenHash: _hash, ...invitation } = stored;
    return { invitation, organization: (await deps.organization(invitation.orgId))?.name ?? invitation.orgId };
  }

  return {
    /** The members of the person's organization (active and invited alike), oldest first. */
    membersOf: (member: Member): Promise<TeamUser[]> => deps.people.peopleOf(member.user.orgId),

    /**
     * A member's new role:
     * 1. an active member of the team (404), not the one changing it nor the owner, and not
     *    `owner` (422 beside the role);
     * 2. one conditional write (the member still active, still not the owner): their next request
     *    has the new role's permissions.
     */
    async changeRole(member: Member, userId: string, role: TeamRole): Promise<TeamUser> {
      const target = requireMember(member.user, await deps.people.person(userId));
      checkMemberChange(member.user, target, { role });
      if (!(await deps.people.changeRole(target, role as Exclude<TeamRole, 'owner'>))) throw new BusinessRuleError(CHANGED_MEANWHILE);
      return { ...target, teamRole: role };
    },

    /**
     * Removes a member (§16: their sessions end, their keys stop):
     * 1. an active member of the team (404), neither the one removing nor the owner (422);
     * 2. one transaction: status `removed`, the organization permission gone, their sessions'
     *    version raised (every session ends at its next request), their email given back;
     * 3. their keys' copy of their standing rewritten (403 within the authenticator's 4 s), and
     *    their session items deleted.
     */
    async remove(member: Member, userId: string): Promise<TeamUser> {
      const target = requireMember(member.user, await deps.people.person(userId));
      checkMemberChange(member.user, target, 'remove');
      const sessions = await deps.sessions.listOfUser(target.userId);
      if (!(await deps.people.remove(target))) throw new BusinessRuleError(CHANGED_MEANWHILE);
      await deps.people.copyStandingToKeys({ ...target, orgPermission: false });
      await deps.sessions.removeListed(sessions.map((session) => session.idHash));
      return target;
    },

    /** The team's pending invitations, oldest first. */
    invitationsOf: (member: Member): Promise<Invitation[]> => deps.people.invitationsOf(member.user.orgId, deps.now()),

    /**
     * Invites `{email, role}` (§16):
     * 1. a role other than owner, an email without a user and without a pending invitation of
     *    this team (422 beside the field);
     * 2. the invitation stored for 7 days with the SHA-256 of its link's token;
     * 3. its email sent: `sent` false when the mail service could not take it (the invitation
     *    stands, and can be sent again).
     */
    async invite(member: Member, input: { email: string; role: TeamRole }, dashboardUrl: string): Promise<{ invitation: Invitation; sent: boolean }> {
      const email = input.email.trim();
      const now = deps.now();
      const [user, pending] = await Promise.all([deps.people.personByEmail(email), deps.people.invitationsOf(member.user.orgId, now)]);
      checkInvitation(input.role, !!user, pending.some((invitation) => emailKey(invitation.email) === emailKey(email)));
      const invitation: Invitation = {
        id: newId('invitation'),
        orgId: member.user.orgId,
        email,
        teamRole: input.role as Invitation['teamRole'],
        invitedBy: member.user.userId,
        createdAt: isoMillis(now),
        expiresAt: isoMillis(now.getTime() + INVITATION_SECONDS * 1000),
      };
      const token = newLinkToken(invitation.id);
      await deps.people.createInvitation(invitation, hashToken(token));
      return { invitation, sent: await sendInvitation(invitation, token, member.user, dashboardUrl) };
    },

    /** Sends an invitation of the team again: a new link for 7 more days, the old link ends (404 when there is no such invitation). */
    async resendInvitation(member: Member, invitationId: string, dashboardUrl: string): Promise<{ invitation: Invitation; sent: boolean }> {
      const token = newLinkToken(invitationId);
      const invitation = await deps.people.renewInvitation(invitationId, member.user.orgId, hashToken(token), isoMillis(deps.now().getTime() + INVITATION_SECONDS * 1000));
      if (!invitation) throw new NotFoundError(NO_SUCH_INVITATION);
      return { invitation, sent: await sendInvitation(invitation, token, member.user, dashboardUrl) };
    },

    /** Ends an invitation of the team: its link stops working (404 when there is no such invitation). */
    async revokeInvitation(member: Member, invitationId: string): Promise<void> {
      if (!(await deps.people.revokeInvitation(invitationId, member.user.orgId))) throw new NotFoundError(NO_SUCH_INVITATION);
    },

    /** What an invitation's page shows: the invitation and its organization, while its link works (else the one 404). */
    async invitationByLink(token: string): Promise<{ invitation: Invitation; organization: string }> {
      const found = await invitationOf(token);
      if (!found) throw new NotFoundError(INVITATION_GONE);
      return found;
    },

    /**
     * Accepts an invitation (§16: a name and a password, and two-factor when required):
     * 1. the link must still work (404);
     * 2. a name of 1 to 100 characters and a password by the rules of §16 (422 beside them);
     * 3. one transaction: the invitation taken (single use: a second accept finds it gone, 404),
     *    the person created active with the invited role, their email claimed (taken meanwhile:
     *    422);
     * 4. then as after a password: the session, or the second-factor step.
     */
    async acceptInvitation(token: string, input: { name: string; password: string }, context: SignInContext): Promise<SignInOutcome> {
      const found = await invitationOf(token);
      if (!found) throw new NotFoundError(INVITATION_GONE);
      const { invitation } = found;
      const name = input.name.trim();
      if (name.length === 0 || name.length > LIMITS.personNameLength) throw new BusinessRuleError(`A name has 1 to ${LIMITS.personNameLength} characters`, 'name');
      checkNewPassword(input.password, invitation.email);
      const now = deps.now();
      const person: TeamUser = {
        userId: newId('user'),
        orgId: invitation.orgId,
        role: 'member',
        orgPermission: true,
        email: invitation.email,
        name,
        teamRole: invitation.teamRole,
        status: 'active',
        passwordHash: await deps.passwords.hash(input.password),
        sessionVersion: 0,
        createdAt: isoMillis(now),
        lastSignInAt: isoMillis(now),
      };
      deps.audit.identified(personActor(person), person.orgId);
      const accepted = await deps.people.acceptInvitation(invitation.id, hashToken(token), person, now);
      if (accepted === 'used') throw new NotFoundError(INVITATION_GONE);
      if (accepted === 'email taken') throw new BusinessRuleError(EMAIL_TAKEN);
      return deps.signIns.afterPassword(person, context);
    },

    /**
     * The owner hands ownership to an admin (§16):
     * 1. confirmed with the owner's password, checked under the sign-in lockouts (wrong: 422
     *    beside it; 429);
     * 2. the new owner an active admin of the team (422 beside the choice);
     * 3. one transaction meeting both as they are now: the owner becomes an admin, the admin the
     *    owner (exactly one owner, whatever runs beside it).
     */
    async handOver(member: Member, userId: string, password: string, context: SignInContext): Promise<TeamUser> {
      await deps.signIns.confirmPassword(member, password, context, 'password');
      const admin = checkNewOwner(member.user, await deps.people.person(userId));
      if (!(await deps.people.handOver(member.user, admin))) throw new BusinessRuleError(CHANGED_MEANWHILE);
      return admin;
    },
  };
}

export type TeamManagement = ReturnType<typeof teamManagement>;
