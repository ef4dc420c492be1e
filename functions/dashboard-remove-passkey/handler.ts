import { dashboardRemovePasskey } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { SECURITY_FORMS, SECURITY_NOTICES, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { passkeyServices } from '../../shared/services/passkeys';
import { organizationSecurityPorts } from '../../shared/services/security';
import { requiresSecondFactor } from '../../shared/use-cases/security-settings';

const ports = dashboardFormPorts();
const passkeys = passkeyServices();
const { organization } = organizationSecurityPorts();

/**
 * POST /dashboard/security/passkeys/{id}/remove: removes one of the person's passkeys (another
 * person's or an unknown one: 404), unless it is their last second factor while their
 * organization requires one (422); 303 to the Security page, which says so once.
 */
export const handler = dashboardForm(ports, dashboardRemovePasskey, {
  body: () => undefined,
  submit: async ({ member, urls, path }) => {
    const keepASecondFactor = await requiresSecondFactor(organization, member.user, 'passkey');
    await passkeys.removePasskey(member.user.userId, path.id, keepASecondFactor);
    return { location: `${securityPagePath(urls)}#passkeys`, notice: { key: SECURITY_NOTICES.passkeys, text: 'The passkey is removed: it no longer signs you in.' } };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.removePasskey }),
});
