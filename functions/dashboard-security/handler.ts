import { dashboardSecurity } from '../../shared/api/pages';
import { hashToken } from '../../shared/auth/tokens';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { PASSWORD_CHANGED, securityPage } from '../../shared/dashboard/security';

const sessions = dashboardSessionServices();

/**
 * GET /dashboard/security: the person's password form (a refused one again), their sessions
 * with this browser's marked, signing out everywhere; once after a change, what it did.
 */
export const handler = dashboardPage(dashboardSecurity, sessions, async (request) => {
  const { member } = request;
  return {
    status: 200,
    html: securityPage(
      request,
      { sessions: await sessions.sessionsOf(member), currentSession: hashToken(member.sessionId) },
      { password: request.formState('password'), everywhere: request.formState('sign-out-everywhere') },
      request.notice(PASSWORD_CHANGED.key),
    ),
  };
});
