import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { totpCode, totpSecretFromText, totpStepAt } from '../../../shared/domain/totp';
import { attemptWindow, attemptWindowKey, createPerson, dashboardBrowser, formTokenOf, hiddenFieldsOf, type DashboardAnswer, type DashboardBrowser, type Person } from '../../support/dashboard';
import { softAuthenticator } from '../../support/soft-authenticator';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Two-factor and passkeys in the dashboard (product-decisions §16), over HTTP as a browser posts
 * the forms: the Security page sets them up, the sign-in asks for them, the owner requires them.
 * Passkeys run on `localhost` (browsers allow WebAuthn on a domain) with a software authenticator;
 * Chromium's own runs in two-factor-browser.test.ts.
 */
let stack: TestStack;
let merchant: Merchant;
let browser: DashboardBrowser;
/** The same stack reached as `localhost`: the dashboard keeps that name for its relying party (§16). */
let localhost: DashboardBrowser;
let localOrigin: string;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  localOrigin = stack.baseUrl.replace('127.0.0.1', 'localhost');
  localhost = dashboardBrowser({ ...stack, baseUrl: localOrigin });
  merchant = await createMerchant(stack);
}, 60_000);
afterAll(() => stack.stop());

const cookieValue = (answer: DashboardAnswer, name: string) => answer.setCookie.find((cookie) => cookie.startsWith(`${name}=`))?.split(';')[0];
const person = async (role: Parameters<typeof createPerson>[2] = 'developer', orgId = merchant.orgId) => createPerson(stack, orgId, role);
const personItem = async (userId: string) => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.user(userId), ConsistentRead: true }))).Item!;
/** The recovery codes a page shows (once). */
const recoveryCodesOf = (html: string) => [...(/<ol class="recovery-codes"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '').matchAll(/<code>([^<]+)<\/code>/g)].map(([, code]) => code);
const secretOf = (html: string) => /<code class="key" id="totp-secret">([A-Z2-7]+)<\/code>/.exec(html)?.[1];

/** Two-factor set up on the Security page of a signed-in `who`: the key the page showed, the step its confirming code was of, the recovery codes shown. */
async function enrol(who: Person, cookie?: string) {
  const session = cookie ?? (await browser.sessionOf(who));
  const begun = await browser.submit('/dashboard/security/two-factor', session, {});
  expect(begun.status).toBe(303);
  const page = await browser.get('/dashboard/security', session);
  const secretText = secretOf(page.html)!;
  const step = totpStepAt(new Date());
  const confirmed = await browser.submit('/dashboard/security/two-factor/confirm', session, { code: totpCode(totpSecretFromText(secretText), step) });
  expect(confirmed.status).toBe(303);
  const shown = await browser.follow(confirmed, session);
  return { session, secret: totpSecretFromText(secretText), step, recoveryCodes: recoveryCodesOf(shown.html), shown };
}

/** The password step of a sign-in that owes a second factor: the pending sign-in's cookie, and its page. */
async function passwordStep(who: Person, through = browser) {
  const signedIn = await through.signIn(who);
  expect(signedIn.status).toBe(303);
  expect(signedIn.location).toBe(`${through === browser ? stack.baseUrl : localOrigin}/dashboard/sign-in/second-factor`);
  const pending = cookieValue(signedIn, 'dashboard_pending')!;
  const page = await through.get('/dashboard/sign-in/second-factor', pending);
  return { pending, page, token: formTokenOf(page.html)! };
}

const postCode = (step: { pending: string; token: string }, code: string, fields: Record<string, string> = {}) =>
  browser.post('/dashboard/sign-in/second-factor', { csrf_token: step.token, code, ...fields }, { cookie: step.pending });

const fieldErrorOf = (html: string) => /<p class="field-error" id="[^"]+">([^<]*)<\/p>/.exec(html)?.[1];

