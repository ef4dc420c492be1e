import { dashboardHandOverOwnership } from '../../shared/api/pages';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm, signInContextOf } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/**
 * POST /dashboard/team/ownership: the owner hands ownership to an admin, confirmed with their
 * password and a tick; the owner becomes an admin. 303 back to the team page.
 */
export const handler = dashboardForm(ports, dashboardHandOverOwnership, {
  body: (fields) => ({ user_id: fields.user_id ?? '', password: fields.password ?? '' }),
  submit: async ({ member, urls, event, body }) => {
    const owner = await team.handOver(member, body.user_id, body.password, signInContextOf(event));
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: `${owner.name} is now the owner; you are an admin.` } };
  },
  home: (_path, _fields, urls) => ({ page: teamPagePath(urls), form: 'ownership' }),
  confirm: () => 'Tick the box to confirm the handover',
});
