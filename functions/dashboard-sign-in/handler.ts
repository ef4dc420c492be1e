import { dashboardSessionServices } from '../../shared/services/dashboard';
import * as z from '../../shared/zod';
import { isKeyProblem, requireFormToken, requireSameOrigin, returnTarget, sessionCookie, signInAnswer, signInSecretOf } from '../../shared/dashboard/http';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { formFields, pageHandler } from '../../shared/http/page';
import { parseWith } from '../../shared/http/validation';

const sessions = dashboardSessionServices();

const signInForm = z.object({ token: z._default(z.string().check(z.maxLength(512)), ''), return_to: z.optional(z.string().check(z.maxLength(512))) });

/**
 * POST /dashboard/session: sign in with an API key (form field `token`).
 * 1. Forms from another origin, or without the token of this browser's sign-in form cookie,
 *    are refused (403) with a fresh form.
 * 2. A key the Authenticator refuses, or without a dashboard read scope: the form again with
 *    the reason and its status (401, 403 or 422).
 * 3. Otherwise a session cookie (its random id only) and 303 to the dashboard (or `return_to`).
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  const form = parseWith(signInForm, fields, 'body');
  try {
    requireFormToken(fields, signInSecretOf(event));
    const { sessionId } = await sessions.signIn(form.token.trim());
    return { status: 303, headers: { location: returnTarget(form.return_to, urls) }, cookies: [sessionCookie(sessionId, urls)], html: '' };
  } catch (error) {
    if (!isKeyProblem(error)) throw error;
    const { status, envelope } = toErrorResponse(error, urls.docs);
    return signInAnswer(urls, { status, error: envelope.detail, returnTo: form.return_to });
  }
});
