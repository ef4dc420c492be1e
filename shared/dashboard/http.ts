import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import { SESSION_TTL_SECONDS } from '../domain/dashboard';
import { NotAuthenticatedError, PermissionDeniedError, BusinessRuleError } from '../errors';
import type { ApiEvent, ApiResponse } from '../http/api';
import { cookiesOf } from '../http/cookies';
import { toErrorResponse } from '../http/error-envelope';
import { pageHandler } from '../http/page';
import type { DashboardUseCases } from '../use-cases/dashboard';
import { signInPage } from './pages';

/** The cookie holding the session's random id (never the API key). */
export const SESSION_COOKIE = 'dashboard_session';

/** Dashboard pages carry account data: never cached, never framed, forms post only to this origin. */
export const DASHBOARD_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
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

/** The sign-in form answered with the key problem's status and detail (and the cookie cleared). */
export function signInAnswer(urls: PublicUrls, options: { status: number; error?: string; returnTo?: string; clearCookie?: boolean }): ApiResponse {
  return {
    status: options.status,
    headers: DASHBOARD_HEADERS,
    html: signInPage(urls, { error: options.error, returnTo: options.returnTo }),
    ...(options.clearCookie ? { cookies: [clearedSessionCookie(urls)] } : {}),
  };
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
  dashboard: DashboardUseCases,
  run: (request: { principal: Principal; urls: PublicUrls; event: ApiEvent }) => Promise<ApiResponse>,
  options: { signedOutStatus?: number } = {},
) {
  return pageHandler(async (event, urls) => {
    const sessionId = sessionIdOf(event);
    const returnTo = event.rawPath;
    if (!sessionId) return signInAnswer(urls, { status: options.signedOutStatus ?? 401, returnTo });
    let principal: Principal;
    try {
      principal = await dashboard.resume(sessionId);
    } catch (error) {
      if (!isKeyProblem(error)) throw error;
      const { status, envelope } = toErrorResponse(error, urls.docs);
      return signInAnswer(urls, { status, error: envelope.detail, returnTo, clearCookie: true });
    }
    const response = await run({ principal, urls, event });
    return { ...response, headers: { ...DASHBOARD_HEADERS, ...response.headers } };
  });
}
