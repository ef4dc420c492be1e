import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type * as z from '../zod';
import type { FormRoute } from '../api/operation';
import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import { requireScope, SESSION_TTL_SECONDS } from '../domain/dashboard';
import { NotAuthenticatedError, PermissionDeniedError, BusinessRuleError, InvalidRequestError } from '../errors';
import type { ApiEvent, ApiResponse } from '../http/response';
import { cookiesOf } from '../http/cookies';
import { toErrorResponse } from '../http/error-envelope';
import { formFields, pageHandler } from '../http/page';
import { parseWith } from '../http/validation';
import type { DashboardSessions } from '../use-cases/dashboard';
import { signInPage } from './pages';
import type { FormProblem } from './forms';
import { FORM_TOKEN_FIELD, type Frame } from './html';

/** The cookie holding the session's random id (never the API key). */
export const SESSION_COOKIE = 'dashboard_session';
/** Before a session exists, the sign-in form's token is derived from this cookie's random value. */
export const SIGN_IN_COOKIE = 'dashboard_sign_in';
const SIGN_IN_TTL_SECONDS = 60 * 60;

/**
 * Dashboard pages carry account data: never cached, never framed, forms post only to this
 * origin, no script at all. The chart is inline SVG markup, which needs no source; `img-src
 * data:` is for the inline favicon.
 */
export const DASHBOARD_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

function cookieAttributes(urls: PublicUrls): string {
  const url = new URL(urls.dashboard);
  return `Path=${url.pathname}; HttpOnly; SameSite=Strict${url.protocol === 'https:' ? '; Secure' : ''}`;
}

export const sessionCookie = (sessionId: string, urls: PublicUrls) =>
  `${SESSION_COOKIE}=${sessionId}; ${cookieAttributes(urls)}; Max-Age=${SESSION_TTL_SECONDS}`;

export const clearedSessionCookie = (urls: PublicUrls) => `${SESSION_COOKIE}=; ${cookieAttributes(urls)}; Max-Age=0`;

export const sessionIdOf = (event: ApiEvent): string | undefined => cookiesOf(event)[SESSION_COOKIE];

/**
 * The synchronizer token of the forms of one session (or one sign-in form): an HMAC keyed by
 * the cookie's random value, which only this browser holds (HttpOnly, SameSite=Strict). Another
 * site can neither read it from a page nor compute it, so its forms cannot carry it.
 */
export const formToken = (secret: string) => createHmac('sha256', secret).update('dashboard form').digest('base64url');

const FORM_REFUSED = 'This form was not sent from a page of your dashboard session; reload the page and submit it again';

/** The form must carry the token of `secret` (the session or sign-in cookie): else 403, before anything is read or written. */
export function requireFormToken(fields: Record<string, string>, secret: string | undefined): void {
  const given = Buffer.from(fields[FORM_TOKEN_FIELD] ?? '');
  const expected = Buffer.from(secret ? formToken(secret) : '');
  if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new PermissionDeniedError(FORM_REFUSED);
}

/** A fresh sign-in form's cookie and the token its form carries. */
function newSignIn(urls: PublicUrls): { cookie: string; token: string } {
  const secret = randomBytes(32).toString('base64url');
  return { cookie: `${SIGN_IN_COOKIE}=${secret}; ${cookieAttributes(urls)}; Max-Age=${SIGN_IN_TTL_SECONDS}`, token: formToken(secret) };
}

/** The sign-in form's own cookie, whose token the posted form must carry. */
export const signInSecretOf = (event: ApiEvent): string | undefined => cookiesOf(event)[SIGN_IN_COOKIE];

/** The API key was refused (401, 403, 422): the person can fix it by signing in with another key. */
export const isKeyProblem = (error: unknown) =>
  error instanceof NotAuthenticatedError || error instanceof PermissionDeniedError || error instanceof BusinessRuleError;

/**
 * Where to go after signing in: a page of this dashboard (path only, checked), else its home.
 * Anything else is ignored, so the form can never redirect off the dashboard.
 */
export function returnTarget(returnTo: string | undefined, urls: PublicUrls): string {
  const home = new URL(urls.dashboard);
  if (returnTo && /^\/[A-Za-z0-9_\-/]*$/.test(returnTo) && (returnTo === home.pathname || returnTo.startsWith(`${home.pathname}/`))) {
    return new URL(returnTo, home).toString();
  }
  return urls.dashboard;
}

