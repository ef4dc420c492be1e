import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashToken } from '../../../shared/auth/tokens';
import * as keys from '../../../shared/db/keys';
import { SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS } from '../../../shared/domain/team';
import { client } from '../../support/http';
import { attemptWindow as attemptWindowOf, attemptWindowKey, createPerson, dashboardBrowser, hiddenFieldsOf, TEST_PASSWORD, type DashboardBrowser, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Signing in and sessions (product-decisions §16), over HTTP as a browser posts the forms. The
 * OWASP ASVS 5.0 requirement a test covers is named in it.
 */
let stack: TestStack;
let merchant: Merchant;
let browser: DashboardBrowser;
let owner: Person;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  merchant = await createMerchant(stack);
  owner = await createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' });
}, 60_000);
afterAll(() => stack.stop());

const sessionIdOf = (cookie: string) => cookie.split('=')[1];
const sessionItem = async (cookie: string) =>
  (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.dashboardSession(hashToken(sessionIdOf(cookie))), ConsistentRead: true }))).Item;
const setSession = (cookie: string, changes: Record<string, unknown>) =>
  stack.db.send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: keys.dashboardSession(hashToken(sessionIdOf(cookie))),
      UpdateExpression: `SET ${Object.keys(changes).map((name, index) => `#n${index} = :v${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(changes).map((name, index) => [`#n${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(changes).map((value, index) => [`:v${index}`, value])),
    }),
  );
const attemptWindow = (subject: string) => attemptWindowOf(stack, subject);
/** The alert of the sign-in form. */
const alertOf = (html: string) => /<p role="alert" id="signin-error">([^<]*)<\/p>/.exec(html)?.[1];
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

