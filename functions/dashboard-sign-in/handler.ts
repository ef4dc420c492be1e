import { dashboardSignIn } from '../../shared/api/pages';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import * as z from '../../shared/zod';
import {
  isSessionProblem,
  requireFormToken,
  requireSameOrigin,
  returnTarget,
  signedInAnswer,
  signInAnswer,
  signInContextOf,
  signInSecretOf,
} from '../../shared/dashboard/http';
import { TooManyRequestsError } from '../../shared/errors';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { formFields, pageHandler } from '../../shared/http/page';
import { parseWith } from '../../shared/http/validation';
import { LIMITS } from '../../shared/limits';

const sessions = dashboardSessionServices();

/** The fields as posted (an empty one is a wrong email or password, like any other). */
const signInForm = /* @__PURE__ */ (() =>
  z.object({
    email: z._default(z.string().check(z.maxLength(LIMITS.customer.emailLength)), ''),
    password: z._default(z.string().check(z.maxLength(LIMITS.password.maxLength * 4)), ''),
    return_to: z.optional(z.string().check(z.maxLength(512))),
  }))();

/**
 * POST /dashboard/session: sign in with email and password (product-decisions §16).
 * 1. Forms from another origin, or without the token of this browser's sign-in form cookie,
 *    are refused (403) with a fresh form.
 * 2. The sign-in use case: a lockout → the form again, 429 with Retry-After; a wrong email or
 *    password → 401 "Email or password is incorrect."; a person who may not use the dashboard
 *    → their status and reason. The email comes back in its field, the password never. A
 *    refusal of a person's email is recorded in their organization's audit trail.
 * 3. A second factor owed: 303 to its page with the pending sign-in's cookie (its random id only).
 * 4. Otherwise a session cookie (its random id only) and 303 to the dashboard (or `return_to`).
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  const form = parseWith(signInForm, fields, 'body');
  try {
    requireFormToken(fields, signInSecretOf(event));
    // Recorded as its person's sign-in when the session is issued, or as a refused one (the email tried, never the password).
    const outcome = await audited(dashboardSignIn.audit, auditCallerOf(event), () => sessions.withPassword(form.email, form.password, signInContextOf(event)));
    return signedInAnswer(outcome, urls, returnTarget(form.return_to, urls));
  } catch (error) {
    if (!(error instanceof TooManyRequestsError) && !isSessionProblem(error)) throw error;
    const { status, envelope, headers } = toErrorResponse(error, urls.docs);
    return signInAnswer(urls, { status, error: envelope.detail, returnTo: form.return_to, email: form.email, headers });
  }
});