describe('setting up two-factor on the Security page', () => {
  test('the page shows the key as a server-drawn QR code and as text; a code of it turns two-factor on and the 10 recovery codes are shown once', async () => {
    const who = await person();
    const session = await browser.sessionOf(who);
    const off = await browser.get('/dashboard/security', session);
    expect(off.html).toContain('Set up two-factor');
    await browser.submit('/dashboard/security/two-factor', session, {});
    const pending = await browser.get('/dashboard/security', session);
    expect(pending.html).toMatch(/<svg role="img" aria-label="QR code of your two-factor key"/);
    const secretText = secretOf(pending.html)!;
    expect(secretText).toMatch(/^[A-Z2-7]{32}$/);
    // The key is in the page's text only, never in an attribute (an image's alt, a URL).
    expect(pending.html.match(new RegExp(secretText, 'g'))).toHaveLength(1);
    expect(pending.headers.get('cache-control')).toBe('no-store');
  });

  test('confirmed by a code: two-factor on, the person item says so, the codes shown once and not after a reload', async () => {
    const who = await person();
    const { session, recoveryCodes, shown } = await enrol(who);
    expect(shown.status).toBe(200);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(shown.html).toContain('Two-factor authentication is on.');
    expect((await personItem(who.userId)).twoFactorEnabledAt).toEqual(expect.any(String));
    const reloaded = await browser.get('/dashboard/security', session);
    expect(recoveryCodesOf(reloaded.html)).toEqual([]);
    expect(reloaded.html).toContain('10 recovery codes left');
  });

  test('a wrong code comes back beside the Code field (422), never echoed; the enrolment still waits', async () => {
    const who = await person();
    const session = await browser.sessionOf(who);
    await browser.submit('/dashboard/security/two-factor', session, {});
    const refused = await browser.submit('/dashboard/security/two-factor/confirm', session, { code: '000000' });
    expect(refused.status).toBe(422);
    expect(fieldErrorOf(refused.html)).toBe('The code is not valid');
    expect(refused.html).not.toContain('value="000000"');
    expect(secretOf(refused.html)).toMatch(/^[A-Z2-7]{32}$/);
    expect((await personItem(who.userId)).twoFactorEnabledAt).toBeUndefined();
  });

  test('new recovery codes replace the old ones and are shown once', async () => {
    const who = await person();
    const { session, recoveryCodes } = await enrol(who);
    const made = await browser.follow(await browser.submit('/dashboard/security/recovery-codes', session, {}), session);
    const renewed = recoveryCodesOf(made.html);
    expect(renewed).toHaveLength(10);
    expect(renewed.some((code) => recoveryCodes.includes(code))).toBe(false);
    const step = await passwordStep(who);
    expect((await postCode(step, recoveryCodes[0])).status).toBe(401);
    expect((await postCode(step, renewed[0])).status).toBe(303);
  });

  test('turning two-factor off asks for the password (422 beside it when wrong); then the sign-in asks for no code', async () => {
    const who = await person();
    const { session } = await enrol(who);
    const wrong = await browser.submit('/dashboard/security/two-factor/remove', session, { password: 'not my password at all' });
    expect(wrong.status).toBe(422);
    expect(fieldErrorOf(wrong.html)).toBe('This is not your current password');
    expect(wrong.html).not.toContain('not my password at all');
    const removed = await browser.follow(await browser.submit('/dashboard/security/two-factor/remove', session, { password: who.password }), session);
    expect(removed.html).toContain('Two-factor authentication is off');
    expect((await personItem(who.userId)).twoFactorEnabledAt).toBeUndefined();
    expect((await browser.signIn(who)).location).toBe(`${stack.baseUrl}/dashboard`);
  });
});