describe('the sign-in form', () => {
  test('GET /dashboard without a session: fields Email and Password, the button Sign in, links Forgot password? and Sign in with a passkey', async () => {
    const form = await browser.get('/dashboard');
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="email">Email</label>');
    expect(form.html).toMatch(/<input id="email" name="email" type="email"[^>]*autocomplete="username"/);
    expect(form.html).toContain('<label for="password">Password</label>');
    // OWASP ASVS 5.0 V6.2.6 (masked), V6.2.7 (password managers: autocomplete, no paste block).
    expect(form.html).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password"/);
    expect(form.html).toMatch(/<button class="primary" type="submit">Sign in<\/button>/);
    expect(form.html).toContain(`<a href="${stack.baseUrl}/dashboard/forgot-password">Forgot password?</a>`);
    expect(form.html).toContain(`<a href="${stack.baseUrl}/dashboard/sign-in/passkey">Sign in with a passkey</a>`);
    expect(form.html).not.toContain('API key');
    const passkey = await browser.get('/dashboard/sign-in/passkey');
    expect(passkey.status).toBe(200);
    expect(passkey.html).toContain('<h1>Sign in with a passkey</h1>');
  });

  test('the right email and password -> 303 to the dashboard with an HttpOnly SameSite=Strict session cookie for 12 hours', async () => {
    const signedIn = await browser.signIn(owner);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${stack.baseUrl}/dashboard`);
    const setCookie = signedIn.setCookie.find((value) => value.startsWith('dashboard_session='))!;
    expect(setCookie).toMatch(new RegExp(`; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MAX_SECONDS}$`));
    expect(setCookie).not.toMatch(/Secure/); // the local stack is plain http
    const overview = await browser.get('/dashboard', signedIn.cookie);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('Olive Owner');
    expect(overview.html).toContain(owner.email);
  });

  test('the cookie holds a random id; the table holds its hash, the person and the test mode, never the id or the password (ASVS V7.2.3)', async () => {
    const cookie = (await browser.signIn(owner)).cookie!;
    const sessionId = sessionIdOf(cookie);
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const item = await sessionItem(cookie);
    expect(item).toMatchObject({ userId: owner.userId, orgId: merchant.orgId, mode: 'test', sessionVersion: 0, ip: expect.any(String), expiresAtEpoch: expect.any(Number) });
    expect(Date.parse(item!.expiresAt) - Date.parse(item!.createdAt)).toBe(SESSION_MAX_SECONDS * 1000);
    const stored = JSON.stringify(item);
    for (const secret of [sessionId, TEST_PASSWORD]) expect(stored).not.toContain(secret);
  });

  test('each sign-in is a new session (ASVS V7.2.4), and the sign-in is noted on the person', async () => {
    const [first, second] = [(await browser.signIn(owner)).cookie!, (await browser.signIn(owner)).cookie!];
    expect(first).not.toBe(second);
    const user = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.user(owner.userId), ConsistentRead: true }))).Item!;
    expect(Date.now() - Date.parse(user.lastSignInAt)).toBeLessThan(60_000);
  });

  test('the email is compared case-insensitively', async () => {
    expect((await browser.signIn({ email: `  ${owner.email.toUpperCase()} `, password: owner.password })).status).toBe(303);
  });

  test('a wrong password and an unknown email get the same 401 page: "Email or password is incorrect." (ASVS V6.3.8)', async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const [wrong, unknown] = await Promise.all([
      browser.signIn({ email: person.email, password: 'not the password at all' }),
      browser.signIn({ email: `nobody-${person.email}`, password: 'not the password at all' }),
    ]);
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(alertOf(answer.html)).toBe('Email or password is incorrect.');
      expect(answer.cookie).toBeUndefined();
      expect(answer.html).not.toContain('not the password at all');
    }
    // The same page but for the email typed back into its field and the fresh form token.
    const normalized = (html: string, email: string) => html.replace(email, 'EMAIL').replace(/name="csrf_token" value="[^"]+"/, '');
    expect(normalized(wrong.html, person.email)).toBe(normalized(unknown.html, `nobody-${person.email}`));
  });

  test('a form posted from another origin -> 403, no session', async () => {
    const result = await browser.signIn(owner, {}, { origin: 'https://evil.example' });
    expect(result.status).toBe(403);
    expect(result.cookie).toBeUndefined();
  });

  test('return_to leads back to a dashboard page, never elsewhere', async () => {
    expect((await browser.signIn(owner, { return_to: '/dashboard/refunds' })).location).toBe(`${stack.baseUrl}/dashboard/refunds`);
    for (const elsewhere of ['https://evil.example/dashboard', '//evil.example', '/v1/payments', '/dashboardx']) {
      expect((await browser.signIn(owner, { return_to: elsewhere })).location).toBe(`${stack.baseUrl}/dashboard`);
    }
  });

  test('a person who owes a second factor: 303 to its page with a pending sign-in cookie, no session yet', async () => {
    const person = await createPerson(stack, merchant.orgId, 'developer');
    await stack.db.send(
      new UpdateCommand({ TableName: stack.tableName, Key: keys.user(person.userId), UpdateExpression: 'SET twoFactorEnabledAt = :at', ExpressionAttributeValues: { ':at': new Date().toISOString() } }),
    );
    const signedIn = await browser.signIn(person);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${stack.baseUrl}/dashboard/sign-in/second-factor`);
    expect(signedIn.cookie).toBeUndefined();
    const pending = signedIn.setCookie.find((value) => value.startsWith('dashboard_pending='))!;
    expect(pending).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=300$/);
    const pendingId = pending.split(';')[0].split('=')[1];
    const item = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.pendingSignIn(hashToken(pendingId)), ConsistentRead: true }))).Item!;
    expect(item).toMatchObject({ userId: person.userId, step: 'code', failures: 0 });
    expect(JSON.stringify(item)).not.toContain(pendingId);
  });
});

describe('people who may no longer sign in (the key rules, read for the person)', () => {
  test.each([
    ['removed from the team', { status: 'removed' }, 403, 'Your access to this organization has been removed'],
    ['without the organization permission', { orgPermission: false }, 403, 'Your access to this organization has been removed'],
    ['demoted', { role: 'demoted' }, 401, 'This account can no longer sign in'],
    ['holding the global admin role', { role: 'admin' }, 422, 'API key configuration is invalid (creator role)'],
  ])('%s: the right password -> its status and reason; a wrong one -> the usual 401', async (_name, change, status, reason) => {
    const person = await createPerson(stack, merchant.orgId, 'support');
    const [name, value] = Object.entries(change)[0];
    await stack.db.send(new UpdateCommand({ TableName: stack.tableName, Key: keys.user(person.userId), UpdateExpression: 'SET #n = :v', ExpressionAttributeNames: { '#n': name }, ExpressionAttributeValues: { ':v': value } }));
    const right = await browser.signIn(person);
    expect(right.status).toBe(status);
    expect(alertOf(right.html)).toContain(reason);
    expect(right.cookie).toBeUndefined();
    const wrong = await browser.signIn({ email: person.email, password: 'a wrong password, surely' });
    expect(wrong.status).toBe(401);
    expect(alertOf(wrong.html)).toBe('Email or password is incorrect.');
  });
});

