import { passwordResetServices } from '../../shared/services/dashboard';
import { signedOutFormAnswer } from '../../shared/dashboard/http';
import { passwordResetPage } from '../../shared/dashboard/email-links';
import { pageHandler } from '../../shared/http/page';

const resets = passwordResetServices();

/** GET /dashboard/password-reset/{token}: a reset's link: the new password's form while the link works, else 404. */
export const handler = pageHandler(async (event, urls) => {
  const token = event.pathParameters?.token ?? '';
  const email = await resets.emailOfLink(token);
  return signedOutFormAnswer(urls, 200, (formToken) => passwordResetPage(urls, token, { email, formToken }));
});
