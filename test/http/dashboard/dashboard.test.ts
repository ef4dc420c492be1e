import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashToken } from '../../../shared/auth/tokens';
import { createDashboardSessionStore } from '../../../shared/db/dashboard-session-store';
import * as keys from '../../../shared/db/keys';
import { newId } from '../../../shared/ids';
import { putAttempt, type DashboardBrowser, rowOf, sectionOf, seedAccount, startDashboardStack, type SeededAccount } from '../../support/dashboard';
import { client } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, type Merchant, type TestStack } from '../../support/stack';
import { requestUntil } from '../../support/wait';

let stack: TestStack;
let merchant: Merchant;
let seeded: SeededAccount;
let foreignSeeded: SeededAccount;
let browser: DashboardBrowser;
/** A signed-in session of `merchant.test` (every scope). */
let cookie: string;

beforeAll(async () => {
  ({ stack, browser, merchant, seeded, foreignSeeded, cookie } = await startDashboardStack());
}, 60_000);
afterAll(() => stack.stop());

const keyIdOf = async (token: string) => (await stack.directory.keyStore.findKeyByTokenHash(hashToken(token)))!.keyId;

describe('sign-in', () => {
  test('sign-in: a valid key -> 303 to the dashboard with an HttpOnly SameSite=Strict session cookie', async () => {
    const result = await browser.signIn(merchant.test);
    expect(result.status).toBe(303);
    expect(result.location).toBe(`${stack.baseUrl}/dashboard`);
    const setCookie = result.setCookie.find((value) => value.startsWith('dashboard_session='))!;
    expect(setCookie).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=14400$/);
    expect(setCookie).not.toMatch(/Secure/); // the local stack is plain http
    expect((await browser.get('/dashboard', result.cookie)).status).toBe(200);
  });

  test('sign-in: the cookie holds a random id and the session item only the token hash, never the token', async () => {
    const result = await browser.signIn(merchant.test);
    const sessionId = result.cookie!.split('=')[1];
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.setCookie.join(';')).not.toContain(merchant.test);
    const stored = await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.dashboardSession(hashToken(sessionId)) }));
    expect(stored.Item).toMatchObject({ tokenHash: hashToken(merchant.test), expiresAtEpoch: expect.any(Number) });
    expect(JSON.stringify(stored.Item)).not.toContain(merchant.test);
    expect(JSON.stringify(stored.Item)).not.toContain(sessionId);
  });

  test('sign-in: the form is a labelled password field', async () => {
    const result = await browser.get('/dashboard');
    expect(result.status).toBe(200);
    expect(result.html).toContain('<label for="token">API key</label>');
    expect(result.html).toMatch(/<input id="token" name="token" type="password"/);
    expect(result.html).toContain(`action="${stack.baseUrl}/dashboard/session"`);
  });

  test.each([
    ['empty', ''],
    ['malformed', 'not-a-key'],
    ['unknown', `test_${'x'.repeat(43)}`],
  ])('sign-in: %s key -> 401, the form again with the reason and no cookie', async (_name, token) => {
    const result = await browser.signIn(token);
    expect(result.status).toBe(401);
    expect(result.html).toMatch(/role="alert"[^>]*>Missing or invalid API key</);
    expect(result.html).toContain('name="token"');
    expect(result.cookie).toBeUndefined();
  });

  test('sign-in: revoked key -> 401 naming the revocation', async () => {
    const token = await merchant.key();
    await stack.directory.revokeApiKey(await keyIdOf(token), 0);
    const result = await browser.signIn(token);
    expect(result.status).toBe(401);
    expect(result.html).toContain('The API key has been revoked');
  });

  test('sign-in: key created by a global admin -> 422 with the fixed detail', async () => {
    const admin = await stack.directory.createUser(merchant.orgId, 'admin');
    const result = await browser.signIn(await merchant.key({ creatorId: admin.userId }));
    expect(result.status).toBe(422);
    expect(result.html).toContain('API key configuration is invalid (creator role)');
  });

  test('sign-in: creator without the organization permission -> 403', async () => {
    const user = await stack.directory.createUser(merchant.orgId);
    const token = await merchant.key({ creatorId: user.userId });
    await stack.directory.updateUser(user.userId, { orgPermission: false });
    const result = await browser.signIn(token);
    expect(result.status).toBe(403);
    expect(result.html).toContain('no longer has permission');
  });

  test('sign-in: key without any read scope -> 403 naming the scopes it needs', async () => {
    const result = await browser.signIn(await merchant.key({ scopes: ['payment_link:create', 'refund:create'] }));
    expect(result.status).toBe(403);
    expect(result.html).toContain('at least one of the scopes payment_link:read, payment:read, refund:read, chargeback:read');
    expect(result.cookie).toBeUndefined();
  });

  test('sign-in: a form posted from another origin -> 403, no session', async () => {
    const result = await browser.signIn(merchant.test, {}, { origin: 'https://evil.example' });
    expect(result.status).toBe(403);
    expect(result.cookie).toBeUndefined();
  });

  test('sign-in: return_to leads back to a dashboard page, never elsewhere', async () => {
    const path = `/dashboard/refunds/${seeded.heldRefundId}`;
    expect((await browser.signIn(merchant.test, { return_to: path })).location).toBe(`${stack.baseUrl}${path}`);
    for (const elsewhere of ['https://evil.example/dashboard', '//evil.example', '/v1/payments', '/dashboardx']) {
      expect((await browser.signIn(merchant.test, { return_to: elsewhere })).location).toBe(`${stack.baseUrl}/dashboard`);
    }
  });
});

