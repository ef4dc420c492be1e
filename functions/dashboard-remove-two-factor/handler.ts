import { dashboardRemoveTwoFactor } from '../../shared/api/pages';
import { dashboardForm, signInContextOf } from '../../shared/dashboard/http';
import { SECURITY_FORMS, SECURITY_NOTICES, securityPagePath } from '../../shared/dashboard/security';
import { BusinessRuleError } from '../../shared/errors';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { organizationSecurityPorts } from '../../shared/services/security';
import { twoFactorServices } from '../../shared/services/two-factor';
import { requiresSecondFactor } from '../../shared/use-cases/security-settings';

const ports = dashboardFormPorts();
const twoFactor = twoFactorServices();
const { organization } = organizationSecurityPorts();

/**
 * POST /dashboard/security/two-factor/remove: turns two-factor off (§16), its recovery codes
 * gone with it:
 * 1. the password, checked under the sign-in lockouts (422 beside it; 429);
 * 2. not the person's last second factor while their organization requires one (422);
 * 3. removed (422 when it was off already); 303 to the Security page, which says so once.
 */
export const handler = dashboardForm(ports, dashboardRemoveTwoFactor, {
  body: (fields) => ({ password: fields.password ?? '' }),
  submit: async ({ member, urls, event, body }) => {
    await ports.sessions.confirmPassword(member, body.password, signInContextOf(event), 'password');
    const keepASecondFactor = await requiresSecondFactor(organization, member.user, 'totp');
    if (!(await twoFactor.disableTwoFactor(member.user.userId, keepASecondFactor))) throw new BusinessRuleError('Two-factor authentication is off');
    return { location: `${securityPagePath(urls)}#two-factor`, notice: { key: SECURITY_NOTICES.twoFactor, text: 'Two-factor authentication is off; its recovery codes no longer work.' } };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.removeTwoFactor }),
});
