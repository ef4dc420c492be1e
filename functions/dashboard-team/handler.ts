import { dashboardTeam } from '../../shared/api/pages';
import { dashboardSessionServices, teamServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPage } from '../../shared/dashboard/team';

const sessions = dashboardSessionServices();
const team = teamServices();

/** GET /dashboard/team: the members, and for owners and admins their forms (a refused one again); once after a change, what it did. */
export const handler = dashboardPage(dashboardTeam, sessions, async (request) => ({
  status: 200,
  html: teamPage(request, await team.membersOf(request.member), { state: request.formState }, request.notice(TEAM_NOTICE)),
}));
