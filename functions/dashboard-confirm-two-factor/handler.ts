import { dashboardConfirmTwoFactor } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { twoFactorTurnedOn } from '../../shared/dashboard/second-factor';
import { SECURITY_FORMS, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { twoFactorServices } from '../../shared/services/two-factor';

const ports = dashboardFormPorts();
const twoFactor = twoFactorServices();

/**
 * POST /dashboard/security/two-factor/confirm: the code of the app that scanned the QR code turns
 * two-factor on; 303 to the Security page, which shows the 10 recovery codes once. A wrong code
 * or an expired enrolment comes back beside `code` (422; the code itself never comes back).
 */
export const handler = dashboardForm(ports, dashboardConfirmTwoFactor, {
  body: (fields) => ({ code: fields.code ?? '' }),
  submit: async ({ member, urls, body }) => {
    const { recoveryCodes } = await twoFactor.confirmTotpEnrolment(member.user.userId, body.code.trim());
    return { location: `${securityPagePath(urls)}#two-factor`, notice: twoFactorTurnedOn(recoveryCodes) };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.confirmTwoFactor }),
});
