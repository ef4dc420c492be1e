import { dashboardChangeRole } from '../../shared/api/pages';
import { ROLE_NAMES } from '../../shared/domain/team-roles';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/** POST /dashboard/team/members/{id}/role: a member's new role (never owner, never one's own or the owner's); 303 back to the team page. */
export const handler = dashboardForm(ports, dashboardChangeRole, {
  body: (fields) => ({ role: fields.role }),
  submit: async ({ member, urls, path, body }) => {
    const changed = await team.changeRole(member, path.id, body.role);
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: `${changed.name}'s role is now ${ROLE_NAMES[changed.teamRole]}.` } };
  },
  home: (path, _fields, urls) => ({ page: teamPagePath(urls), form: `role-${decodeURIComponent(path.id)}` }),
});