describe('sessions', () => {
  test('pages require a session: the refund page without one -> 401 sign-in form that returns to it', async () => {
    const result = await browser.get(`/dashboard/refunds/${seeded.heldRefundId}`);
    expect(result.status).toBe(401);
    expect(result.html).toContain('name="token"');
    expect(result.html).toContain(`name="return_to" value="/dashboard/refunds/${seeded.heldRefundId}"`);
    expect(result.html).not.toContain(seeded.heldRefundId + '</code>');
  });

  test('pages require a session: an unknown session cookie -> 401, the cookie is cleared', async () => {
    const result = await browser.get('/dashboard', `dashboard_session=${'a'.repeat(43)}`);
    expect(result.status).toBe(401);
    expect(result.html).toContain('Your dashboard session has ended; sign in again');
    expect(result.setCookie.some((value) => /^dashboard_session=; .*Max-Age=0/.test(value))).toBe(true);
    expect(result.html).not.toContain(seeded.linkId);
  });

  test('a session past its expiresAt -> 401 even while DynamoDB TTL has not removed the item yet', async () => {
    const sessionId = 'e'.repeat(43);
    const past = new Date(Date.now() - 1000).toISOString();
    await createDashboardSessionStore(stack.db, stack.tableName).create(sessionId, { tokenHash: hashToken(merchant.test), createdAt: past, expiresAt: past });
    const result = await browser.get('/dashboard', `dashboard_session=${sessionId}`);
    expect(result.status).toBe(401);
    expect(result.html).toContain('Your dashboard session has ended; sign in again');
  });

  test('sign-out: deletes the session; the old cookie no longer opens the dashboard', async () => {
    const session = (await browser.signIn(merchant.test)).cookie!;
    const out = await browser.signOut(session);
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${stack.baseUrl}/dashboard`);
    expect(out.setCookie.some((value) => /^dashboard_session=; .*Max-Age=0/.test(value))).toBe(true);
    expect((await browser.get('/dashboard', session)).status).toBe(401);
  });

  test('a revoked key: its open session stops working within seconds', async () => {
    const token = await merchant.key();
    const session = (await browser.signIn(token)).cookie!;
    expect((await browser.get('/dashboard', session)).status).toBe(200);
    await stack.directory.revokeApiKey(await keyIdOf(token), 0);
    // product-decisions §3: a change to a key takes effect within 5 seconds.
    const result = await requestUntil(() => browser.get('/dashboard', session), (page) => page.status === 401, "the revoked key's session refused", { by: Date.now() + 5_000 });
    expect(result.html).toContain('The API key has been revoked');
    expect(result.html).not.toContain(seeded.linkId);
  });

  test('dashboard pages are not cacheable and cannot be framed', async () => {
    const result = await fetch(`${stack.baseUrl}/dashboard`, { headers: { cookie } });
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('overview', () => {
  let html: string;
  beforeAll(async () => {
    const result = await browser.get('/dashboard', cookie);
    expect(result.status).toBe(200);
    html = result.html;
  });

  test('payment links: status and counters paid_count, payments_limit, remaining_payments', () => {
    const row = rowOf(sectionOf(html, 'payment-links'), seeded.linkId)!;
    expect(row).toContain('Concert ticket');
    expect(row).toContain('€19.99');
    expect(row).toContain('>active</span>');
    expect(row).toContain('data-field="paid_count">2<');
    expect(row).toContain('data-field="payments_limit">3<');
    expect(row).toContain('data-field="remaining_payments">1<');
  });

  test('payments: the recent paid payments of the account', () => {
    const section = sectionOf(html, 'payments');
    for (const id of seeded.paymentIds) expect(rowOf(section, id)).toContain('>paid</span>');
  });

  test('refunds: the on-hold refund is marked On hold, the processing one is not', () => {
    const section = sectionOf(html, 'refunds');
    const held = rowOf(section, seeded.heldRefundId)!;
    expect(held).toContain('>pending</span>');
    expect(held).toContain('>On hold</span>');
    expect(held).toContain('€5.00');
    const processing = rowOf(section, seeded.processingRefundId)!;
    expect(processing).toContain('>processing</span>');
    expect(processing).not.toContain('On hold');
  });

  test('chargebacks: only open ones, soonest deadline first, with their deadline_at', () => {
    const section = sectionOf(html, 'chargebacks');
    const [sooner, later] = seeded.openChargebacks;
    expect(section.indexOf(sooner.id)).toBeGreaterThan(-1);
    expect(section.indexOf(sooner.id)).toBeLessThan(section.indexOf(later.id));
    expect(rowOf(section, sooner.id)).toContain(`<time datetime="${sooner.deadlineAt}">${sooner.deadlineAt.slice(0, 16).replace('T', ' ')} UTC</time>`);
    expect(section).not.toContain(seeded.acceptedChargebackId);
  });

  test('webhook deliveries: newest first, the failed attempt highlighted with its status and error', () => {
    const section = sectionOf(html, 'deliveries');
    const failed = rowOf(section, 'https://hooks.example/broken')!;
    expect(failed).toMatch(/^<tr class="failed">/);
    expect(failed).toContain('>Failed</span> HTTP 500');
    expect(failed).toContain('HTTP 500 Internal Server Error');
    const ok = rowOf(section, 'https://hooks.example/ok')!;
    expect(ok).not.toContain('class="failed"');
    expect(ok).toContain('>Delivered</span> HTTP 200');
    expect(section.indexOf('hooks.example/broken')).toBeLessThan(section.indexOf('hooks.example/ok'));
  });

  test('balance: per currency what is available (the sum of its movements) and the refunds on hold, linked to every movement', () => {
    // Two payments of 19.99, a covered refund of 19.99 and chargebacks of 19.99, 10.00 and 9.99; the 5.00 refund waits on hold.
    const section = sectionOf(html, 'balance');
    const row = rowOf(section, 'data-currency="EUR"')!;
    expect(row).toContain('data-field="available">-€19.99<');
    expect(row).toContain('data-field="on_hold">€5.00<');
    expect(section).toContain(`href="${stack.baseUrl}/dashboard/balance-transactions">All movements</a>`);
  });

  test('every section says how much it shows, with a caption and column headers', () => {
    for (const id of ['payment-links', 'payments', 'refunds', 'chargebacks', 'deliveries']) {
      const section = sectionOf(html, id);
      expect(section).toMatch(new RegExp(`<h2 id="${id}">`));
      expect(section).toMatch(/<caption>[^<]*(20 newest|up to 20|20 most recent)[^<]*<\/caption>/);
      expect(section).toContain('<th scope="col">');
    }
  });

  test("a foreign organization's data never shows", () => {
    for (const id of [foreignSeeded.linkId, ...foreignSeeded.paymentIds, foreignSeeded.heldRefundId, foreignSeeded.openChargebacks[0].id]) {
      expect(html).not.toContain(id);
    }
    expect(html).not.toContain('Foreign ticket');
  });

  test('mode follows the key: live data is not in the test dashboard, test data not in the live one', async () => {
    const live = await seedPaidPayment(stack, merchant, { mode: 'live' });
    const testHtml = (await browser.get('/dashboard', cookie)).html;
    expect(testHtml).toContain('Test mode');
    expect(testHtml).not.toContain(live.id);
    const liveHtml = (await browser.get('/dashboard', (await browser.signIn(merchant.live)).cookie)).html;
    expect(liveHtml).toContain('Live mode');
    expect(rowOf(sectionOf(liveHtml, 'payments'), live.id)).toContain('€10.00');
    expect(liveHtml).not.toContain(seeded.linkId);
  });

  test('empty states: a new account shows every section empty', async () => {
    const fresh = await createMerchant(stack);
    const result = await browser.get('/dashboard', (await browser.signIn(fresh.test)).cookie);
    for (const text of ['No payment links yet.', 'No payments yet.', 'No refunds yet.', 'No open chargebacks.', 'No webhook deliveries yet.', 'No balance yet']) {
      expect(result.html).toContain(text);
    }
  });

  test('an attempt without a response (timeout) is a failure with its error', async () => {
    const fresh = await createMerchant(stack);
    const account = await seedAccount(stack, fresh);
    await putAttempt(stack, account.eventId, { attempt: 1, at: new Date().toISOString(), url: 'https://hooks.example/slow', durationMs: 10_000, error: 'timed out after 10 s' });
    const section = sectionOf((await browser.get('/dashboard', (await browser.signIn(fresh.test)).cookie)).html, 'deliveries');
    const row = rowOf(section, 'https://hooks.example/slow')!;
    expect(row).toMatch(/^<tr class="failed">/);
    expect(row).toContain('>Failed</span> no response');
    expect(row).toContain('timed out after 10 s');
  });

  test('a key sees only the sections of its scopes; the others name the missing scope', async () => {
    const token = await merchant.key({ scopes: ['payment_link:read'] });
    const result = await browser.get('/dashboard', (await browser.signIn(token)).cookie);
    expect(result.status).toBe(200);
    expect(rowOf(sectionOf(result.html, 'payment-links'), seeded.linkId)).toBeDefined();
    expect(sectionOf(result.html, 'payments')).toContain('lacks the scope <code>payment:read</code>');
    expect(sectionOf(result.html, 'refunds')).toContain('lacks the scope <code>refund:read</code>');
    expect(sectionOf(result.html, 'chargebacks')).toContain('lacks the scope <code>chargeback:read</code>');
    expect(sectionOf(result.html, 'balance')).toContain('lacks the scope <code>balance:read</code>');
    expect(result.html).not.toContain(seeded.heldRefundId);
  });
});

describe('balance movements ({dashboard_url}/balance-transactions)', () => {
  test('every movement newest first, signed, with its type and a link to its payment, refund or chargeback', async () => {
    const result = await browser.get('/dashboard/balance-transactions', cookie);
    expect(result.status).toBe(200);
    const entries = (await client(stack.baseUrl, merchant.test).get('/v1/balance_transactions?limit=20')).body.data;
    expect(entries.map((entry: { type: string }) => entry.type)).toEqual(['chargeback', 'chargeback', 'chargeback', 'refund', 'payment', 'payment']);
    for (const entry of entries) expect(result.html).toContain(`data-id="${entry.id}"`);
    expect(result.html.indexOf(entries[0].id)).toBeLessThan(result.html.indexOf(entries[5].id));
    const refund = rowOf(result.html, entries[3].id)!;
    expect(refund).toContain('-€19.99');
    expect(refund).toContain(`href="${stack.baseUrl}/dashboard/refunds/${seeded.processingRefundId}"`);
    expect(rowOf(result.html, entries[5].id)).toContain(`href="${stack.baseUrl}/dashboard/payments/${seeded.paymentIds[0]}"`);
    expect(result.html).not.toContain(foreignSeeded.paymentIds[0]);
  });

  test('balance movements: a key without balance:read -> 403 naming the scope; a bad cursor -> 422', async () => {
    const token = await merchant.key({ scopes: ['payment:read'] });
    const refused = await browser.get('/dashboard/balance-transactions', (await browser.signIn(token)).cookie);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('balance:read');
    expect((await browser.get('/dashboard/balance-transactions?starting_after=btx_nope', cookie)).status).toBe(422);
  });
});

describe('refund page ({dashboard_url}/refunds/{id}, the refund links.dashboard)', () => {
  test('refund page: the on-hold refund with its status and amount', async () => {
    const result = await browser.get(`/dashboard/refunds/${seeded.heldRefundId}`, cookie);
    expect(result.status).toBe(200);
    expect(result.html).toContain(`<h1>Refund ${seeded.heldRefundId}</h1>`);
    expect(result.html).toContain('>On hold</span>');
    expect(result.html).toContain('€5.00');
  });

  test('refund page: unknown, foreign and other-mode refunds -> the same 404', async () => {
    const liveCookie = (await browser.signIn(merchant.live)).cookie;
    const results = await Promise.all([
      browser.get(`/dashboard/refunds/${newId('refund')}`, cookie),
      browser.get(`/dashboard/refunds/${foreignSeeded.heldRefundId}`, cookie),
      browser.get(`/dashboard/refunds/${seeded.heldRefundId}`, liveCookie),
    ]);
    for (const result of results) expect(result.status).toBe(404);
    expect(new Set(results.map((result) => result.html)).size).toBe(1);
  });

  test('refund page: a key without refund:read -> 403', async () => {
    const token = await merchant.key({ scopes: ['payment_link:read'] });
    const result = await browser.get(`/dashboard/refunds/${seeded.heldRefundId}`, (await browser.signIn(token)).cookie);
    expect(result.status).toBe(403);
    expect(result.html).not.toContain('€5.00');
  });
});

describe('amounts as a customer reads them (issue 25)', () => {
  test('a JPY link and its payment read ¥1,000 in the lists and on their pages, a EUR one €19.99', async () => {
    const fresh = await createMerchant(stack);
    const api = client(stack.baseUrl, fresh.test);
    const yen = (await api.post('/v1/payment_links', { amount: { value: '1000', currency: 'JPY' }, acceptor_id: fresh.acceptorId })).body;
    const payment = (await api.post(`/v1/test_helpers/payment_links/${yen.id}/checkout`, {})).body;
    const freshCookie = (await browser.signIn(fresh.test)).cookie;
    const overview = (await browser.get('/dashboard', freshCookie)).html;
    expect(rowOf(sectionOf(overview, 'payment-links'), yen.id)).toContain('¥1,000');
    expect(rowOf(sectionOf(overview, 'payments'), payment.id)).toContain('¥1,000');
    expect((await browser.get(`/dashboard/payment-links/${yen.id}`, freshCookie)).html).toContain('<dd>¥1,000</dd>');
    expect((await browser.get(`/dashboard/payments/${payment.id}`, freshCookie)).html).toContain('<dd>¥1,000</dd>');
    expect(rowOf(sectionOf((await browser.get('/dashboard', cookie)).html, 'payment-links'), seeded.linkId)).toContain('€19.99');
  });
});