describe('lockouts (product-decisions §16; ASVS V6.3.1)', () => {
  const wrongFor = (email: string) => browser.signIn({ email, password: 'this is not the password' });

  test('five failures for one email refuse it for 15 minutes: 429 with Retry-After, even with the right password', async () => {
    const person = await createPerson(stack, merchant.orgId, 'finance');
    for (let attempt = 0; attempt < 5; attempt++) expect((await wrongFor(person.email)).status).toBe(401);
    const refused = await browser.signIn(person);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(alertOf(refused.html)).toBe('Too many failed sign-ins for this email address: try again in 15 minutes.');
    expect(refused.cookie).toBeUndefined();
    // The form is shown again, with the email, so the person knows which one is refused.
    expect(refused.html).toContain(`value="${person.email}"`);
  });

  test('an unknown email locks the same way (no enumeration through the lockout)', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    for (let attempt = 0; attempt < 5; attempt++) expect((await wrongFor(email)).status).toBe(401);
    expect((await wrongFor(email)).status).toBe(429);
  });

  test('20 concurrent wrong guesses: exactly 5 passwords are checked (401), the other 15 refused (429) before any check', async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const answers = await Promise.all(Array.from({ length: 20 }, () => wrongFor(person.email)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(await attemptWindow(`email:${person.email}`)).toMatchObject({ count: 5 });
    expect((await browser.signIn(person)).status).toBe(429);
  }, 60_000);

  test('a right password gives its slot back: four failures and a success leave room for one failure more, then the lock', async () => {
    const person = await createPerson(stack, merchant.orgId, 'operator');
    for (let attempt = 0; attempt < 4; attempt++) expect((await wrongFor(person.email)).status).toBe(401);
    expect((await browser.signIn(person)).status).toBe(303);
    expect(await attemptWindow(`email:${person.email}`)).toMatchObject({ count: 4 });
    expect((await wrongFor(person.email)).status).toBe(401);
    expect((await browser.signIn(person)).status).toBe(429);
  });

  test('fifty failures from one address within 15 minutes refuse that address, for any email', async () => {
    // The address's window as 49 failures would leave it (checking 49 more passwords would take a minute here).
    const subject = 'address:127.0.0.1';
    const key = attemptWindowKey(subject);
    await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...key, entity: 'attempt_window', window: 'seeded', count: 49, endsAt: Date.now() + 10 * 60_000 } }));
    try {
      expect((await wrongFor(`first-${Date.now()}@example.com`)).status).toBe(401);
      const refused = await browser.signIn(owner);
      expect(refused.status).toBe(429);
      expect(alertOf(refused.html)).toBe('Too many failed sign-ins from your network: try again in 15 minutes.');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      // The email's slot, taken before the address refused, was given back.
      expect(await attemptWindow(`email:${owner.email}`)).toMatchObject({ count: 0 });
    } finally {
      await stack.db.send(new DeleteCommand({ TableName: stack.tableName, Key: key }));
    }
  });
});

