import * as keys from '../../../shared/db/keys';
import { LIMITS } from '../../../shared/limits';
import { createPerson, dashboardBrowser, expire, linkIn, mailTo, type DashboardBrowser, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Password reset by email (product-decisions §16) over HTTP, read from the local mailbox's JSON:
 * `Forgot password?` answers the same for any email; a person gets a link valid one hour, single
 * use; the new password ends every session and signs nobody in.
 */
let stack: TestStack;
let merchant: Merchant;
let browser: DashboardBrowser;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  merchant = await createMerchant(stack);
}, 60_000);
afterAll(() => stack.stop());

const NEW_PASSWORD = 'a brand new password';
/** The requests asked so far: every one comes from 127.0.0.1, and the address's limit counts them all. */
let asked = 0;
/** Asks for a reset of `email` from the forgot-password page. */
const ask = (email: string) => (asked++, browser.postSignedOut('/dashboard/forgot-password', { email }));
const setPassword = (link: string, password = NEW_PASSWORD) => browser.postSignedOut(link, { password });
const resetIdOf = (link: string) => link.split('/').pop()!.split('.')[0];

async function resetLinkOf(person: Person): Promise<string> {
  expect((await ask(person.email)).status).toBe(303);
  const [message] = await mailTo(stack, person.email);
  return linkIn(message);
}

describe('asking (no enumeration)', () => {
  test('a person\'s email and an unknown one get the same answer; only the person gets an email', async () => {
    const person = await createPerson(stack, merchant.orgId, 'support');
    const unknown = `nobody-${Date.now()}@example.com`;
    const [known, stranger] = [await ask(person.email), await ask(unknown)];
    expect({ status: known.status, location: known.location, html: known.html }).toEqual({ status: stranger.status, location: stranger.location, html: stranger.html });
    expect(known.status).toBe(303);
    const page = await browser.get(new URL(known.location!).pathname + new URL(known.location!).search);
    expect(page.html).toContain('If this email address belongs to a person of a dashboard, a link to choose a new password is on its way');
    const [message] = await mailTo(stack, person.email);
    expect(message.subject).toBe('Reset your Payment operations password');
    expect(linkIn(message)).toMatch(/^\/dashboard\/password-reset\/usr_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}$/);
    expect(await mailTo(stack, unknown)).toEqual([]);
  });

  test(`past ${LIMITS.passwordResetRequests.perEmail} requests an hour for one email the answer stays the same and no more email goes out`, async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const answers = [];
    for (let i = 0; i <= LIMITS.passwordResetRequests.perEmail; i++) answers.push((await ask(person.email)).status);
    expect(answers).toEqual(Array(LIMITS.passwordResetRequests.perEmail + 1).fill(303));
    expect(await mailTo(stack, person.email)).toHaveLength(LIMITS.passwordResetRequests.perEmail);
  });
});

describe('the link (single use, one hour)', () => {
  test('the new password is set, every session of the person ends, the old password no longer signs in, and nobody is signed in by it', async () => {
    const person = await createPerson(stack, merchant.orgId, 'finance');
    const [first, second] = [await browser.sessionOf(person), await browser.sessionOf(person)];
    const link = await resetLinkOf(person);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain(person.email);
    const set = await setPassword(link);
    expect(set.status).toBe(303);
    expect(set.location).toBe(`${stack.baseUrl}/dashboard/forgot-password?done`);
    expect(set.cookie).toBeUndefined();
    for (const session of [first, second]) expect((await browser.get('/dashboard', session)).status).toBe(401);
    expect((await browser.signIn(person)).status).toBe(401);
    expect((await browser.signIn({ email: person.email, password: NEW_PASSWORD })).status).toBe(303);
  });

  test('a used link answers 404 (its page and its form); a newer request replaces an older link', async () => {
    const person = await createPerson(stack, merchant.orgId, 'operator');
    const older = await resetLinkOf(person);
    const newer = await resetLinkOf(person);
    expect((await browser.get(older)).status).toBe(404);
    expect((await setPassword(newer)).status).toBe(303);
    const again = await browser.get(newer);
    expect(again.status).toBe(404);
    expect(again.html).toContain('This password reset link no longer works');
  });

  test('an expired link answers 404', async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const link = await resetLinkOf(person);
    await expire(stack, keys.passwordReset(resetIdOf(link)));
    expect((await browser.get(link)).status).toBe(404);
    expect((await browser.signIn(person)).status).toBe(303);
  });

  test('a password against the rules -> the form again, 422 beside it; the link still works', async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const link = await resetLinkOf(person);
    const refused = await setPassword(link, person.email);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('A password cannot be your email address');
    expect((await setPassword(link)).status).toBe(303);
  });

  test('a removed member\'s link stops working', async () => {
    const owner = await createPerson(stack, merchant.orgId, 'owner');
    const person = await createPerson(stack, merchant.orgId, 'developer');
    const link = await resetLinkOf(person);
    const removed = await browser.submit(`/dashboard/team/members/${person.userId}/remove`, await browser.sessionOf(owner), { confirm: 'on' });
    expect(removed.status).toBe(303);
    expect((await browser.get(link)).status).toBe(404);
    expect((await setPassword(link)).status).toBe(404);
  });
});

describe('the address\'s limit (last: it takes what the others left of it)', () => {
  test(`past ${LIMITS.passwordResetRequests.perAddress} requests an hour from one address: 429 with Retry-After, whatever the email`, async () => {
    while (asked < LIMITS.passwordResetRequests.perAddress) expect((await ask(`someone-${asked}@example.com`)).status).toBe(303);
    const refused = await ask('anyone@example.com');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.html).toContain('Too many password reset requests from your network');
  }, 60_000);
});
