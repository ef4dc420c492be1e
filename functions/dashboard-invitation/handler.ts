import { teamServices } from '../../shared/services/dashboard';
import { signedOutFormAnswer } from '../../shared/dashboard/http';
import { invitationPage } from '../../shared/dashboard/email-links';
import { pageHandler } from '../../shared/http/page';

const team = teamServices();

/** GET /dashboard/invitations/{token}: an invitation's link: who invites to what, and the form to join, while the link works; else 404. */
export const handler = pageHandler(async (event, urls) => {
  const token = event.pathParameters?.token ?? '';
  const found = await team.invitationByLink(token);
  return signedOutFormAnswer(urls, 200, (formToken) => invitationPage(urls, token, { ...found, formToken }));
});