describe('sessions (product-decisions §16)', () => {
  test('a page without a session -> 401, the sign-in form that returns to it', async () => {
    const result = await browser.get('/dashboard/refunds');
    expect(result.status).toBe(401);
    expect(result.html).toContain('name="email"');
    expect(result.html).toContain('name="return_to" value="/dashboard/refunds"');
  });

  test('an unknown session cookie -> 401, the cookie cleared', async () => {
    const result = await browser.get('/dashboard', `dashboard_session=${'a'.repeat(43)}`);
    expect(result.status).toBe(401);
    expect(alertOf(result.html)).toBe('Your dashboard session has ended; sign in again');
    expect(result.setCookie.some((value) => /^dashboard_session=; .*Max-Age=0/.test(value))).toBe(true);
  });

  test('30 minutes without a request end a session, though its item is still there (ASVS V7.3.1)', async () => {
    const cookie = await browser.sessionOf(owner);
    await setSession(cookie, { lastSeenAt: ago(SESSION_IDLE_SECONDS + 1) });
    const result = await browser.get('/dashboard', cookie);
    expect(result.status).toBe(401);
    expect(alertOf(result.html)).toBe('Your dashboard session has ended; sign in again');
  });

  test('12 hours after sign-in a session ends, however recently it was used (ASVS V7.3.2)', async () => {
    const cookie = await browser.sessionOf(owner);
    await setSession(cookie, { createdAt: ago(SESSION_MAX_SECONDS + 60), expiresAt: ago(60), lastSeenAt: ago(5) });
    expect((await browser.get('/dashboard', cookie)).status).toBe(401);
  });

  test('a request records the last one at most once a minute: the idle end moves without a write per page', async () => {
    const cookie = await browser.sessionOf(owner);
    const fresh = (await sessionItem(cookie))!;
    await browser.get('/dashboard', cookie);
    expect((await sessionItem(cookie))!.lastSeenAt).toBe(fresh.lastSeenAt);
    await setSession(cookie, { lastSeenAt: ago(25 * 60) });
    expect((await browser.get('/dashboard', cookie)).status).toBe(200);
    const touched = (await sessionItem(cookie))!;
    expect(Date.now() - Date.parse(touched.lastSeenAt)).toBeLessThan(60_000);
    expect(touched.expiresAtEpoch).toBe(Math.ceil((Date.parse(touched.lastSeenAt) + SESSION_IDLE_SECONDS * 1000) / 1000));
  });

  test('a role change applies to the next request: an admin made viewer no longer opens the form to create a link', async () => {
    const person = await createPerson(stack, merchant.orgId, 'admin');
    const cookie = await browser.sessionOf(person);
    expect((await browser.get('/dashboard/payment-links/new', cookie)).status).toBe(200);
    await stack.directory.updateUser(person.userId, { teamRole: 'viewer' });
    const refused = await browser.get('/dashboard/payment-links/new', cookie);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Your role, Viewer, does not allow this (payment_link:create)');
  });

  test.each([
    ['losing the organization permission', { orgPermission: false }, 403],
    ['demoted', { role: 'demoted' as const }, 401],
  ])("%s ends the person's open session at its next request (its status, the cookie cleared)", async (_name, change, status) => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const cookie = await browser.sessionOf(person);
    await stack.directory.updateUser(person.userId, change);
    const result = await browser.get('/dashboard', cookie);
    expect(result.status).toBe(status);
    expect(result.setCookie.some((value) => /^dashboard_session=; .*Max-Age=0/.test(value))).toBe(true);
  });

  test('sign-out deletes the session; the old cookie no longer opens the dashboard (ASVS V7.4.1)', async () => {
    const cookie = await browser.sessionOf(owner);
    const out = await browser.signOut(cookie);
    expect(out.status).toBe(303);
    expect(out.setCookie.some((value) => /^dashboard_session=; .*Max-Age=0/.test(value))).toBe(true);
    expect(await sessionItem(cookie)).toBeUndefined();
    expect((await browser.get('/dashboard', cookie)).status).toBe(401);
  });
});

describe('mode: one sign-in, both modes', () => {
  test('every page says its mode, test by default, and carries the switch to the other', async () => {
    const cookie = await browser.sessionOf(owner);
    for (const path of ['/dashboard', '/dashboard/payments', '/dashboard/security']) {
      const page = await browser.get(path, cookie);
      expect(page.html).toContain('<span class="mode">Test mode</span>');
      expect(page.html).toContain('Switch to live mode');
    }
    const switched = await browser.switchMode(cookie, 'live');
    expect(switched.status).toBe(303);
    expect(switched.location).toBe(`${stack.baseUrl}/dashboard`);
    const live = await browser.get('/dashboard/payments', cookie);
    expect(live.html).toContain('<span class="mode live">Live mode</span>');
    expect(live.html).toContain('Switch to test mode');
    expect((await sessionItem(cookie))!.mode).toBe('live');
  });

  test('the switch comes back to the section it was on', async () => {
    const cookie = await browser.sessionOf(owner);
    const page = await browser.get('/dashboard/refunds', cookie);
    const switched = await browser.post('/dashboard/mode', { ...hiddenFieldsOf(page.html, '/dashboard/mode'), mode: 'live' }, { cookie });
    expect(switched.location).toBe(`${stack.baseUrl}/dashboard/refunds`);
  });

  test("a form acts in its page's mode: a link created from a test page after the session switched to live is a test link", async () => {
    const cookie = await browser.sessionOf(owner);
    const form = await browser.get('/dashboard/payment-links/new', cookie);
    await browser.switchMode(cookie, 'live');
    const created = await browser.post(
      '/dashboard/payment-links',
      { ...hiddenFieldsOf(form.html, '/dashboard/payment-links'), 'amount.value': '3.00', 'amount.currency': 'EUR', acceptor_id: merchant.acceptorId, description: 'Made on a test page' },
      { cookie },
    );
    expect(created.status).toBe(303);
    const linkId = created.location!.split('/').pop()!;
    expect((await client(stack.baseUrl, merchant.test).get(`/v1/payment_links/${linkId}`)).body.description).toBe('Made on a test page');
    expect((await client(stack.baseUrl, merchant.live).get(`/v1/payment_links/${linkId}`)).status).toBe(404);
  });

  test('a form without its page mode -> 400, nothing done', async () => {
    const cookie = await browser.sessionOf(owner);
    const form = await browser.get('/dashboard/payment-links/new', cookie);
    const { page_mode: _mode, ...fields } = hiddenFieldsOf(form.html, '/dashboard/payment-links');
    const result = await browser.post('/dashboard/payment-links', { ...fields, 'amount.value': '3.00', 'amount.currency': 'EUR', acceptor_id: merchant.acceptorId }, { cookie });
    expect(result.status).toBe(400);
  });
});

