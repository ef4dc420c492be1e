import { dashboardSignOut } from '../../shared/api/pages';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { clearedSessionCookie, requireFormToken, requireSameOrigin, sessionIdOf } from '../../shared/dashboard/http';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { formFields, pageHandler } from '../../shared/http/page';

const sessions = dashboardSessionServices();

/**
 * POST /dashboard/sign-out: deletes the session item (the sign-out recorded as its person's),
 * clears the cookie, back to the sign-in form. Like every dashboard form it must carry the
 * session's form token (403 otherwise).
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const sessionId = sessionIdOf(event);
  requireFormToken(formFields(event), sessionId);
  await audited(dashboardSignOut.audit, auditCallerOf(event), () => sessions.signOut(sessionId));
  return { status: 303, headers: { location: urls.dashboard }, cookies: [clearedSessionCookie(urls)], html: '' };
});
