import type { TeamDirectory } from '../db/team-directory';
import { checkMemberChange, checkNewOwner, requireMember, type SessionStore, type TeamUser } from '../domain/team';
import type { TeamRole } from '../domain/team-roles';
import { BusinessRuleError } from '../errors';
import type { Member, SignInContext, SignIns } from './sign-in';

/**
 * The team page's changes (product-decisions §16): owners and admins change roles and remove
 * members, the owner hands ownership to an admin. Each change is one conditional write that
 * meets the members as they are now, so concurrent changes never leave two owners or none.
 */

export interface TeamDeps {
  people: Pick<TeamDirectory, 'person' | 'peopleOf' | 'changeRole' | 'remove' | 'handOver' | 'copyStandingToKeys'>;
  sessions: Pick<SessionStore, 'listOfUser' | 'removeListed'>;
  confirmPassword: SignIns['confirmPassword'];
}

const CHANGED_MEANWHILE = 'This member changed meanwhile: reload the team page and try again';

export function teamManagement(deps: TeamDeps) {
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

    /**
     * The owner hands ownership to an admin (§16):
     * 1. confirmed with the owner's password, checked under the sign-in lockouts (wrong: 422
     *    beside it; 429);
     * 2. the new owner an active admin of the team (422 beside the choice);
     * 3. one transaction meeting both as they are now: the owner becomes an admin, the admin the
     *    owner (exactly one owner, whatever runs beside it).
     */
    async handOver(member: Member, userId: string, password: string, context: SignInContext): Promise<TeamUser> {
      await deps.confirmPassword(member, password, context, 'password');
      const admin = checkNewOwner(member.user, await deps.people.person(userId));
      if (!(await deps.people.handOver(member.user, admin))) throw new BusinessRuleError(CHANGED_MEANWHILE);
      return admin;
    },
  };
}

export type TeamManagement = ReturnType<typeof teamManagement>;
