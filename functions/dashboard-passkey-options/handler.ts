import { dashboardPasskeyOptions } from '../../shared/api/pages';
import { hashToken } from '../../shared/auth/tokens';
import { dashboardScriptRequest, relyingPartyOf } from '../../shared/dashboard/http';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { passkeyServices } from '../../shared/services/passkeys';

const sessions = dashboardSessionServices();
const passkeys = passkeyServices();

/**
 * POST /dashboard/security/passkeys/options: the options of `navigator.credentials.create()` for
 * the Security page's passkey script (JSON): a challenge bound to this session, for this
 * person, single-use, for 5 minutes; their passkeys excluded.
 */
export const handler = dashboardScriptRequest(sessions, dashboardPasskeyOptions, {
  body: () => undefined,
  run: async ({ member, urls }) => ({
    status: 200,
    body: await passkeys.registrationOptions({ id: member.user.userId, email: member.user.email, name: member.user.name }, relyingPartyOf(urls), hashToken(member.sessionId)),
  }),
});
