import { createPerson, dashboardBrowser, rowOf, type DashboardBrowser } from '../../support/dashboard';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';

/**
 * The API keys page and the Audit page (product-decisions §17) over HTTP, as a browser posts the
 * forms: keys made, rolled and revoked by a person follow the contract's key rules, each change
 * has its audit record naming the person, and the token is shown once.
 */
let stack: TestStack;
let browser: DashboardBrowser;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
}, 60_000);
afterAll(() => stack?.stop());

const shownToken = (html: string) => /<input id="revealed-secret" class="secret" type="text" value="((?:test|live)_[^"]+)"/.exec(html)?.[1];

async function account(role: 'owner' | 'admin' | 'developer' | 'viewer' = 'owner'): Promise<{ merchant: Merchant; person: Awaited<ReturnType<typeof createPerson>>; cookie: string }> {
  const merchant = await createMerchant(stack);
  const person = await createPerson(stack, merchant.orgId, role);
  return { merchant, person, cookie: await browser.sessionOf(person) };
}

async function createKey(cookie: string, fields: Record<string, string>) {
  const posted = await browser.submit('/dashboard/api-keys', cookie, fields);
  expect(posted.status).toBe(303);
  const page = await browser.follow(posted, cookie);
  return { page, token: shownToken(page.html)!, id: /Key (key_[0-9a-z]{26}) created/.exec(page.html)?.[1] };
}

test('a key made on the page works for its two scopes and gets 403 for a third; its token is shown once and the audit names the person', async () => {
  const { merchant, person, cookie } = await account();
  const { page, token, id } = await createKey(cookie, { name: 'Shop backend', 'scope.payment_link:read': 'on', 'scope.audit:read': 'on' });
  expect(page.status).toBe(200);
  expect(token).toMatch(/^test_[A-Za-z0-9_-]{32,}$/);
  const api = client(stack.baseUrl, token);
  expect((await api.get('/v1/payment_links')).status).toBe(200);
  expect((await api.get('/v1/audit_events')).status).toBe(200);
  expectEnvelope(await api.get('/v1/refunds'), 403);

  const again = await browser.get('/dashboard/api-keys', cookie);
  expect(again.html).not.toContain(token);
  expect(again.html).toContain(id!);
  expect(again.html).toContain('Shop backend');
  // Used a moment ago: its last use is shown to the minute (written once, not on every request).
  expect(rowOf(again.html, id!)).toMatch(/Last used[\s\S]*?\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  expect(rowOf(again.html, id!)).not.toContain('Never');

  const records = (await api.get(`/v1/audit_events?target_id=${id}`)).body.data;
  expect(records).toEqual([expect.objectContaining({ action: 'api_key.created', actor: { type: 'user', id: person.userId, email: person.email }, target: { type: 'api_key', id }, mode: 'test' })]);
  expect(JSON.stringify((await client(stack.baseUrl, merchant.test).get('/v1/audit_events?limit=100')).body)).not.toContain(token);
});

test('roll with "1 hour": both keys work; revoke: 401 within the key cache; each recorded', async () => {
  const { cookie } = await account();
  const first = await createKey(cookie, { name: 'Rolled', 'scope.audit:read': 'on' });
  const rolled = await browser.submit(`/dashboard/api-keys/${first.id}/roll`, cookie, { expires_in: '1 hour' });
  expect(rolled.status).toBe(303);
  const page = await browser.follow(rolled, cookie);
  const second = shownToken(page.html)!;
  expect(second).toMatch(/^test_/);
  expect(second).not.toBe(first.token);
  for (const token of [first.token, second]) expect((await client(stack.baseUrl, token).get('/v1/audit_events')).status).toBe(200);
  expect(page.html).toMatch(/expiring/);

  const revoked = await browser.submit(`/dashboard/api-keys/${first.id}/revoke`, cookie, {});
  expect(revoked.status).toBe(303);
  await waitUntil(async () => (await client(stack.baseUrl, first.token).get('/v1/audit_events')).status === 401, 'the revoked key refused', { timeoutMs: 6_000 });
  const actions = (await client(stack.baseUrl, second).get(`/v1/audit_events?target_id=${first.id}`)).body.data.map((event: { action: string }) => event.action);
  expect(actions).toEqual(['api_key.revoked', 'api_key.rolled', 'api_key.created']);
});

test('a form without a scope or a name comes back with the refusal, and records nothing', async () => {
  const { merchant, cookie } = await account();
  const before = (await client(stack.baseUrl, merchant.test).get('/v1/audit_events?action=api_key.created')).body.data;
  const refused = await browser.submit('/dashboard/api-keys', cookie, { name: 'No scopes' });
  expect(refused.status).toBe(400);
  expect(refused.html).toContain('scopes');
  expect((await browser.submit('/dashboard/api-keys', cookie, { name: '', 'scope.audit:read': 'on' })).status).toBe(400);
  expect((await client(stack.baseUrl, merchant.test).get('/v1/audit_events?action=api_key.created')).body.data).toEqual(before);
});

test('roles: a developer manages test-mode keys only, a viewer none; the Audit page is the owner\'s and admins\'', async () => {
  const developer = await account('developer');
  expect((await browser.get('/dashboard/api-keys', developer.cookie)).status).toBe(200);
  expect((await browser.get('/dashboard/audit', developer.cookie)).status).toBe(403);
  const live = await browser.sessionOf(developer.person, 'live');
  expect((await browser.get('/dashboard/api-keys', live)).status).toBe(403);
  expect((await browser.submit('/dashboard/api-keys', live, { name: 'Live', 'scope.audit:read': 'on' }, {}, 'live')).status).toBe(403);
  const viewer = await account('viewer');
  expect((await browser.get('/dashboard/api-keys', viewer.cookie)).status).toBe(403);
  expect((await browser.get('/dashboard', viewer.cookie)).html).not.toContain('/dashboard/api-keys"');
  const admin = await account('admin');
  const adminLive = await browser.sessionOf(admin.person, 'live');
  const made = await browser.submit('/dashboard/api-keys', adminLive, { name: 'Live backend', 'scope.payment:read': 'on' }, {}, 'live');
  expect(made.status).toBe(303);
  expect(shownToken((await browser.follow(made, adminLive)).html)).toMatch(/^live_/);
}, 120_000);

test('the Audit page: the trail of the page\'s mode with the API\'s filters; two filters at once come back as a 400', async () => {
  const merchant = await createMerchant(stack);
  const person = await createPerson(stack, merchant.orgId, 'owner');
  // Signed in through the form: the person's sign-in is a row of the trail.
  const cookie = await browser.sessionThroughForm(person);
  const { id } = await createKey(cookie, { name: 'Audited', 'scope.audit:read': 'on' });
  const page = await browser.get('/dashboard/audit', cookie);
  expect(page.status).toBe(200);
  expect(page.html).toContain('api_key.created</code>');
  expect(page.html).toContain('user.signed_in</code>');
  const ofKey = await browser.get(`/dashboard/audit?target_id=${id}&action=`, cookie);
  expect(ofKey.status).toBe(200);
  expect(ofKey.html).toContain(id!);
  expect(ofKey.html).not.toContain('user.signed_in</code>');
  const ofPerson = await browser.get(`/dashboard/audit?actor_id=${person.userId}`, cookie);
  expect(ofPerson.html).toContain('user.signed_in</code>');
  const both = await browser.get(`/dashboard/audit?target_id=${id}&action=api_key.created`, cookie);
  expect(both.status).toBe(400);
  expect(both.html).toContain('one of action, actor_id, target_id at a time');
});
