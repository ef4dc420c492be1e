import { signedOutFormAnswer } from '../../shared/dashboard/http';
import { forgotPasswordPage, passwordSetPage } from '../../shared/dashboard/email-links';
import { pageHandler } from '../../shared/http/page';

/**
 * GET /dashboard/forgot-password: the email a reset link goes to (the sign-in form's `Forgot
 * password?`); `?sent` after it was asked for (the one answer whoever asked), `?done` after a
 * link set a new password.
 */
export const handler = pageHandler(async (event, urls) => {
  const query = event.queryStringParameters ?? {};
  if (query.done !== undefined) return signedOutFormAnswer(urls, 200, () => passwordSetPage(urls));
  return signedOutFormAnswer(urls, 200, (formToken) => forgotPasswordPage(urls, { formToken, sent: query.sent !== undefined }));
});
