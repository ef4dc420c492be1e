import { dashboardRegenerateRecoveryCodes } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { recoveryCodesMade } from '../../shared/dashboard/second-factor';
import { SECURITY_FORMS, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { twoFactorServices } from '../../shared/services/two-factor';

const ports = dashboardFormPorts();
const twoFactor = twoFactorServices();

/**
 * POST /dashboard/security/recovery-codes: 10 new recovery codes replace every old one (while
 * two-factor is on, else 422); 303 to the Security page, which shows them once.
 */
export const handler = dashboardForm(ports, dashboardRegenerateRecoveryCodes, {
  body: () => undefined,
  submit: async ({ member, urls }) => {
    const { recoveryCodes } = await twoFactor.regenerateRecoveryCodes(member.user.userId);
    return { location: `${securityPagePath(urls)}#two-factor`, notice: recoveryCodesMade(recoveryCodes) };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.recoveryCodes }),
});
