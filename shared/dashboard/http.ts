import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type * as z from '../zod';
import type { FormRoute, PageRoute } from '../api/operation';
import type { Mode, Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import { memberPrincipal, PENDING_SIGN_IN_SECONDS, SESSION_MAX_SECONDS } from '../domain/team';
import { requirePermission } from '../domain/team-roles';
import { NotAuthenticatedError, PermissionDeniedError, BusinessRuleError, ConflictError, InvalidRequestError, NotFoundError, ServiceError } from '../errors';
import type { IdempotencyStore } from '../db/idempotency-store';
import { auditCallerOf, audited } from '../http/audit';
import { CarriedOutError, runIdempotently } from '../http/idempotency';
import { toResult, type ApiEvent, type ApiResponse, type ApiResult } from '../http/response';
import { cookiesOf } from '../http/cookies';
import { toErrorResponse } from '../http/error-envelope';
import { errorPage, formFields, pageHandler } from '../http/page';
import { parseWith } from '../http/validation';
import type { Member, SignInContext, SignInOutcome, SignIns } from '../use-cases/sign-in';
import { RELYING_PARTY_NAME, type RelyingParty } from '../domain/passkeys';
import { signInPage } from './pages';
import type { FormProblem, FormState } from './forms';
import { CONFIRM_FIELD, FORM_NONCE_FIELD, FORM_TOKEN_FIELD, MODE_FIELD, SECRET_FIELDS, isFormNonce, type Frame, type Notice } from './html';

/** The cookie holding the session's random id (the table holds its hash only). */
export const SESSION_COOKIE = 'dashboard_session';
/** Before a session exists, the sign-in form's token is derived from this cookie's random value. */
export const SIGN_IN_COOKIE = 'dashboard_sign_in';
const SIGN_IN_TTL_SECONDS = 60 * 60;
/** A refused form, on its way back to the page that shows it again (`returnCookie`). */
export const RETURNED_FORM_COOKIE = 'dashboard_form';
const RETURNED_FORM_TTL_SECONDS = 60;
/**
 * Browsers drop a cookie over 4096 bytes without a word: past this many characters a returned
 * form keeps its problem and leaves its values out (the page shows its defaults).
 */
const RETURNED_FORM_MAX_CHARS = 3_500;
/** A value the form itself caps at 500 characters; a longer one comes back cut to this. */
const RETURNED_VALUE_MAX_CHARS = 1_000;
/** The statuses a form comes back to its page with: its shape (400), its nonce's state (409), a business rule (422). */
const RETURNED_STATUSES = [400, 409, 422];
/** What a form's outcome tells its next page once (a new signing secret, a request taken), sealed for the session. */
export const NOTICE_COOKIE = 'dashboard_notice';
/**
 * The id of the notice a page showed last, for that page's path: a repeat of the form (a
 * resubmit, a second tab) gets the first post's answer again, the same sealed notice, whose
 * secret the page then does not show a second time.
 */
export const NOTICE_SHOWN_COOKIE = 'dashboard_notice_shown';
const NOTICE_TTL_SECONDS = 60;

/**
 * Dashboard pages carry account data: never cached, never framed, forms post only to this
 * origin, no script (but `scriptPolicy`'s). The chart is inline SVG markup, which needs no
 * source; `img-src data:` is for the inline favicon.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const DASHBOARD_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/**
 * The policy of a page that runs one inline script (the chargeback page's uploads): that script
 * only, by its hash, and requests to this origin and to `connect` only.
 */
export const scriptPolicy = (script: string, connect: string) => ({
  'content-security-policy': `${CONTENT_SECURITY_POLICY}; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; connect-src 'self' ${connect}`,
});

/** The policy of a page that loads the dashboard's script files, files of this origin (shared/dashboard/scripts.ts): no inline script. */
export const SCRIPT_FILE_PAGE_HEADERS = { ...DASHBOARD_HEADERS, 'content-security-policy': `${CONTENT_SECURITY_POLICY}; script-src 'self'` };

/**
 * The policy of a page with a passkey form: the passkey script (shared/dashboard/passkey-script.ts),
 * and its requests for the ceremony's options to this origin.
 */
export const PASSKEY_PAGE_HEADERS = { ...DASHBOARD_HEADERS, 'content-security-policy': `${SCRIPT_FILE_PAGE_HEADERS['content-security-policy']}; connect-src 'self'` };

/**
 * The WebAuthn relying party of the dashboard (§16): its host as the id (locally whichever
 * loopback name it was reached by) and its origin.
 */
export const relyingPartyOf = (urls: PublicUrls): RelyingParty => {
  const url = new URL(urls.dashboard);
  return { id: url.hostname, name: RELYING_PARTY_NAME, origin: url.origin };
};

/**
 * A passkey form's `credential`: the JSON the passkey script put there, as the WebAuthn
 * libraries read it (400 beside the field when it is not a credential's).
 */
export function postedCredential<T>(text: string | undefined): T {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    value = undefined;
  }
  const { id, response } = (typeof value === 'object' && value !== null ? value : {}) as { id?: unknown; response?: unknown };
  if (typeof id !== 'string' || typeof response !== 'object' || response === null) throw new InvalidRequestError('The passkey did not answer: try again', 'credential');
  return value as T;
}

