import type { Principal } from '../auth/principal';
import type { TeamUser } from '../domain/team';
import type { KeyManager } from '../use-cases/api-keys';

/** The person acting on the API keys page, in its mode: the creator of the keys they make. */
export const keyManagerOf = (request: { principal: Principal; member: { user: Pick<TeamUser, 'userId' | 'teamRole'> } }): KeyManager => ({
  userId: request.member.user.userId,
  orgId: request.principal.orgId,
  teamRole: request.member.user.teamRole,
  mode: request.principal.mode,
});
