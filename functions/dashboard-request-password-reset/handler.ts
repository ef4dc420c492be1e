import { passwordResetServices } from '../../shared/services/dashboard';
import * as z from '../../shared/zod';
import { problemOf, requireFormToken, requireSameOrigin, signedOutFormAnswer, signInContextOf, signInSecretOf } from '../../shared/dashboard/http';
import { forgotPasswordPage, forgotPasswordPath } from '../../shared/dashboard/email-links';
import { BusinessRuleError, TooManyRequestsError } from '../../shared/errors';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { formFields, pageHandler } from '../../shared/http/page';
import { parseWith } from '../../shared/http/validation';
import { LIMITS } from '../../shared/limits';

const resets = passwordResetServices();

const resetForm = /* @__PURE__ */ (() => z.object({ email: z._default(z.string().check(z.maxLength(LIMITS.customer.emailLength)), '') }))();

/**
 * POST /dashboard/forgot-password: a reset link asked for (product-decisions §16).
 * 1. From the dashboard's origin with the token of this browser's form cookie (else 403).
 * 2. No email: the form again, 422 beside the field. Too many requests from the address: the
 *    form again, 429 with Retry-After.
 * 3. Otherwise one answer whoever asked (a person's email or not): 303 to the page that says a
 *    link is on its way if the address belongs to a person.
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  requireFormToken(fields, signInSecretOf(event));
  const { email } = parseWith(resetForm, fields, 'body');
  try {
    if (email.trim() === '') throw new BusinessRuleError('Enter the email address you sign in with', 'email');
    await resets.request(email.trim(), signInContextOf(event), urls.dashboard);
    return { status: 303, headers: { location: `${forgotPasswordPath(urls)}?sent` }, html: '' };
  } catch (error) {
    if (!(error instanceof BusinessRuleError) && !(error instanceof TooManyRequestsError)) throw error;
    const problem = problemOf(error, urls);
    return signedOutFormAnswer(urls, problem.status, (formToken) => forgotPasswordPage(urls, { formToken, email, problem }), { headers: toErrorResponse(error, urls.docs).headers });
  }
});
