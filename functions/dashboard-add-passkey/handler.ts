import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { dashboardAddPasskey } from '../../shared/api/pages';
import { hashToken } from '../../shared/auth/tokens';
import { dashboardForm, postedCredential, relyingPartyOf } from '../../shared/dashboard/http';
import { SECURITY_FORMS, SECURITY_NOTICES, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { passkeyServices } from '../../shared/services/passkeys';

const ports = dashboardFormPorts();
const passkeys = passkeyServices();

/**
 * POST /dashboard/security/passkeys: the passkey the browser created, posted by the passkey
 * script with its name (§16): verified against the challenge issued to this session (taken
 * once), the relying party, the origin and user verification, then kept; 303 to the Security
 * page, which says so once. A refusal comes back beside its field (`name`, `credential`).
 */
export const handler = dashboardForm(ports, dashboardAddPasskey, {
  body: (fields) => ({ name: fields.name ?? '', credential: fields.credential ?? '' }),
  submit: async ({ member, urls, body }) => {
    const user = { id: member.user.userId, email: member.user.email, name: member.user.name };
    const passkey = await passkeys.registerPasskey(user, body.name, postedCredential<RegistrationResponseJSON>(body.credential), relyingPartyOf(urls), hashToken(member.sessionId));
    return { location: `${securityPagePath(urls)}#passkeys`, notice: { key: SECURITY_NOTICES.passkeys, text: `The passkey “${passkey.name}” is added: it signs you in without your password.` } };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.addPasskey }),
});
