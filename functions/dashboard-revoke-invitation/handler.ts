import { dashboardRevokeInvitation } from '../../shared/api/pages';
import { dashboardFormPorts, teamServices } from '../../shared/services/dashboard';
import { dashboardForm } from '../../shared/dashboard/http';
import { TEAM_NOTICE, teamPagePath } from '../../shared/dashboard/team';

const ports = dashboardFormPorts();
const team = teamServices();

/** POST /dashboard/team/invitations/{id}/revoke: the invitation ended once confirmed (its link stops working); 303 back to the team page. */
export const handler = dashboardForm(ports, dashboardRevokeInvitation, {
  body: () => undefined,
  submit: async ({ member, urls, path }) => {
    await team.revokeInvitation(member, path.id);
    return { location: teamPagePath(urls), notice: { key: TEAM_NOTICE, text: 'The invitation is revoked: its link no longer works.' } };
  },
  home: (path, _fields, urls) => ({ page: teamPagePath(urls), form: `revoke-${decodeURIComponent(path.id)}` }),
  confirm: () => 'Tick the box to confirm revoking the invitation',
});