/** Cross-site form posts are refused (the SameSite cookie already blocks them; this covers sign-in). */
export function requireSameOrigin(event: ApiEvent, urls: PublicUrls): void {
  const origin = event.headers?.origin;
  if (origin !== undefined && origin !== new URL(urls.dashboard).origin) {
    throw new PermissionDeniedError('Forms of this dashboard are accepted from the dashboard only');
  }
}

/** The sign-in form (with a fresh token) answered with the key problem's status and detail (and the session cookie cleared). */
export function signInAnswer(urls: PublicUrls, options: { status: number; error?: string; returnTo?: string; clearCookie?: boolean }): ApiResponse {
  const signIn = newSignIn(urls);
  return {
    status: options.status,
    headers: DASHBOARD_HEADERS,
    html: signInPage(urls, { error: options.error, returnTo: options.returnTo, formToken: signIn.token }),
    cookies: [...(options.clearCookie ? [clearedSessionCookie(urls)] : []), signIn.cookie],
  };
}

/** What a dashboard page's code gets: the caller, the request, and the token its forms carry. */
export interface DashboardRequest extends Frame {
  event: ApiEvent;
}

/**
 * A page that needs a signed-in session. The session and its key are checked on every request:
 * 1. no session cookie: the sign-in form (`signedOutStatus`, 401 unless the page is the home);
 * 2. a session that ended, or whose key the Authenticator now refuses: the sign-in form with
 *    the reason and that status (401, 403 or 422), and the cookie cleared;
 * 3. otherwise the page, with headers that keep it out of caches and frames.
 * Other failures (503, 500) are the house error pages of `pageHandler`.
 */
export function dashboardPage(
  sessions: DashboardSessions,
  run: (request: DashboardRequest) => Promise<ApiResponse>,
  options: { signedOutStatus?: number } = {},
) {
  return pageHandler(async (event, urls) => {
    const sessionId = sessionIdOf(event);
    const returnTo = event.rawPath;
    if (!sessionId) return signInAnswer(urls, { status: options.signedOutStatus ?? 401, returnTo });
    let principal: Principal;
    try {
      principal = await sessions.resume(sessionId);
    } catch (error) {
      if (!isKeyProblem(error)) throw error;
      const { status, envelope } = toErrorResponse(error, urls.docs);
      return signInAnswer(urls, { status, error: envelope.detail, returnTo, clearCookie: true });
    }
    const response = await run({ principal, urls, event, formToken: formToken(sessionId) });
    return { ...response, headers: { ...DASHBOARD_HEADERS, ...response.headers } };
  });
}

export interface FormRequest<P, B> extends DashboardRequest {
  path: P;
  /** The form as posted (for showing it again). */
  fields: Record<string, string>;
  body: B;
}

/**
 * A dashboard form that performs a `/v1` operation, with the same checks as the API:
 * 1. a signed-in session (else the sign-in form, 401), posted from the dashboard's origin and
 *    carrying the session's form token (else 403): nothing is read or written before;
 * 2. the key holds the operation's scope (403);
 * 3. the path and the form, read as the operation's body, pass its schemas, and its use case
 *    (`submit`) runs: 303 to the page it names;
 * 4. a 400 or 422 (schema or business rule) shows the form again (`invalid`) with that status
 *    and the detail next to the field it names (`attribute`).
 */
export function dashboardForm<P extends z.ZodMiniObject, B extends z.ZodMiniType>(
  sessions: DashboardSessions,
  route: FormRoute<P, B>,
  form: {
    body: (fields: Record<string, string>) => unknown;
    submit: (request: FormRequest<z.infer<P>, z.infer<B>>) => Promise<string>;
    invalid: (request: FormRequest<z.infer<P>, undefined>, problem: FormProblem) => Promise<string>;
  },
) {
  return dashboardPage(sessions, async (request) => {
    const { event, urls, principal } = request;
    requireSameOrigin(event, urls);
    const fields = formFields(event);
    requireFormToken(fields, sessionIdOf(event));
    requireScope(principal, route.scope);
    const path = parseWith(route.acts.params, event.pathParameters ?? {}, 'path');
    try {
      // An operation without a body (a cancel) takes none from the form either.
      const body = (route.acts.body ? parseWith(route.acts.body, form.body(fields), 'body') : undefined) as z.infer<B>;
      return { status: 303, headers: { location: await form.submit({ ...request, path, fields, body }) }, html: '' };
    } catch (error) {
      if (!(error instanceof InvalidRequestError || error instanceof BusinessRuleError)) throw error;
      const { status, envelope } = toErrorResponse(error, urls.docs);
      const problem = { status, detail: envelope.detail, attribute: envelope.attribute };
      return { status, html: await form.invalid({ ...request, path, fields, body: undefined }, problem) };
    }
  });
}