describe('signing in with two-factor (the Code page)', () => {
  test('the password leads to the Code form; a right code gives the session, and the pending sign-in is used once', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const pendingStep = await passwordStep(who);
    expect(pendingStep.page.status).toBe(200);
    expect(pendingStep.page.html).toContain('<label for="code">Code</label>');
    expect(pendingStep.page.html).toMatch(/<input id="code" name="code" type="text"[^>]*autocomplete="one-time-code"/);
    const signedIn = await postCode(pendingStep, totpCode(secret, step + 1));
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${stack.baseUrl}/dashboard`);
    expect(signedIn.setCookie).toContainEqual(expect.stringMatching(/^dashboard_pending=; .*Max-Age=0$/));
    expect((await browser.get('/dashboard', signedIn.cookie)).status).toBe(200);
    // The same pending sign-in again (a replayed post): it is over.
    const again = await postCode(pendingStep, totpCode(secret, step + 1));
    expect(again.status).toBe(401);
    expect(again.cookie).toBeUndefined();
  });

  test('a TOTP code is accepted once: replayed in its window, in a new sign-in, it is refused (401)', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const code = totpCode(secret, step + 1);
    expect((await postCode(await passwordStep(who), code)).status).toBe(303);
    const replayed = await postCode(await passwordStep(who), code);
    expect(replayed.status).toBe(401);
    expect(/<p class="field-error" id="code-error">([^<]*)<\/p>/.exec(replayed.html)?.[1]).toBe('The code is not valid');
    expect(replayed.cookie).toBeUndefined();
    // The code the enrolment was confirmed with is used too.
    expect((await postCode(await passwordStep(who), totpCode(secret, step))).status).toBe(401);
  });

  test('two concurrent posts of one code: exactly one signs in', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const [first, second] = await Promise.all([passwordStep(who), passwordStep(who)]);
    const code = totpCode(secret, step + 1);
    const answers = await Promise.all([postCode(first, code), postCode(second, code)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 401]);
  });

  test('a recovery code signs in once; the same code again is refused', async () => {
    const who = await person();
    const { recoveryCodes } = await enrol(who);
    expect((await postCode(await passwordStep(who), recoveryCodes[3])).status).toBe(303);
    expect((await postCode(await passwordStep(who), recoveryCodes[3])).status).toBe(401);
    expect((await postCode(await passwordStep(who), recoveryCodes[4].toLowerCase())).status).toBe(303);
  });

  test('five wrong codes end the attempt: the fifth answers the sign-in form, and a right code after it is refused', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const pendingStep = await passwordStep(who);
    for (let attempt = 1; attempt <= 4; attempt++) expect((await postCode(pendingStep, '123456')).status).toBe(401);
    const fifth = await postCode(pendingStep, '654321');
    expect(fifth.status).toBe(401);
    expect(fifth.html).toContain('Too many wrong codes: sign in again.');
    expect(fifth.html).toContain('<label for="email">Email</label>');
    const late = await postCode(pendingStep, totpCode(secret, step + 1));
    expect(late.status).toBe(401);
    expect(late.cookie).toBeUndefined();
  });

  test('the Code form is refused without the token of its pending sign-in (403) or from another origin (403), and without a pending sign-in asks to sign in again (401)', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const pendingStep = await passwordStep(who);
    expect((await postCode({ ...pendingStep, token: 'forged' }, totpCode(secret, step + 1))).status).toBe(403);
    expect((await postCode(pendingStep, totpCode(secret, step + 1), {})).status).toBe(303);
    const other = await passwordStep(who);
    expect((await browser.post('/dashboard/sign-in/second-factor', { csrf_token: other.token, code: '123456' }, { cookie: other.pending, origin: 'https://evil.example' })).status).toBe(403);
    const none = await browser.get('/dashboard/sign-in/second-factor');
    expect(none.status).toBe(401);
    expect(none.html).toContain('Your sign-in has ended: sign in again.');
  });
});

describe('lockouts at the second step (§16: five failures of any kind for one email refuse it for 15 minutes)', () => {
  const lockedEmail = 'Too many failed sign-ins for this email address: try again in 15 minutes.';
  const alertOf = (html: string) => /<p role="alert" id="signin-error">([^<]*)<\/p>/.exec(html)?.[1];
  const retryAfterOf = (answer: DashboardAnswer) => Number(answer.headers.get('retry-after'));

  test('five wrong codes over three pending sign-ins lock the email: a right code and the right password are refused (429 with Retry-After) until the window ends', async () => {
    const who = await person();
    const { secret, step } = await enrol(who);
    const [first, second, third] = [await passwordStep(who), await passwordStep(who), await passwordStep(who)];
    for (const pendingStep of [first, first, second, second, third]) expect((await postCode(pendingStep, '000000')).status).toBe(401);

    // The third pending sign-in had four codes left: its right code is refused now.
    const rightCode = await postCode(third, totpCode(secret, step + 1));
    expect(rightCode.status).toBe(429);
    expect(retryAfterOf(rightCode)).toBeGreaterThan(14 * 60);
    expect(alertOf(rightCode.html)).toBe(lockedEmail);
    expect(rightCode.html).toContain(`value="${who.email}"`);
    expect(rightCode.setCookie).toContainEqual(expect.stringMatching(/^dashboard_pending=; .*Max-Age=0$/));
    expect(rightCode.cookie).toBeUndefined();
    const rightPassword = await browser.signIn(who);
    expect(rightPassword.status).toBe(429);
    expect(retryAfterOf(rightPassword)).toBeGreaterThan(14 * 60);
    expect(retryAfterOf(rightPassword)).toBeLessThanOrEqual(15 * 60);
    expect(alertOf(rightPassword.html)).toBe(lockedEmail);

    // The 15 minutes over (the window's end moved into the past): the password and a right code sign in.
    await stack.db.send(
      new UpdateCommand({ TableName: stack.tableName, Key: attemptWindowKey(`email:${who.email}`), UpdateExpression: 'SET endsAt = :past', ExpressionAttributeValues: { ':past': Date.now() - 1000 } }),
    );
    expect((await postCode(await passwordStep(who), totpCode(secret, step + 1))).status).toBe(303);
  }, 60_000);

  test('a right code gives its slot back: four wrong codes, then many two-factor sign-ins never lock, and one wrong password more does', async () => {
    const who = await person();
    const { secret, step, recoveryCodes } = await enrol(who);
    const pendingStep = await passwordStep(who);
    for (let attempt = 0; attempt < 4; attempt++) expect((await postCode(pendingStep, '000000')).status).toBe(401);
    expect(await attemptWindow(stack, `email:${who.email}`)).toMatchObject({ count: 4 });
    expect((await postCode(pendingStep, totpCode(secret, step + 1))).status).toBe(303);
    for (const code of recoveryCodes.slice(0, 6)) expect((await postCode(await passwordStep(who), code)).status).toBe(303);
    expect(await attemptWindow(stack, `email:${who.email}`)).toMatchObject({ count: 4 });
    expect((await browser.signIn({ email: who.email, password: 'not the password at all' })).status).toBe(401);
    expect((await browser.signIn(who)).status).toBe(429);
  }, 60_000);
});

describe('the owner requires two-factor', () => {
  test('only the owner may (the roles table: security:manage): an admin\'s post is 403; the form is not on their page', async () => {
    const admin = await person('admin');
    const session = await browser.sessionOf(admin);
    expect((await browser.get('/dashboard/security', session)).html).not.toContain('require-two-factor');
    const forged = await browser.submit('/dashboard/security/require-two-factor', session, { require: 'on' });
    expect(forged.status).toBe(403);
  });

  test('an owner without a second factor is asked to set one up first (422); with one, it is required', async () => {
    const org = await createMerchant(stack);
    const owner = await person('owner', org.orgId);
    const session = await browser.sessionOf(owner);
    const first = await browser.submit('/dashboard/security/require-two-factor', session, { require: 'on' });
    expect(first.status).toBe(422);
    expect(first.html).toContain('Turn on two-factor authentication or add a passkey for yourself first');
    const { session: enrolled } = await enrol(owner, session);
    const required = await browser.follow(await browser.submit('/dashboard/security/require-two-factor', enrolled, { require: 'on' }), enrolled);
    expect(required.html).toContain('Two-factor authentication is required');
    const organization = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.organization(org.orgId), ConsistentRead: true }))).Item!;
    expect(organization.requireTwoFactor).toBe(true);
  });

  test('a member without two-factor enrols right after the password, before any page; then the recovery codes are shown once on the Security page', async () => {
    const org = await createMerchant(stack);
    const owner = await person('owner', org.orgId);
    const member = await person('support', org.orgId);
    const { session } = await enrol(owner);
    await browser.submit('/dashboard/security/require-two-factor', session, { require: 'on' });
    const pendingStep = await passwordStep(member);
    expect(pendingStep.page.html).toContain('Your organization requires two-factor authentication');
    expect(pendingStep.page.html).toMatch(/<svg role="img" aria-label="QR code of your two-factor key"/);
    // No session yet: every other page asks to sign in.
    expect(cookieValue(await browser.signIn(member), 'dashboard_session')).toBeUndefined();
    const secret = totpSecretFromText(secretOf(pendingStep.page.html)!);
    // The same enrolment on a reload (it waits for its code).
    expect(secretOf((await browser.get('/dashboard/sign-in/second-factor', pendingStep.pending)).html)).toBe(secretOf(pendingStep.page.html));
    expect((await postCode(pendingStep, '000000')).status).toBe(422);
    const enrolled = await postCode(pendingStep, totpCode(secret, totpStepAt(new Date())));
    expect(enrolled.status).toBe(303);
    expect(enrolled.location).toBe(`${stack.baseUrl}/dashboard/security`);
    const shown = await browser.follow(enrolled, enrolled.cookie!);
    expect(recoveryCodesOf(shown.html)).toHaveLength(10);
    expect((await personItem(member.userId)).twoFactorEnabledAt).toEqual(expect.any(String));
  });

  test('while it is required, nobody removes their last second factor (422)', async () => {
    const org = await createMerchant(stack);
    const owner = await person('owner', org.orgId);
    const { session } = await enrol(owner);
    await browser.submit('/dashboard/security/require-two-factor', session, { require: 'on' });
    const refused = await browser.submit('/dashboard/security/two-factor/remove', session, { password: owner.password });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('Your organization requires two-factor authentication');
    expect((await personItem(owner.userId)).twoFactorEnabledAt).toEqual(expect.any(String));
  });
});

describe('passkeys', () => {
  /** A passkey registered on the Security page of `who` (signed in at `localhost`), by a software authenticator. */
  async function registerPasskey(who: Person, name = 'Laptop') {
    const session = await localhost.sessionOf(who);
    const page = await localhost.get('/dashboard/security', session);
    const fields = hiddenFieldsOf(page.html, '/dashboard/security/passkeys');
    const options = await fetch(`${localOrigin}/dashboard/security/passkeys/options`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: fields.csrf_token, page_mode: 'test' }),
    });
    expect(options.status).toBe(200);
    const authenticator = softAuthenticator();
    const credential = authenticator.create(await options.json(), localOrigin);
    const added = await localhost.submit('/dashboard/security/passkeys', session, { name, credential: JSON.stringify(credential) });
    return { session, authenticator, added, credential };
  }

  /** The passkey sign-in page's cookie and token, and options for the authenticator. */
  async function passkeyOptions() {
    const page = await localhost.get('/dashboard/sign-in/passkey');
    const signInCookie = cookieValue(page, 'dashboard_sign_in')!;
    const token = formTokenOf(page.html)!;
    const options = await localhost.post('/dashboard/sign-in/passkey/options', { csrf_token: token }, { cookie: signInCookie });
    return { signInCookie, token, options };
  }

  test('added with a name on the Security page: listed, the person item counts it; the next options exclude it and ask for a resident key with user verification', async () => {
    const who = await person();
    const { session, added, credential } = await registerPasskey(who, 'Work laptop');
    expect(added.status).toBe(303);
    const page = await localhost.follow(added, session);
    expect(page.html).toContain('The passkey “Work laptop” is added');
    expect(page.html).toContain('Work laptop');
    expect((await personItem(who.userId)).passkeyCount).toBe(1);
    const fields = hiddenFieldsOf(page.html, '/dashboard/security/passkeys');
    const next = await localhost.post('/dashboard/security/passkeys/options', { csrf_token: fields.csrf_token, page_mode: 'test' }, { cookie: session });
    expect(JSON.parse(next.html)).toMatchObject({
      rp: { id: 'localhost' },
      excludeCredentials: [{ id: credential.id }],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  });

  test('Sign in with a passkey: no email, both factors at once; the answer is used once', async () => {
    const who = await person();
    const { authenticator } = await registerPasskey(who);
    const { signInCookie, token, options } = await passkeyOptions();
    expect(options.status).toBe(200);
    const answer = authenticator.get(JSON.parse(options.html), localOrigin);
    const signedIn = await localhost.post('/dashboard/sign-in/passkey', { csrf_token: token, credential: JSON.stringify(answer) }, { cookie: signInCookie });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${localOrigin}/dashboard`);
    const overview = await localhost.get('/dashboard', signedIn.cookie);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain(who.email);
    const replayed = await localhost.post('/dashboard/sign-in/passkey', { csrf_token: token, credential: JSON.stringify(answer) }, { cookie: signInCookie });
    expect(replayed.status).toBe(401);
    expect(replayed.cookie).toBeUndefined();
  });

  test('a challenge past its 5 minutes is refused (401), and one issued to another browser too', async () => {
    const who = await person();
    const { authenticator } = await registerPasskey(who);
    const { signInCookie, token, options } = await passkeyOptions();
    const answer = authenticator.get(JSON.parse(options.html), localOrigin);
    const other = await passkeyOptions();
    expect((await localhost.post('/dashboard/sign-in/passkey', { csrf_token: other.token, credential: JSON.stringify(answer) }, { cookie: other.signInCookie })).status).toBe(401);
    // Age the challenge in the table (it was not taken by the refusal above: another browser's).
    const { Items } = await stack.db.send(new ScanCommand({ TableName: stack.tableName, FilterExpression: 'entity = :entity', ExpressionAttributeValues: { ':entity': 'webauthn_challenge' } }));
    for (const item of Items ?? []) {
      await stack.db.send(new UpdateCommand({ TableName: stack.tableName, Key: { PK: item.PK, SK: item.SK }, UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() } }));
    }
    expect((await localhost.post('/dashboard/sign-in/passkey', { csrf_token: token, credential: JSON.stringify(answer) }, { cookie: signInCookie })).status).toBe(401);
  });

  test("a registered passkey's answer that does not verify is a failed sign-in of its person: with four wrong passwords it locks the email, and the passkey is refused too (429 with Retry-After)", async () => {
    const who = await person();
    const { authenticator } = await registerPasskey(who);
    for (let attempt = 0; attempt < 4; attempt++) expect((await localhost.signIn({ email: who.email, password: 'not the password at all' })).status).toBe(401);
    // A verified answer gives its slot back.
    const verified = await passkeyOptions();
    const signedIn = await localhost.post('/dashboard/sign-in/passkey', { csrf_token: verified.token, credential: JSON.stringify(authenticator.get(JSON.parse(verified.options.html), localOrigin)) }, { cookie: verified.signInCookie });
    expect(signedIn.status).toBe(303);
    expect(await attemptWindow(stack, `email:${who.email}`)).toMatchObject({ count: 4 });
    // An answer to another browser's challenge does not verify: the fifth failure.
    const { options } = await passkeyOptions();
    const other = await passkeyOptions();
    const answer = JSON.stringify(authenticator.get(JSON.parse(options.html), localOrigin));
    expect((await localhost.post('/dashboard/sign-in/passkey', { csrf_token: other.token, credential: answer }, { cookie: other.signInCookie })).status).toBe(401);
    const locked = await passkeyOptions();
    const refused = await localhost.post('/dashboard/sign-in/passkey', { csrf_token: locked.token, credential: JSON.stringify(authenticator.get(JSON.parse(locked.options.html), localOrigin)) }, { cookie: locked.signInCookie });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(refused.html).toContain('Too many failed sign-ins for this email address: try again in 15 minutes.');
    expect(refused.cookie).toBeUndefined();
  });

  test('a person with a passkey is offered it after the password; a passkey counts as the owner\'s second factor for "require two-factor"', async () => {
    const org = await createMerchant(stack);
    const who = await person('owner', org.orgId);
    const { session } = await registerPasskey(who);
    expect((await localhost.submit('/dashboard/security/require-two-factor', session, { require: 'on' })).status).toBe(303);
    const step = await passwordStep(who, localhost);
    expect(step.page.html).toContain('data-passkey="sign-in"');
    expect(step.page.html).toContain('Use a passkey');
    expect(step.page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  test('removed: no longer listed nor counted; another person\'s passkey is 404', async () => {
    const who = await person();
    const { session, credential } = await registerPasskey(who);
    const stranger = await person();
    const strangerSession = await localhost.sessionOf(stranger);
    expect((await localhost.submit(`/dashboard/security/passkeys/${credential.id}/remove`, strangerSession, {})).status).toBe(404);
    const removed = await localhost.follow(await localhost.submit(`/dashboard/security/passkeys/${credential.id}/remove`, session, {}), session);
    expect(removed.html).toContain('The passkey is removed');
    expect((await personItem(who.userId)).passkeyCount).toBe(0);
  });

  test('a credential that is not JSON is 400 beside it, nothing kept', async () => {
    const who = await person();
    const session = await localhost.sessionOf(who);
    const refused = await localhost.submit('/dashboard/security/passkeys', session, { name: 'Laptop', credential: 'not json' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('The passkey did not answer: try again');
    expect((await personItem(who.userId)).passkeyCount).toBeUndefined();
  });
});