describe('the security page: password and sessions', () => {
  let person: Person;
  beforeAll(async () => {
    person = await createPerson(stack, merchant.orgId, 'developer', { password: 'the first password of many' });
  });

  test("lists the person's sessions, newest first, this browser marked", async () => {
    const older = await browser.sessionOf(person);
    const newer = await browser.sessionOf(person);
    const page = await browser.get('/dashboard/security', newer);
    expect(page.status).toBe(200);
    const rows = page.html.match(/<tr>[\s\S]*?<\/tr>/g)!.slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toContain('This browser');
    expect(rows.filter((row) => row.includes('This browser'))).toHaveLength(1);
    expect((await browser.get('/dashboard/security', older)).html).toContain('This browser');
  });

  test.each([
    ['a wrong current password', { current_password: 'not my password at all', new_password: 'a brand new password' }, 'current_password', 'This is not your current password'],
    ['a new password under 12 characters', { current_password: 'the first password of many', new_password: 'short one' }, 'new_password', 'A password needs at least 12 characters'],
    ['the email as the new password', { current_password: 'the first password of many', new_password: 'EMAIL' }, 'new_password', 'A password cannot be your email address'],
  ])('%s -> 422 beside its field, nothing changed, no password in the page or its cookie', async (_name, fields, field, detail) => {
    const cookie = await browser.sessionOf(person);
    const values = { ...fields, new_password: fields.new_password === 'EMAIL' ? person.email.toUpperCase() : fields.new_password };
    const result = await browser.submit('/dashboard/security/password', cookie, values);
    expect(result.status).toBe(422);
    expect(result.html).toContain(`<p class="field-error" id="password-${field}-error">${detail}</p>`);
    for (const secret of [values.current_password, values.new_password]) {
      expect(result.html).not.toContain(secret);
      expect(Buffer.from(result.posted!.setCookie.join(';').split('dashboard_form=')[1]?.split('.')[0] ?? '', 'base64url').toString()).not.toContain(secret);
    }
    expect((await browser.signIn(person)).status).toBe(303);
  });

  test('a new password ends every other session, keeps this one, and the old password stops working (ASVS V6.2.3, V7.4.3)', async () => {
    const other = await browser.sessionOf(person);
    const cookie = await browser.sessionOf(person);
    const changed = await browser.submit('/dashboard/security/password', cookie, { current_password: person.password, new_password: 'a second password, longer' });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`${stack.baseUrl}/dashboard/security`);
    const page = await browser.follow(changed, cookie);
    expect(page.html).toContain('Your password is changed. Every other session has ended.');
    expect((await browser.get('/dashboard', other)).status).toBe(401);
    expect(await sessionItem(other)).toBeUndefined();
    expect((await browser.get('/dashboard', cookie)).status).toBe(200);
    expect((await browser.signIn(person)).status).toBe(401);
    person = { ...person, password: 'a second password, longer' };
    expect((await browser.signIn(person)).status).toBe(303);
  });

  test('sign out everywhere ends every session of the person, this one included (ASVS V7.5.2)', async () => {
    const other = await browser.sessionOf(person);
    const cookie = await browser.sessionOf(person);
    const out = await browser.submit('/dashboard/security/sign-out-everywhere', cookie, {});
    expect(out.status).toBe(303);
    for (const session of [other, cookie]) expect((await browser.get('/dashboard', session)).status).toBe(401);
    expect((await browser.signIn(person)).status).toBe(303);
  });
});
