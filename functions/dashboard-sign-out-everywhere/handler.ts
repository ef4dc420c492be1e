import { dashboardSignOutEverywhere } from '../../shared/api/pages';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { securityPagePath } from '../../shared/dashboard/security';

const ports = dashboardFormPorts();

/**
 * POST /dashboard/security/sign-out-everywhere: ends every session of the person, this one
 * included; 303 to the dashboard, which asks to sign in again.
 */
export const handler = dashboardForm(ports, dashboardSignOutEverywhere, {
  body: () => undefined,
  submit: async ({ member, urls }) => {
    await ports.sessions.signOutEverywhere(member);
    return urls.dashboard;
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: 'sign-out-everywhere' }),
});
