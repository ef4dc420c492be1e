import { dashboardResendInvitation } from '../../shared/api/pages';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { TEAM_NOTICE, invitationNotice, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/** POST /dashboard/team/invitations/{id}/resend: the invitation mailed again with a new link for 7 more days (the old link ends); 303 back to the team page. */
export const handler = dashboardForm(ports, dashboardResendInvitation, {
  body: () => undefined,
  submit: async ({ member, urls, path }) => {
    const { invitation, sent } = await team.resendInvitation(member, path.id, urls.dashboard);
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: invitationNotice(invitation, sent) } };
  },
  home: (path, _fields, urls) => ({ page: teamPagePath(urls), form: `resend-${decodeURIComponent(path.id)}` }),
});
