import { dashboardRequireTwoFactor } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { SECURITY_FORMS, SECURITY_NOTICES, securityPagePath } from '../../shared/dashboard/security';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { organizationSecurityPorts } from '../../shared/services/security';
import { setRequireTwoFactor } from '../../shared/use-cases/security-settings';

const ports = dashboardFormPorts();
const { settings } = organizationSecurityPorts();

/**
 * POST /dashboard/security/require-two-factor: the owner (`security:manage` in the roles table;
 * anyone else 403) requires two-factor of everyone in the organization, or stops requiring it
 * (§16). Requiring it needs a second factor of the owner's own first (422). From then on a
 * person without one sets up two-factor right after their password, at their next sign-in.
 */
export const handler = dashboardForm(ports, dashboardRequireTwoFactor, {
  body: (fields) => ({ require: fields.require ?? '' }),
  submit: async ({ member, urls, body }) => {
    await setRequireTwoFactor(settings, member.user, body.require === 'on');
    const text =
      body.require === 'on'
        ? 'Two-factor authentication is required: everyone without a second factor sets it up at their next sign-in.'
        : 'Two-factor authentication is no longer required.';
    return { location: `${securityPagePath(urls)}#organization`, notice: { key: SECURITY_NOTICES.organization, text } };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: SECURITY_FORMS.requireTwoFactor }),
});
