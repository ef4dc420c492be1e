import { dashboardSwitchMode } from '../../shared/api/pages';
import { dashboardFormPorts } from '../../shared/services/dashboard';
import { dashboardForm, returnTarget } from '../../shared/dashboard/http';

const ports = dashboardFormPorts();

/**
 * POST /dashboard/mode: the mode the session's pages show from now on (test or live); 303 back
 * to the section the switch was on (`return_to`, a dashboard path; else the overview).
 */
export const handler = dashboardForm(ports, dashboardSwitchMode, {
  body: (fields) => ({ mode: fields.mode, return_to: fields.return_to }),
  submit: async ({ member, urls, body }) => {
    await ports.sessions.switchMode(member, body.mode);
    return returnTarget(body.return_to, urls);
  },
  home: (_path, fields, urls) => ({ page: returnTarget(fields.return_to, urls), form: 'mode' }),
});
