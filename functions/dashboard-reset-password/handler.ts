import { dashboardResetPassword } from '../../shared/api/pages';
import { passwordResetServices } from '../../shared/services/dashboard';
import { problemOf, requireFormToken, requireSameOrigin, signedOutFormAnswer, signInSecretOf } from '../../shared/dashboard/http';
import { forgotPasswordPath, passwordResetPage } from '../../shared/dashboard/email-links';
import { BusinessRuleError } from '../../shared/errors';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { formFields, pageHandler } from '../../shared/http/page';

const resets = passwordResetServices();

/**
 * POST /dashboard/password-reset/{token}: a new password through a reset's link (§16).
 * 1. From the dashboard's origin with the token of this browser's form cookie (else 403).
 * 2. A link that no longer works: 404. A password against the rules: the form again, 422 beside it.
 * 3. Set, every session of the person ended, the link used up: 303 away from it, to the page
 *    that says so and leads to the sign-in form (a reset signs nobody in: two-factor is still asked).
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  requireFormToken(fields, signInSecretOf(event));
  const token = event.pathParameters?.token ?? '';
  try {
    await audited(dashboardResetPassword.audit, auditCallerOf(event), () => resets.reset(token, fields.password ?? ''));
    return { status: 303, headers: { location: `${forgotPasswordPath(urls)}?done` }, html: '' };
  } catch (error) {
    if (!(error instanceof BusinessRuleError)) throw error;
    const problem = problemOf(error, urls);
    const email = await resets.emailOfLink(token);
    return signedOutFormAnswer(urls, problem.status, (formToken) => passwordResetPage(urls, token, { email, formToken, problem }));
  }
});
