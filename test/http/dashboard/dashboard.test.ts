import { newId } from '../../../shared/ids';
import { createPerson, putAttempt, type DashboardBrowser, type Person, rowOf, sectionOf, seedAccount, startDashboardStack, type SeededAccount } from '../../support/dashboard';
import { client } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let seeded: SeededAccount;
let foreignSeeded: SeededAccount;
let browser: DashboardBrowser;
let owner: Person;
/** A signed-in session of the merchant's owner, in test mode. */
let cookie: string;

beforeAll(async () => {
  ({ stack, browser, merchant, seeded, foreignSeeded, owner, cookie } = await startDashboardStack());
}, 60_000);
afterAll(() => stack.stop());

describe('sessions', () => {
  test('dashboard pages are not cacheable and cannot be framed', async () => {
    const result = await fetch(`${stack.baseUrl}/dashboard`, { headers: { cookie } });
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('a page opened without a session (a refund\'s links.dashboard) -> 401 sign-in form that returns to it, nothing of the refund', async () => {
    const result = await browser.get(`/dashboard/refunds/${seeded.heldRefundId}`);
    expect(result.status).toBe(401);
    expect(result.html).toContain('name="email"');
    expect(result.html).toContain(`name="return_to" value="/dashboard/refunds/${seeded.heldRefundId}"`);
    expect(result.html).not.toContain(seeded.heldRefundId + '</code>');
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

  test('mode follows the session: live data is not in the test dashboard, test data not in the live one', async () => {
    const live = await seedPaidPayment(stack, merchant, { mode: 'live' });
    const testHtml = (await browser.get('/dashboard', cookie)).html;
    expect(testHtml).toContain('Test mode');
    expect(testHtml).not.toContain(live.id);
    const liveHtml = (await browser.get('/dashboard', await browser.sessionOf(owner, 'live'))).html;
    expect(liveHtml).toContain('Live mode');
    expect(rowOf(sectionOf(liveHtml, 'payments'), live.id)).toContain('€10.00');
    expect(liveHtml).not.toContain(seeded.linkId);
  });

  test('empty states: a new account shows every section empty', async () => {
    const fresh = await createMerchant(stack);
    const result = await browser.get('/dashboard', await browser.sessionOf(await createPerson(stack, fresh.orgId)));
    for (const text of ['No payment links yet.', 'No payments yet.', 'No refunds yet.', 'No open chargebacks.', 'No webhook deliveries yet.', 'No balance yet']) {
      expect(result.html).toContain(text);
    }
  });

  test('an attempt without a response (timeout) is a failure with its error', async () => {
    const fresh = await createMerchant(stack);
    const account = await seedAccount(stack, fresh);
    await putAttempt(stack, account.eventId, { attempt: 1, at: new Date().toISOString(), url: 'https://hooks.example/slow', durationMs: 10_000, error: 'timed out after 10 s' });
    const section = sectionOf((await browser.get('/dashboard', await browser.sessionOf(await createPerson(stack, fresh.orgId)))).html, 'deliveries');
    const row = rowOf(section, 'https://hooks.example/slow')!;
    expect(row).toMatch(/^<tr class="failed">/);
    expect(row).toContain('>Failed</span> no response');
    expect(row).toContain('timed out after 10 s');
  });
});

describe('balance movements ({dashboard_url}/balance-transactions)', () => {
  test("the Balance page shows each currency's available total and what is on hold, as GET /v1/balance answers, above the movements", async () => {
    // Prepare
    const balance = (await client(stack.baseUrl, merchant.test).get('/v1/balance')).body;

    // Act
    const result = await browser.get('/dashboard/balance-transactions', cookie);

    // Assess
    expect(result.status).toBe(200);
    expect(result.html).toContain('<h1>Balance</h1>');
    expect(balance).toMatchObject({ available: [{ value: '-19.99', currency: 'eur' }], on_hold: [{ value: '5.00', currency: 'eur', refunds: 1 }] });
    const totals = sectionOf(result.html, 'available');
    const row = rowOf(totals, 'data-currency="EUR"')!;
    expect(row).toContain('data-field="available">-€19.99<');
    expect(row).toContain('data-field="on_hold">€5.00<');
    expect(result.html.indexOf('<h2 id="available">')).toBeLessThan(result.html.indexOf('<h2 id="movements">'));
  });

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

  test('balance movements: a bad cursor -> 422', async () => {
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
    const liveCookie = await browser.sessionOf(owner, 'live');
    const results = await Promise.all([
      browser.get(`/dashboard/refunds/${newId('refund')}`, cookie),
      browser.get(`/dashboard/refunds/${foreignSeeded.heldRefundId}`, cookie),
      browser.get(`/dashboard/refunds/${seeded.heldRefundId}`, liveCookie),
    ]);
    for (const result of results) expect(result.status).toBe(404);
    expect(new Set(results.map((result) => result.html)).size).toBe(1);
  });
});

describe('amounts as a customer reads them (issue 25)', () => {
  test('a JPY link and its payment read ¥1,000 in the lists and on their pages, a EUR one €19.99', async () => {
    const fresh = await createMerchant(stack);
    const api = client(stack.baseUrl, fresh.test);
    const yen = (await api.post('/v1/payment_links', { amount: { value: '1000', currency: 'JPY' }, acceptor_id: fresh.acceptorId })).body;
    const payment = (await api.post(`/v1/test_helpers/payment_links/${yen.id}/checkout`, {})).body;
    const freshCookie = await browser.sessionOf(await createPerson(stack, fresh.orgId));
    const overview = (await browser.get('/dashboard', freshCookie)).html;
    expect(rowOf(sectionOf(overview, 'payment-links'), yen.id)).toContain('¥1,000');
    expect(rowOf(sectionOf(overview, 'payments'), payment.id)).toContain('¥1,000');
    expect((await browser.get(`/dashboard/payment-links/${yen.id}`, freshCookie)).html).toContain('<dd>¥1,000</dd>');
    expect((await browser.get(`/dashboard/payments/${payment.id}`, freshCookie)).html).toContain('<dd>¥1,000</dd>');
    expect(rowOf(sectionOf((await browser.get('/dashboard', cookie)).html, 'payment-links'), seeded.linkId)).toContain('€19.99');
  });
});