/** The dashboard's cookies: this browser's only (HttpOnly, SameSite=Strict), for the dashboard's paths or one page of it. */
function cookieAttributes(urls: PublicUrls, path?: string): string {
  const url = new URL(urls.dashboard);
  return `Path=${path ?? url.pathname}; HttpOnly; SameSite=Strict${url.protocol === 'https:' ? '; Secure' : ''}`;
}

/** The session cookie lasts as long as the session may (its absolute end); the table ends it sooner when idle. */
export const sessionCookie = (sessionId: string, urls: PublicUrls) =>
  `${SESSION_COOKIE}=${sessionId}; ${cookieAttributes(urls)}; Max-Age=${SESSION_MAX_SECONDS}`;

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

/** A refusal as a form shows it: its status, and the envelope's detail beside the field it names (`attribute`). */
export function problemOf(error: ServiceError, urls: PublicUrls): FormProblem {
  const { status, envelope } = toErrorResponse(error, urls.docs);
  return { status, detail: envelope.detail, ...(envelope.attribute ? { attribute: envelope.attribute } : {}) };
}

/** A refused form as its page shows it again: which form, the values posted, and the problem. */
export interface ReturnedForm extends Required<FormState> {
  form: string;
  /** The path of the page the cookie is for (its `Path`, public: behind a base path or a stage too). */
  page: string;
}

/** `payload.signature`: keyed by the session, so no other site (nor another session) can plant one. */
const returnedFormSignature = (sessionId: string, payload: string) => createHmac('sha256', sessionId).update(`returned form ${payload}`).digest('base64url');

/**
 * The cookie that carries a refused form back to its page (`returned.page`: the browser sends it
 * there and to the forms' paths below it), for one minute: signed with the session, values cut to
 * RETURNED_VALUE_MAX_CHARS and left out when the payload would pass RETURNED_FORM_MAX_CHARS.
 */
export function returnCookie(sessionId: string, urls: PublicUrls, returned: ReturnedForm): string {
  const values = Object.fromEntries(
    Object.entries(returned.values)
      // A confirmation is given again for the values as they come back: it never comes back ticked.
      .filter(([name]) => name !== FORM_TOKEN_FIELD && name !== FORM_NONCE_FIELD && name !== CONFIRM_FIELD && !SECRET_FIELDS.has(name))
      .map(([name, value]) => [name, value.slice(0, RETURNED_VALUE_MAX_CHARS)]),
  );
  const encode = (form: ReturnedForm) => Buffer.from(JSON.stringify(form)).toString('base64url');
  const withValues = encode({ ...returned, values });
  const payload = withValues.length <= RETURNED_FORM_MAX_CHARS ? withValues : encode({ ...returned, values: {} });
  return `${RETURNED_FORM_COOKIE}=${payload}.${returnedFormSignature(sessionId, payload)}; ${cookieAttributes(urls, returned.page)}; Max-Age=${RETURNED_FORM_TTL_SECONDS}`;
}

const clearedReturnCookie = (urls: PublicUrls, returned: ReturnedForm) => `${RETURNED_FORM_COOKIE}=; ${cookieAttributes(urls, returned.page)}; Max-Age=0`;

/** The notice's cipher key: the session's (only this browser holds the id; the table holds its hash only). */
const noticeKey = (sessionId: string) => createHmac('sha256', sessionId).update('dashboard notice').digest();

