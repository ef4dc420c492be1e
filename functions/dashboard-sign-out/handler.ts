import { dashboardServices } from '../../shared/services';
import { clearedSessionCookie, requireSameOrigin, sessionIdOf } from '../../shared/dashboard/http';
import { pageHandler } from '../../shared/http/page';

const dashboard = dashboardServices();

/** POST /dashboard/sign-out: deletes the session item, clears the cookie, back to the sign-in form. */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  await dashboard.signOut(sessionIdOf(event));
  return { status: 303, headers: { location: urls.dashboard }, cookies: [clearedSessionCookie(urls)], html: '' };
});
