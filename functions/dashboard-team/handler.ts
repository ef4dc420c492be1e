import { dashboardTeam } from '../../shared/api/pages';
import { dashboardSessionServices, teamServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPage } from '../../shared/dashboard/team';

const sessions = dashboardSessionServices();
const team = teamServices();

/** GET /dashboard/team: the members and pending invitations, and for owners and admins their forms (a refused one again); once after a change, what it did. */
export const handler = dashboardPage(dashboardTeam, sessions, async (request) => {
  const [members, invitations] = await Promise.all([team.membersOf(request.member), team.invitationsOf(request.member)]);
  return { status: 200, html: teamPage(request, members, invitations, { state: request.formState }, request.notice(TEAM_NOTICE)) };
});
