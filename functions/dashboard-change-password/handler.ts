import { dashboardChangePassword } from '../../shared/api/pages';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { dashboardForm, signInContextOf } from '../../shared/dashboard/http';
import { PASSWORD_CHANGED, securityPagePath } from '../../shared/dashboard/security';

const ports = dashboardFormPorts();

/**
 * POST /dashboard/security/password: the person's new password, given with their current one
 * (checked under the sign-in lockouts). Every other session ends; 303 back to the security page,
 * which says so once, or shows the refusal beside its field (never the passwords).
 */
export const handler = dashboardForm(ports, dashboardChangePassword, {
  body: (fields) => ({ current_password: fields.current_password ?? '', new_password: fields.new_password ?? '' }),
  submit: async ({ member, urls, event, body }) => {
    await ports.sessions.changePassword(member, body.current_password, body.new_password, signInContextOf(event));
    return { location: securityPagePath(urls), notice: PASSWORD_CHANGED };
  },
  home: (_path, _fields, urls) => ({ page: securityPagePath(urls), form: 'password' }),
});
