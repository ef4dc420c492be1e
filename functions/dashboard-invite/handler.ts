import { dashboardInvite } from '../../shared/api/pages';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { INVITE_FORM, TEAM_NOTICE, invitationNotice, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/** POST /dashboard/team/invitations: invites `{email, role}` (never owner; an email with a user: 422 beside it) and mails the link; 303 back to the team page. */
export const handler = dashboardForm(ports, dashboardInvite, {
  body: (fields) => ({ email: fields.email ?? '', role: fields.role }),
  submit: async ({ member, urls, body }) => {
    const { invitation, sent } = await team.invite(member, body, urls.dashboard);
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: invitationNotice(invitation, sent) } };
  },
  home: (_path, _fields, urls) => ({ page: teamPagePath(urls), form: INVITE_FORM }),
});
