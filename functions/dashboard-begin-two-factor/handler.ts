import { dashboardBeginTwoFactor } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { SECURITY_FORMS, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { twoFactorServices } from '../../shared/services/two-factor';

const ports = dashboardFormPorts();
const twoFactor = twoFactorServices();

/**
 * POST /dashboard/security/two-factor: starts setting up two-factor (§16): a new secret, sealed
 * for the person, waits 15 minutes for its code; 303 to the Security page, which shows its QR
 * code and its key. Refused (422) while two-factor is on.
 */
export const handler = dashboardForm(ports, dashboardBeginTwoFactor, {
  body: () => undefined,
  submit: async ({ member, urls }) => {
    await twoFactor.beginTotpEnrolment({ id: member.user.userId, email: member.user.email });
    return `${securityPagePath(urls)}#two-factor`;
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.beginTwoFactor }),
});
