import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import type { MailMessage } from '../../bin/local/mailbox';
import type { Mode } from '../../shared/auth/principal';
import { hashPassword } from '../../shared/auth/passwords';
import { createSessionStore } from '../../shared/db/dashboard-session-store';
import { createOrganizationLookup } from '../../shared/db/directory-lookups';
import * as keys from '../../shared/db/keys';
import { createTeamDirectory } from '../../shared/db/team-directory';
import { newSession, secondFactorStep, standingProblem } from '../../shared/domain/team';
import { isoMillis } from '../../shared/time';
import type { TeamRole } from '../../shared/domain/team-roles';
import type { AttemptRecord } from '../../shared/domain/webhook-delivery';
import { outboxEvents } from './events';
import { client } from './http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from './stack';
import { creditsRolled } from './refunds';

export interface DashboardAnswer {
  status: number;
  html: string;
  headers: Headers;
  location: string | null;
  setCookie: string[];
  /** `dashboard_session=…` from Set-Cookie, ready for a Cookie header. */
  cookie?: string;
  /** For a refused form followed back to its page (`submit`): the form's own answer, a 303. */
  posted?: DashboardAnswer;
}

const cookieOf = (setCookie: string[], name: string) => {
  const pair = setCookie.find((cookie) => cookie.startsWith(`${name}=`))?.split(';')[0];
  return pair && pair !== `${name}=` ? pair : undefined;
};

async function answer(response: Response): Promise<DashboardAnswer> {
  const setCookie = response.headers.getSetCookie();
  const session = cookieOf(setCookie, 'dashboard_session');
  return {
    status: response.status,
    html: await response.text(),
    headers: response.headers,
    location: response.headers.get('location'),
    setCookie,
    ...(session ? { cookie: session } : {}),
  };
}

/** The password of the tests' people. */
export const TEST_PASSWORD = 'correct horse battery staple';
let testPasswordHash: Promise<string> | undefined;

/** A person who signs in: their user id, email and password. */
export interface Person {
  userId: string;
  email: string;
  password: string;
}

/** A new browser page of `width` px, signed in to the dashboard at `baseUrl` as `person` (on the overview). */
export async function signedInPage(browser: Browser, baseUrl: string, person: Person, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await signIn(page, baseUrl, person);
  return page;
}

/** `page` (of a context of the test's own: permissions, no script) signed in to the dashboard at `baseUrl` as `person`, on the overview. */
export async function signIn(page: Page, baseUrl: string, person: Person): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

/**
 * A person of `orgId`'s team with `teamRole`, active, with TEST_PASSWORD (hashed once per test
 * process: a hash takes most of a second) unless `password` is given.
 */
export async function createPerson(stack: TestStack, orgId: string, teamRole: TeamRole = 'owner', options: { email?: string; name?: string; password?: string } = {}): Promise<Person> {
  const email = options.email ?? `${teamRole}-${randomUUID().slice(0, 8)}@example.com`;
  const password = options.password ?? TEST_PASSWORD;
  const passwordHash = options.password ? await hashPassword(options.password) : await (testPasswordHash ??= hashPassword(TEST_PASSWORD));
  const user = await stack.directory.createUser(orgId, 'member', { email, name: options.name ?? `${teamRole[0].toUpperCase()}${teamRole.slice(1)} Person`, teamRole, passwordHash });
  return { userId: user.userId, email, password };
}

/**
 * The cookie of a session of `person` as their right password leaves it (issueSession in
 * shared/use-cases/sign-in.ts: the session, the person's last sign-in), written straight to the
 * table, when the form would answer with one at once: their password is TEST_PASSWORD under
 * this process's hash of it, they may sign in, and nothing asks them for a second factor. Most
 * suites need someone signed in, not a sign-in, and the form's scrypt takes about 0.4 s of a
 * core each time (the sign-ins were an eighth of the artifact pass's CPU). Undefined otherwise:
 * the form it is. It writes no audit record and does not look at the lockouts: a test of a
 * sign-in, its record or a lockout posts the form (`signIn`, `sessionThroughForm`).
 */