/**
 * The cookie that carries a notice to `page` (a path): AES-256-GCM under the session's key, so
 * neither the idempotency record that keeps the form's answer (decisions 31) nor anyone without
 * the session cookie can read the secret, and no other site can plant one. It holds its own
 * expiry: a replay of the form's stored answer after NOTICE_TTL_SECONDS shows nothing.
 */
export function noticeCookie(sessionId: string, urls: PublicUrls, page: string, notice: Notice, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', noticeKey(sessionId), iv);
  const id = randomBytes(16).toString('base64url');
  const sealed = Buffer.concat([cipher.update(JSON.stringify({ ...notice, id, page, until: now + NOTICE_TTL_SECONDS * 1000 }), 'utf8'), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  return `${NOTICE_COOKIE}=${value}; ${cookieAttributes(urls, page)}; Max-Age=${NOTICE_TTL_SECONDS}`;
}

const clearedNoticeCookie = (urls: PublicUrls, page: string) => `${NOTICE_COOKIE}=; ${cookieAttributes(urls, page)}; Max-Age=0`;
/** Marks the notice `id` shown on `page` for as long as a replay could seal it again. */
const shownNoticeCookie = (urls: PublicUrls, page: string, id: string) => `${NOTICE_SHOWN_COOKIE}=${id}; ${cookieAttributes(urls, page)}; Max-Age=${NOTICE_TTL_SECONDS}`;

/**
 * The notice the cookie seals for this session and the page path it was set for, while it
 * lasts; anything else (another session's, altered, expired) is none.
 */
function noticeOf(cookie: string, sessionId: string, now = Date.now()): { notice: Notice; id: string; page: string } | undefined {
  try {
    const bytes = Buffer.from(cookie, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', noticeKey(sessionId), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const opened = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as Partial<Notice & { id: string; page: string; until: number }>;
    const { key, text, secret, id, page, until } = opened;
    const readable =
      typeof key === 'string' &&
      typeof text === 'string' &&
      (secret === undefined || typeof secret === 'string') &&
      typeof id === 'string' &&
      typeof page === 'string' &&
      typeof until === 'number';
    return readable && until > now ? { notice: { key, text, ...(secret !== undefined ? { secret } : {}) }, id, page } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The refused form this request carries back, when its signature is this session's and it reads
 * as one (a form of an older release is ignored; it expires within the minute).
 */
function returnedFormOf(cookie: string, sessionId: string): ReturnedForm | undefined {
  const [payload, signature] = cookie.split('.');
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(returnedFormSignature(sessionId, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const returned = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<ReturnedForm>;
    const { form, page, values, problem } = returned;
    const readable = typeof form === 'string' && typeof page === 'string' && typeof values === 'object' && values !== null;
    return readable && RETURNED_STATUSES.includes(problem?.status ?? 0) && typeof problem?.detail === 'string' ? (returned as ReturnedForm) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A sign-in between its password and its second factor: this cookie holds the pending sign-in's
 * random id (the table its hash) for the few minutes it lasts.
 */
export const PENDING_SIGN_IN_COOKIE = 'dashboard_pending';

export const pendingSignInCookie = (pendingId: string, urls: PublicUrls) =>
  `${PENDING_SIGN_IN_COOKIE}=${pendingId}; ${cookieAttributes(urls)}; Max-Age=${PENDING_SIGN_IN_SECONDS}`;

export const pendingSignInIdOf = (event: ApiEvent): string | undefined => cookiesOf(event)[PENDING_SIGN_IN_COOKIE];

/** The pending sign-in is over (a session was issued, or it ended): its cookie goes. */
export const clearedPendingSignInCookie = (urls: PublicUrls) => `${PENDING_SIGN_IN_COOKIE}=; ${cookieAttributes(urls)}; Max-Age=0`;

/** Where a pending sign-in goes on: the page that asks for the second factor (or its enrolment). */
export const secondFactorPage = (urls: PublicUrls) => `${urls.dashboard}/sign-in/second-factor`;

/**
 * Where a correct first factor leads (a sign-in, an accepted invitation): 303 to the second
 * factor's page with the pending sign-in's cookie, or to `location` with the session's cookie
 * (each holding its random id only).
 */
export function signedInAnswer(outcome: SignInOutcome, urls: PublicUrls, location: string): ApiResponse {
  return outcome.kind === 'second factor'
    ? { status: 303, headers: { location: secondFactorPage(urls) }, cookies: [pendingSignInCookie(outcome.pendingId, urls)], html: '' }
    : { status: 303, headers: { location }, cookies: [sessionCookie(outcome.sessionId, urls)], html: '' };
}

/** Where a sign-in comes from, as its session and the lockouts record it. */
export const signInContextOf = (event: ApiEvent): SignInContext => ({
  ip: event.requestContext.http.sourceIp,
  ...(event.headers?.['user-agent'] ? { userAgent: event.headers['user-agent'] } : {}),
});

/** A fresh sign-in form's cookie and the token its form carries (the passkey forms' too: their challenge is bound to it). */
export function newSignIn(urls: PublicUrls): { cookie: string; token: string } {
  const secret = randomBytes(32).toString('base64url');
  return { cookie: `${SIGN_IN_COOKIE}=${secret}; ${cookieAttributes(urls)}; Max-Age=${SIGN_IN_TTL_SECONDS}`, token: formToken(secret) };
}

/** The sign-in form's own cookie, whose token the posted form must carry. */
export const signInSecretOf = (event: ApiEvent): string | undefined => cookiesOf(event)[SIGN_IN_COOKIE];

/**
 * The session ended, or its person may no longer use the dashboard (401, 403, 422: the key rules
 * read for the person): the sign-in form says why.
 */
export const isSessionProblem = (error: unknown) =>
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

/**
 * The sign-in form (with a fresh token) answered with a status and why (and the session cookie
 * cleared); `email` is put back in its field, `headers` added (a 429's Retry-After).
 */
export function signInAnswer(
  urls: PublicUrls,
  options: { status: number; error?: string; returnTo?: string; clearCookie?: boolean; email?: string; headers?: Record<string, string> },
): ApiResponse {
  return signedOutFormAnswer(urls, options.status, (token) => signInPage(urls, { error: options.error, returnTo: options.returnTo, formToken: token, email: options.email }), {
    headers: options.headers,
    cookies: options.clearCookie ? [clearedSessionCookie(urls)] : [],
  });
}

/**
 * A page whose form is posted without a session (sign-in, an invitation's, a password reset's):
 * a fresh sign-in form cookie, whose token `render` puts into the form; its post must carry it
 * (`requireFormToken` with `signInSecretOf`).
 */
export function signedOutFormAnswer(
  urls: PublicUrls,
  status: number,
  render: (formToken: string) => string,
  options: { headers?: Record<string, string>; cookies?: string[] } = {},
): ApiResponse {
  const signIn = newSignIn(urls);
  return { status, headers: { ...DASHBOARD_HEADERS, ...options.headers }, html: render(signIn.token), cookies: [...(options.cookies ?? []), signIn.cookie] };
}

/** What a dashboard page's code gets: the caller, the request, and the token its forms carry. */
export interface DashboardRequest extends Frame {
  event: ApiEvent;
  /** The signed-in session and its person. */
  member: Member;
  /**
   * The state of `form` on this page: the refused submission coming back to it (which makes the
   * page answer with the refusal's status), else none (the form's defaults).
   */
  formState(form: string): FormState | undefined;
  /** The notice a form's outcome left for the object `key` of this page (shown once: its cookie is cleared). */
  notice(key: string): Notice | undefined;
}

/**
 * A page behind a signed-in session (`route`: its declaration, with the permission it needs).
 * The session and its person are read on every request:
 * 1. no session cookie: the sign-in form (`signedOutStatus`, 401 unless the page is the home);
 * 2. a session that ended (idle, absolute, signed out everywhere) or whose person may no longer
 *    use the dashboard: the sign-in form with the reason and that status (401, 403 or 422), and
 *    the cookie cleared;
 * 3. a role without the route's permission: the 403 page;
 * 4. otherwise the page, in the session's mode, with headers that keep it out of caches and
 *    frames. A refused form coming back (`returnCookie`) is shown once, by the page that holds
 *    it (`formState`), with the status it was refused with (400 or 422, as the API answers);
 *    its cookie is cleared, so a reload shows the page anew.
 * Other failures (503, 500) are the house error pages of `pageHandler`.
 */
export function dashboardPage(
  route: PageRoute,
  sessions: SignIns,
  run: (request: DashboardRequest) => Promise<ApiResponse>,
  options: { signedOutStatus?: number } = {},
) {
  return pageHandler(async (event, urls) => {
    const sessionId = sessionIdOf(event);
    const returnTo = event.rawPath;
    if (!sessionId) return signInAnswer(urls, { status: options.signedOutStatus ?? 401, returnTo });
    let member: Member;
    try {
      member = await sessions.resume(sessionId);
    } catch (error) {
      if (!isSessionProblem(error)) throw error;
      const { status, envelope } = toErrorResponse(error, urls.docs);
      return signInAnswer(urls, { status, error: envelope.detail, returnTo, clearCookie: true });
    }
    requirePermission(member.user.teamRole, route.permission!);
    const principal = memberPrincipal(member.user, member.session.mode);
    const returnedCookie = cookiesOf(event)[RETURNED_FORM_COOKIE];
    const returned = returnedCookie ? returnedFormOf(returnedCookie, sessionId) : undefined;
    let shown: ReturnedForm | undefined;
    const formState = (form: string): FormState | undefined => {
      if (returned?.form !== form) return undefined;
      shown = returned;
      return { values: returned.values, problem: returned.problem };
    };
    const noticeCookieValue = cookiesOf(event)[NOTICE_COOKIE];
    const sealed = noticeCookieValue ? noticeOf(noticeCookieValue, sessionId) : undefined;
    let noticed: typeof sealed;
    const notice = (key: string): Notice | undefined => {
      if (sealed?.notice.key !== key) return undefined;
      noticed = sealed;
      if (sealed.id !== cookiesOf(event)[NOTICE_SHOWN_COOKIE]) return sealed.notice;
      // The form's answer replayed (a resubmit, another tab): its secret was shown the first time.
      const { secret, ...shownBefore } = sealed.notice;
      return secret === undefined ? shownBefore : { ...shownBefore, secretShown: true };
    };
    const response = await run({ principal, person: member.user, member, urls, event, formToken: formToken(sessionId), formState, notice });
    const cleared = [
      ...(returned ? [clearedReturnCookie(urls, returned)] : []),
      ...(noticed ? [clearedNoticeCookie(urls, noticed.page), shownNoticeCookie(urls, noticed.page, noticed.id)] : []),
    ];
    return {
      ...response,
      status: shown && response.status === 200 ? shown.problem.status : response.status,
      headers: { ...DASHBOARD_HEADERS, ...response.headers },
      ...(cleared.length ? { cookies: [...(response.cookies ?? []), ...cleared] } : {}),
    };
  });
}

/** What a form's use case gets: the caller (in the mode of the page that posted it), the path and the body, parsed by the form's schemas. */
export interface FormRequest<P, B> {
  principal: Principal;
  /** The signed-in session and its person. */
  member: Member;
  urls: PublicUrls;
  /** The request (its address and user agent: where the person acts from). */
  event: ApiEvent;
  path: P;
  body: B;
}

/** Where a form lives: the page that shows it (and shows it again when refused), and its id there. */
export interface FormHome {
  page: string;
  form: string;
}

const seeOther = (location: string, cookies?: string[]): ApiResponse => ({
  status: 303,
  headers: { ...DASHBOARD_HEADERS, location },
  html: '',
  ...(cookies ? { cookies } : {}),
});

/** Where a form's outcome leads (its 303), and what that page tells once (`noticeCookie`). */
export interface FormOutcome {
  location: string;
  notice?: Notice;
}

/** What every form's function needs besides its operation: the sessions, and the idempotency records its nonce keys. */
export interface FormPorts {
  sessions: SignIns;
  idempotency: IdempotencyStore;
}

/** The mode of the page a form was on (its MODE_FIELD): forms act in it, whichever mode the session shows now. */
function postedMode(fields: Record<string, string>): Mode {
  const mode = fields[MODE_FIELD];
  if (mode !== 'test' && mode !== 'live') throw new InvalidRequestError('This form came without the mode of its page: reload the page and submit it again');
  return mode;
}

/**
 * Who posts (dashboardForm's steps 2 and 3): the session's form token (else 403, before anything
 * is read or written), its person, and the route's permission (403); undefined without a
 * session, or when it ended or its person may no longer use the dashboard.
 */
async function posterOf(
  sessions: SignIns,
  event: ApiEvent,
  fields: Record<string, string>,
  route: FormRoute,
): Promise<{ sessionId: string; member: Member; principal: Principal } | undefined> {
  const sessionId = sessionIdOf(event);
  if (!sessionId) return undefined;
  requireFormToken(fields, sessionId);
  let member: Member;
  try {
    member = await sessions.resume(sessionId);
  } catch (error) {
    if (!isSessionProblem(error)) throw error;
    return undefined;
  }
  requirePermission(member.user.teamRole, route.permission);
  return { sessionId, member, principal: memberPrincipal(member.user, postedMode(fields)) };
}

const SESSION_ENDED = 'Your dashboard session has ended: reload the page to sign in again';

/**
 * A request a page's script makes (an evidence document's upload), answered in JSON for the
 * script: posted like a form (same origin, the session's form token, its person, the route's
 * permission, the page's mode), the path and the fields read by the operation's schemas, its use
 * case run (`run`); a refusal is the API's error envelope with its status (no session, or one
 * that ended: 401). Nothing it does is for good, so it carries no one-time nonce.
 */
export function dashboardScriptRequest<P extends z.ZodMiniObject, B extends z.ZodMiniType>(
  sessions: SignIns,
  route: FormRoute<P, B>,
  request: {
    body: (fields: Record<string, string>) => unknown;
    run: (request: FormRequest<z.infer<P>, z.infer<B>>) => Promise<{ status: number; body: unknown }>;
  },
) {
  return pageHandler(async (event, urls) => {
    try {
      requireSameOrigin(event, urls);
      const fields = formFields(event);
      const poster = await posterOf(sessions, event, fields, route);
      if (!poster) throw new NotAuthenticatedError(SESSION_ENDED);
      const path = parseWith(route.params, event.pathParameters ?? {}, 'path');
      const body = (route.body ? parseWith(route.body, request.body(fields), 'body') : undefined) as z.infer<B>;
      const answer = await audited(route.audit, auditCallerOf(event, poster.principal), () =>
        request.run({ principal: poster.principal, member: poster.member, urls, event, path, body }),
      );
      return { ...answer, headers: DASHBOARD_HEADERS };
    } catch (error) {
      // Anything else is the house's 500 page, logged.
      if (!(error instanceof ServiceError)) throw error;
      const { status, envelope, headers } = toErrorResponse(error, urls.docs);
      return { status, body: envelope, headers: { ...DASHBOARD_HEADERS, ...headers } };
    }
  });
}

/** What a person reads when a form's one-time nonce, not its values, stops it. */
const NONCE_PROBLEMS = {
  missing: 'This form came without its one-time nonce, from an out-of-date page: check the values and submit it again',
  running: 'This form is still being carried out: reload the page in a moment to see its result',
  carriedOut: 'This form was carried out but failed before it could answer; it will not run again: this page shows its result',
  otherValues: 'This form was already submitted with other values; this page shows what came of them. Check these values and submit the form again to send them',
};

/** The time a form's function keeps to answer after waiting for the first post of its nonce. */
const ANSWER_MARGIN_MS = 1_000;

/** The answer as the page handler sends it (a replayed one comes back from the idempotency record as a result). */
const asResponse = (result: ApiResult): ApiResponse => ({
  status: result.statusCode ?? 200,
  headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)])),
  html: result.body ?? '',
  ...(result.cookies ? { cookies: result.cookies } : {}),
});

/**
 * A dashboard form (a `/v1` operation's, or one of the dashboard's own) with the same checks as
 * the API, at most once per one-time nonce, and answers with a redirect only (post/redirect/get:
 * a reload never posts again, and a form's function renders no page):
 * 1. posted from the dashboard's origin (else 403); without a session cookie, 303 to the form's
 *    page, which asks to sign in;
 * 2. the session's form token (else 403), before anything is read or written;
 * 3. the session and its person (one that ended: 303 to the form's page, which says why and asks
 *    to sign in again), then the route's permission in the person's role (403) and the mode of
 *    the page it was on (400 without);
 * 4. a form that acts for good must come with its confirmation ticked (`confirm`), else it
 *    comes back (422, as in 7) having claimed and run nothing;
 * 5. the form's one-time nonce is its idempotency key for the person
 *    (shared/http/idempotency.ts): a repeat of the same submission (a double click, a resubmit)
 *    gets the first one's answer, waiting for it while the first still runs, and runs nothing;
 * 6. the path and the form, read as the form's body, pass its schemas, and its use case
 *    (`submit`) runs, its audit record (the route's declaration) in its change's transaction:
 *    303 to the page it names, with its notice for that page if any (`noticeCookie`: a new
 *    secret is shown there once);
 * 7. a 400 or 422 (schema or business rule), or a nonce that stops the form (missing, used with
 *    other values, its first post still running after the wait or carried out without an
 *    answer: 400, 422, 409): 303 back to the form's page (`home`), with the form, its values and
 *    the problem in a cookie for that page (`returnCookie`); the page shows the detail next to
 *    the field it names (`attribute`), or above the form, and answers with the status.
 */
export function dashboardForm<P extends z.ZodMiniObject, B extends z.ZodMiniType>(
  ports: FormPorts,
  route: FormRoute<P, B>,
  form: {
    body: (fields: Record<string, string>) => unknown;
    /** Runs the use case: the page to go to, or that and a notice for it. */
    submit: (request: FormRequest<z.infer<P>, z.infer<B>>) => Promise<string | FormOutcome>;
    /** From the path parameters as posted, URL-encoded (the page answers 404 for an unknown id), and the fields. */
    home: (path: Record<string, string>, fields: Record<string, string>, urls: PublicUrls) => FormHome;
    /**
     * For a form that acts for good (a refund, a deactivation, an answer): what it asks the
     * person to confirm when these fields need it (else undefined). Without the ticked checkbox
     * CONFIRM_FIELD the form comes back with this as its 422 beside the checkbox, before its
     * nonce is claimed or anything runs.
     */
    confirm?: (fields: Record<string, string>) => string | undefined;
  },
) {
  return pageHandler(async (event, urls, deadline) => {
    requireSameOrigin(event, urls);
    const fields = formFields(event);
    // A dot segment would move the form's page elsewhere (`/payments/..`): it names no object.
    const posted = Object.entries(event.pathParameters ?? {}).map(([name, value]) => [name, value ?? ''] as const);
    if (posted.some(([, value]) => value === '.' || value === '..')) throw new NotFoundError();
    const home = form.home(Object.fromEntries(posted.map(([name, value]) => [name, encodeURIComponent(value)])), fields, urls);
    const poster = await posterOf(ports.sessions, event, fields, route);
    if (!poster) return seeOther(home.page);
    const { sessionId, member, principal } = poster;
    const path = parseWith(route.params, event.pathParameters ?? {}, 'path');
    const returned = (error: ServiceError) =>
      seeOther(home.page, [returnCookie(sessionId, urls, { form: home.form, page: new URL(home.page).pathname, values: fields, problem: problemOf(error, urls) })]);
    const unconfirmed = form.confirm?.(fields);
    if (unconfirmed !== undefined && fields[CONFIRM_FIELD] === undefined) return returned(new BusinessRuleError(unconfirmed, CONFIRM_FIELD));
    const nonce = fields[FORM_NONCE_FIELD];
    if (!isFormNonce(nonce)) return returned(new InvalidRequestError(NONCE_PROBLEMS.missing));
    const execute = async () => {
      // An operation without a body (a cancel) takes none from the form either.
      const body = (route.body ? parseWith(route.body, form.body(fields), 'body') : undefined) as z.infer<B>;
      const outcome = await audited(route.audit, auditCallerOf(event, principal, body), () => form.submit({ principal, member, urls, event, path, body }));
      const { location, notice } = typeof outcome === 'string' ? { location: outcome, notice: undefined } : outcome;
      return toResult(seeOther(location, notice ? [noticeCookie(sessionId, urls, new URL(location).pathname, notice)] : undefined));
    };
    // What the operation refused is kept as the nonce's answer: the form back on its page, or the error page.
    const refusal = (error: unknown) => {
      if (error instanceof CarriedOutError) return toResult(returned(new ConflictError(NONCE_PROBLEMS.carriedOut)));
      if (error instanceof InvalidRequestError || error instanceof BusinessRuleError) return toResult(returned(error));
      return errorPage(error, urls);
    };
    try {
      // Once per person and nonce: the person's forms share nothing with another's, nor with an API key's Idempotency-Keys.
      const answer = await runIdempotently(ports.idempotency, principal.actor.id, nonce, event, urls.docs, execute, {
        refusal,
        awaitFirstUntil: deadline - ANSWER_MARGIN_MS,
      });
      return asResponse(answer);
    } catch (error) {
      // The nonce's own refusals, before anything ran: its first post still runs, or it came with other values.
      if (error instanceof ConflictError) return returned(new ConflictError(NONCE_PROBLEMS.running));
      if (error instanceof BusinessRuleError) return returned(new BusinessRuleError(NONCE_PROBLEMS.otherValues));
      throw error;
    }
  });
}
