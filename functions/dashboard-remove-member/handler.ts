import { dashboardRemoveMember } from '../../shared/api/pages';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/**
 * POST /dashboard/team/members/{id}/remove: removes a member once confirmed (never oneself or the
 * owner): their sessions end and their keys stop; 303 back to the team page.
 */
export const handler = dashboardForm(ports, dashboardRemoveMember, {
  body: () => undefined,
  submit: async ({ member, urls, path }) => {
    const removed = await team.remove(member, path.id);
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: `${removed.name} is removed from the team: their sessions have ended and their API keys stop within seconds.` } };
  },
  home: (path, _fields, urls) => ({ page: teamPagePath(urls), form: `remove-${decodeURIComponent(path.id)}` }),
  confirm: () => 'Tick the box to confirm the removal',
});