async function seededSession(stack: TestStack, person: Pick<Person, 'email' | 'password'>, mode: Mode): Promise<string | undefined> {
  if (person.password !== TEST_PASSWORD || !testPasswordHash) return undefined;
  const people = createTeamDirectory(stack.db, stack.tableName);
  const user = await people.personByEmail(person.email);
  if (!user || user.passwordHash !== (await testPasswordHash) || standingProblem(user)) return undefined;
  if (secondFactorStep(user, (await createOrganizationLookup(stack.db, stack.tableName)(user.orgId)) ?? {})) return undefined;
  const sessionId = randomBytes(32).toString('base64url');
  const now = new Date();
  await createSessionStore(stack.db, stack.tableName).create(sessionId, newSession(user, { ip: '127.0.0.1', userAgent: 'node' }, now, mode));
  await people.recordSignIn(user.userId, isoMillis(now));
  return `dashboard_session=${sessionId}`;
}

/** The form token a page's forms carry (every dashboard form has the same one per session). */
export const formTokenOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];

/**
 * The hidden fields (token, one-time nonce, a button's value) of the page's form that posts to
 * `action` (a path) and contains `containing` (its button's text, say), as a browser sends them.
 */
export function hiddenFieldsOf(html: string, action: string, containing = ''): Record<string, string> {
  const forms = html.match(/<form[^>]*method="post"[\s\S]*?<\/form>/g) ?? [];
  const form = forms.find((candidate) => new URL(/action="([^"]+)"/.exec(candidate)![1]).pathname === action && candidate.includes(containing));
  if (!form) throw new Error(`No form posting to ${action} on this page`);
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name, value]));
}

/** A form's one-time nonce as a freshly loaded page would carry it (`submit`, when the test does not take it from a page). */
const freshNonce = () => randomBytes(16).toString('base64url');

/**
 * A person's browser on the dashboard: form posts and page loads, redirects not followed (but
 * for a refused form's, see `submit`). Like a browser, it opens the sign-in form (its cookie and
 * token) before posting it, and posts the other forms with the token of the session's pages.
 */
export function dashboardBrowser(stack: TestStack) {
  const get = async (path: string, cookie?: string) =>
    answer(await fetch(`${stack.baseUrl}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' }));
  /** The form token of each session whose page the browser has loaded: one per session, kept as a loaded page keeps it. */
  const sessionTokens = new Map<string, string>();
  /**
   * A session's form token, read from its overview as a browser would, once: a signed-in page's
   * token is the session's, so the browser posts it again, even after the session has ended.
   */
  const tokenOf = async (cookie: string) => {
    const known = sessionTokens.get(cookie);
    if (known !== undefined) return known;
    const overview = await get('/dashboard', cookie);
    const token = formTokenOf(overview.html) ?? '';
    if (overview.status === 200) sessionTokens.set(cookie, token);
    return token;
  };
  const post = async (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    answer(
      await fetch(`${stack.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      }),
    );
  const signIn = async (person: Pick<Person, 'email' | 'password'>, fields: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const form = await get('/dashboard');
    const signInCookie = cookieOf(form.setCookie, 'dashboard_sign_in')!;
    return post('/dashboard/session', { email: person.email, password: person.password, csrf_token: formTokenOf(form.html)!, ...fields }, { cookie: signInCookie, ...headers });
  };
  /** Posts the mode switch of the session's overview, as the button on every page does. */
  const switchMode = async (cookie: string, mode: Mode) => {
    const overview = await get('/dashboard', cookie);
    return post('/dashboard/mode', { ...hiddenFieldsOf(overview.html, '/dashboard/mode'), mode }, { cookie });
  };
  /** A session of `person` signed in through the form (a sign-in, with its audit record), its pages in `mode`. */
  const sessionThroughForm = async (person: Pick<Person, 'email' | 'password'>, mode: Mode = 'test') => {
    const signedIn = await signIn(person);
    if (signedIn.status !== 303 || !signedIn.cookie) throw new Error(`Sign-in of ${person.email} answered ${signedIn.status}`);
    if (mode === 'live') await switchMode(signedIn.cookie, 'live');
    return signedIn.cookie;
  };
  /**
   * Opens `pagePath`, a page whose form is posted without a session (a reset's, an
   * invitation's), and posts `fields` to `action` (the page itself unless given) with the page's
   * own form cookie and token, as a browser would; the page's answer when it has no form.
   */
  const postSignedOut = async (pagePath: string, fields: Record<string, string>, action = pagePath) => {
    const page = await get(pagePath);
    const formCookie = cookieOf(page.setCookie, 'dashboard_sign_in');
    if (page.status !== 200 || !formCookie) return page;
    return post(action, { ...fields, csrf_token: formTokenOf(page.html)! }, { cookie: formCookie });
  };
  return {
    get,
    post,
    postSignedOut,
    tokenOf,
    signIn,
    switchMode,
    sessionThroughForm,
    /** A signed-in session of `person`, its pages in `mode`: seeded when the form would give it at once (`seededSession`), else through the form. */
    async sessionOf(person: Pick<Person, 'email' | 'password'>, mode: Mode = 'test'): Promise<string> {
      return (await seededSession(stack, person, mode)) ?? sessionThroughForm(person, mode);
    },
    async signOut(cookie: string) {
      return post('/dashboard/sign-out', { csrf_token: await tokenOf(cookie) }, { cookie });
    },
    /**
     * Posts a dashboard form of the session `cookie`, with its form token and a fresh one-time
     * nonce unless `fields` sets them. A refused form's 303 back to its page is followed with the
     * cookie that carries the form, as a browser would: the answer is the page (its status the
     * refusal's), `posted` the 303.
     */
    /**
     * A form's 303 followed as a browser does, with the one-time notice cookie it set (a new
     * secret); the answer is the page, `posted` the 303.
     */
    async follow(posted: DashboardAnswer, cookie: string): Promise<DashboardAnswer> {
      const notice = cookieOf(posted.setCookie, 'dashboard_notice');
      return { ...(await get(posted.location!.slice(stack.baseUrl.length), notice ? `${cookie}; ${notice}` : cookie)), posted };
    },
    async submit(path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}, mode: Mode = 'test'): Promise<DashboardAnswer> {
      const posted = await post(path, { csrf_token: await tokenOf(cookie), page_mode: mode, form_nonce: freshNonce(), ...fields }, { cookie, ...headers });
      const returned = cookieOf(posted.setCookie, 'dashboard_form');
      if (posted.status !== 303 || !returned) return posted;
      return { ...(await get(posted.location!.slice(stack.baseUrl.length), `${cookie}; ${returned}`)), posted };
    },
  };
}

