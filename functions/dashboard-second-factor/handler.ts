import { pendingSignInIdOf } from '../../shared/dashboard/http';
import { pendingSignInEnded, secondFactorAnswer } from '../../shared/dashboard/second-factor-answer';
import { pageHandler } from '../../shared/http/page';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { twoFactorServices } from '../../shared/services/two-factor';

const sessions = dashboardSessionServices();
const twoFactor = twoFactorServices();

/**
 * GET /dashboard/sign-in/second-factor: the second step of a sign-in (product-decisions §16),
 * behind the pending sign-in's cookie: the Code form (and the person's passkey), or, when the
 * organization requires two-factor of a person without it, its enrolment (started on the first
 * load, shown again while it waits). Without a pending sign-in that lasts: the sign-in form, 401.
 */
export const handler = pageHandler(async (event, urls) => {
  const pendingId = pendingSignInIdOf(event);
  const pending = await sessions.pendingSignIn(pendingId);
  if (!pending || !pendingId) return pendingSignInEnded(urls);
  return secondFactorAnswer(urls, twoFactor, pending, pendingId);
});