export type DashboardBrowser = ReturnType<typeof dashboardBrowser>;

/** The `<tr>` of one object (its `data-id`), or of the row that mentions `text`. */
export function rowOf(html: string, idOrText: string): string | undefined {
  const rows = html.match(/<tr[\s>][\s\S]*?<\/tr>/g) ?? [];
  return rows.find((row) => row.includes(`data-id="${idOrText}"`)) ?? rows.find((row) => row.includes(idOrText));
}

/** The HTML of one section of the overview, by its heading id. */
export function sectionOf(html: string, id: string): string {
  return html.match(new RegExp(`<section aria-labelledby="${id}">[\\s\\S]*?</section>`))?.[0] ?? '';
}

export interface SeededAccount {
  linkId: string;
  paymentIds: string[];
  processingRefundId: string;
  heldRefundId: string;
  /** Open, soonest deadline first. */
  openChargebacks: { id: string; deadlineAt: string }[];
  acceptedChargebackId: string;
  eventId: string;
}

/**
 * A test-mode account with something in every section: a limited link paid twice, a refund in
 * processing and one on hold (the chargebacks drained the balance), two open chargebacks and an
 * accepted one, and two delivery attempts (one failed) stored as the webhook delivery will.
 */
export async function seedAccount(stack: TestStack, merchant: Merchant, description = 'Concert ticket'): Promise<SeededAccount> {
  const api = client(stack.baseUrl, merchant.test);
  const link = (
    await api.post('/v1/payment_links', {
      amount: { value: '19.99', currency: 'EUR' },
      acceptor_id: merchant.acceptorId,
      description,
      payments_limit: 3,
    })
  ).body;
  const paymentIds: string[] = [];
  for (let i = 0; i < 2; i++) paymentIds.push((await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'paid' })).body.id);
  // The refunds below count on the payments' credits being in the balance (§15).
  await creditsRolled(stack, merchant.orgId);
  const covered = (await api.post(`/v1/payments/${paymentIds[0]}/refunds`, { amount: { value: '19.99', currency: 'eur' } })).body;
  const processing = (await api.post(`/v1/test_helpers/refunds/${covered.id}/transitions`, { status: 'processing' })).body;
  const day = 86_400_000;
  const later = new Date(Date.now() + 3 * day).toISOString();
  const sooner = new Date(Date.now() + 1 * day).toISOString();
  const chargeback = async (paymentId: string, deadlineAt: string, value: string) =>
    (await api.post(`/v1/test_helpers/payments/${paymentId}/chargebacks`, { deadline_at: deadlineAt, amount: { value, currency: 'EUR' } })).body.id as string;
  // The balance is empty after this chargeback, so the next refund waits on hold; the refund
  // comes before its payment's chargebacks, which would block it (decisions §6), and those stay
  // within the payment's amount.
  const laterId = await chargeback(paymentIds[0], later, '19.99');
  const held = (await api.post(`/v1/payments/${paymentIds[1]}/refunds`, { amount: { value: '5.00', currency: 'eur' } })).body;
  const soonerId = await chargeback(paymentIds[1], sooner, '10.00');
  const acceptedId = await chargeback(paymentIds[1], sooner, '9.99');
  await api.post(`/v1/test_helpers/chargebacks/${acceptedId}/transitions`, { status: 'accepted' });
  if (processing.on_hold !== false || held.on_hold !== true) throw new Error('seed: expected one refund processing and one on hold');

  const events = await outboxEvents(stack, merchant.orgId, 'test');
  const eventId = events[events.length - 1].id;
  await putAttempt(stack, eventId, { attempt: 1, at: new Date(Date.now() - 60_000).toISOString(), url: 'https://hooks.example/ok', statusCode: 200, durationMs: 42 });
  await putAttempt(stack, eventId, { attempt: 1, at: new Date().toISOString(), url: 'https://hooks.example/broken', statusCode: 500, durationMs: 120, error: 'HTTP 500 Internal Server Error' });
  return {
    linkId: link.id,
    paymentIds,
    processingRefundId: processing.id,
    heldRefundId: held.id,
    openChargebacks: [
      { id: soonerId, deadlineAt: sooner },
      { id: laterId, deadlineAt: later },
    ],
    acceptedChargebackId: acceptedId,
    eventId,
  };
}

/** A delivery attempt item as the webhook journal records it (AttemptRecord), to target `whk_test` unless it names one. */
export async function putAttempt(stack: TestStack, eventId: string, attempt: AttemptRecord & { targetKey?: string }) {
  const record = { targetKey: 'whk_test', ...attempt };
  await stack.db.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: { ...keys.deliveryAttempt(eventId, record), entity: 'delivery_attempt', eventId, ...record },
    }),
  );
}

/**
 * A stack with two seeded accounts (the second one's link described `Foreign ticket`), the first
 * one's owner, and a signed-in session (`cookie`) of that owner in test mode.
 */
export async function startDashboardStack() {
  const stack = await startTestStack();
  const browser = dashboardBrowser(stack);
  const [merchant, foreign] = await Promise.all([createMerchant(stack), createMerchant(stack)]);
  const [seeded, foreignSeeded, owner] = await Promise.all([seedAccount(stack, merchant), seedAccount(stack, foreign, 'Foreign ticket'), createPerson(stack, merchant.orgId, 'owner')]);
  const cookie = await browser.sessionOf(owner);
  return { stack, browser, merchant, foreign, seeded, foreignSeeded, owner, cookie };
}

/** The messages `address` received, newest first, read from the local mailbox's JSON over HTTP. */
export async function mailTo(stack: TestStack, address: string): Promise<MailMessage[]> {
  const response = await fetch(`${stack.mail.url}/messages?to=${encodeURIComponent(address)}`);
  return ((await response.json()) as { messages: MailMessage[] }).messages;
}

/** The path of the dashboard link (`/dashboard/invitations/…`, `/dashboard/password-reset/…`) in a message's text. */
export function linkIn(message: MailMessage): string {
  const link = /https?:\/\/\S+\/dashboard\/(?:invitations|password-reset)\/\S+/.exec(message.text)?.[0];
  if (!link) throw new Error(`No dashboard link in "${message.subject}"`);
  return new URL(link).pathname;
}

/** Moves the expiry of the item at `key` (an invitation, a password reset) a second into the past, as if its time had run out. */
export async function expire(stack: TestStack, key: Record<string, string>): Promise<void> {
  await stack.db.send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: key,
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}

/** The key of a lockout subject's attempt window (`email:…` or `address:…`): its SHA-256, as the table keys it. */
export const attemptWindowKey = (subject: string) => keys.attemptWindow(createHash('sha256').update(subject).digest('hex'));

/** The attempt window of a lockout subject, as the table keeps it. */
export const attemptWindow = async (stack: TestStack, subject: string) =>
  (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: attemptWindowKey(subject), ConsistentRead: true }))).Item;
