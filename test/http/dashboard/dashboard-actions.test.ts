import { firstIdAt, newId } from '../../../shared/ids';
import { createPerson, hiddenFieldsOf, putAttempt, rowOf, sectionOf, startDashboardStack, type DashboardAnswer, type DashboardBrowser, type Person, type SeededAccount } from '../../support/dashboard';
import { eventsFor, outboxEvents } from '../../support/events';
import { ISO_4217 } from '../../../shared/iso-4217';
import { client, expectEnvelope } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * The dashboard's forms act through the API's use cases with the scopes of the person's role, and
 * only with the session's form token; its lists page with the API's cursors. Over HTTP, as a
 * browser posts forms.
 */
let stack: TestStack;
let merchant: Merchant;
let foreign: Merchant;
let seeded: SeededAccount;
let foreignSeeded: SeededAccount;
let api: Api;
let browser: DashboardBrowser;
let owner: Person;
/** A signed-in session of the merchant's owner (every permission), in test mode. */
let cookie: string;

beforeAll(async () => {
  ({ stack, browser, merchant, foreign, seeded, foreignSeeded, owner, cookie } = await startDashboardStack());
  api = client(stack.baseUrl, merchant.test);
}, 60_000);
afterAll(() => stack.stop());

const linkFields = (extra: Record<string, string> = {}) => ({
  'amount.value': '12.50',
  'amount.currency': 'eur',
  description: 'Yoga class',
  acceptor_id: merchant.acceptorId,
  payments_limit: '5',
  'expires_at.date': '2099-01-01',
  'expires_at.time': '12:30',
  collect_email: 'on',
  ...extra,
});

const linksOfMerchant = async () => (await api.get('/v1/payment_links?limit=100')).body.data as { id: string; description: string }[];

/** The text of the inline error next to a field (`<p class="field-error" id="{form}-{field}-error">`). */
const fieldError = (html: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];

describe('cross-site protection', () => {
  test('the session cookie is SameSite=Strict and HttpOnly; the sign-in form has its own SameSite=Strict cookie', async () => {
    const signedIn = await browser.signIn(owner);
    expect(signedIn.setCookie.find((value) => value.startsWith('dashboard_session='))).toMatch(/HttpOnly; SameSite=Strict/);
    const form = await browser.get('/dashboard');
    expect(form.setCookie.find((value) => value.startsWith('dashboard_sign_in='))).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=3600$/);
  });

  test('every form of a page carries the session form token, which is not the session id', async () => {
    const link = await browser.get(`/dashboard/payment-links/${seeded.linkId}`, cookie);
    const forms = link.html.match(/<form[^>]*method="post"[\s\S]*?<\/form>/g)!;
    expect(forms.length).toBe(4); // mode switch, sign-out, deactivate, edit
    const token = await browser.tokenOf(cookie);
    for (const form of forms) expect(form).toContain(`name="csrf_token" value="${token}"`);
    expect(token).not.toBe(cookie.split('=')[1]);
    expect(await browser.tokenOf(await browser.sessionOf(owner))).not.toBe(token);
  });

  test.each([
    ['without a token', {}],
    ['with an empty token', { csrf_token: '' }],
    ['with a wrong token', { csrf_token: 'x'.repeat(43) }],
  ])('create a link %s -> 403, nothing created', async (_name, token) => {
    const before = await linksOfMerchant();
    const result = await browser.post('/dashboard/payment-links', { ...linkFields({ description: 'Forged' }), ...token }, { cookie });
    expect(result.status).toBe(403);
    expect(result.html).toContain('not sent from a page of your dashboard session');
    expect(await linksOfMerchant()).toEqual(before);
  });

  test("a form with another session's token -> 403, nothing changed", async () => {
    const other = await browser.sessionOf(owner);
    const result = await browser.post(
      `/dashboard/payment-links/${seeded.linkId}`,
      { status: 'inactive', csrf_token: await browser.tokenOf(other) },
      { cookie },
    );
    expect(result.status).toBe(403);
    expect((await api.get(`/v1/payment_links/${seeded.linkId}`)).body.status).toBe('active');
  });

  test('a refund posted from another origin, even with the token -> 403, no refund', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '20.00' });
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '1.00' }, { origin: 'https://evil.example' });
    expect(result.status).toBe(403);
    expect((await api.get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id)).toEqual([]);
  });

  test('sign-out without the token -> 403 and the session stays open', async () => {
    const session = await browser.sessionOf(owner);
    expect((await browser.post('/dashboard/sign-out', {}, { cookie: session })).status).toBe(403);
    expect((await browser.get('/dashboard', session)).status).toBe(200);
  });

  test("sign-in without the sign-in form's cookie or token -> 403 and no session", async () => {
    const form = await browser.get('/dashboard');
    const token = /name="csrf_token" value="([^"]+)"/.exec(form.html)![1];
    const signInCookie = form.setCookie.find((value) => value.startsWith('dashboard_sign_in='))!.split(';')[0];
    for (const [fields, headers] of [
      [{ email: owner.email, password: owner.password }, { cookie: signInCookie }],
      [{ email: owner.email, password: owner.password, csrf_token: token }, {}],
      [{ email: owner.email, password: owner.password, csrf_token: token }, { cookie: (await browser.get('/dashboard')).setCookie.find((value) => value.startsWith('dashboard_sign_in='))!.split(';')[0] }],
    ] as [Record<string, string>, Record<string, string>][]) {
      const result = await browser.post('/dashboard/session', fields, headers);
      expect(result.status).toBe(403);
      expect(result.cookie).toBeUndefined();
      expect(result.html).toContain('name="email"');
    }
  });

  test("a form without a session -> 303 to the form's page, which asks to sign in (401); nothing created", async () => {
    const before = await linksOfMerchant();
    const result = await browser.post('/dashboard/payment-links', linkFields({ csrf_token: 'x' }));
    expect([result.status, result.location]).toEqual([303, `${stack.baseUrl}/dashboard/payment-links/new`]);
    const page = await browser.get('/dashboard/payment-links/new');
    expect(page.status).toBe(401);
    expect(page.html).toContain('name="return_to" value="/dashboard/payment-links/new"');
    expect(await linksOfMerchant()).toEqual(before);
  });
});

describe('roles: each form needs the scope of the API operation it performs in the role', () => {
  test.each([
    ['create a link', 'payment_link:create', () => ['/dashboard/payment-links', linkFields()]],
    ['update a link', 'payment_link:update', () => [`/dashboard/payment-links/${seeded.linkId}`, { status: 'inactive' }]],
    ['refund a payment', 'refund:create', () => [`/dashboard/payments/${seeded.paymentIds[1]}/refunds`, { 'amount.value': '1.00' }]],
  ] as [string, string, () => [string, Record<string, string>]][])('%s without %s (a viewer) -> 403 naming it, nothing changed', async (_name, scope, request) => {
    const session = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'viewer'));
    const [path, fields] = request();
    const [links, refunds, link] = [await linksOfMerchant(), (await api.get('/v1/refunds?limit=100')).body.data, (await api.get(`/v1/payment_links/${seeded.linkId}`)).body];
    const result = await browser.submit(path, session, fields);
    expect(result.status).toBe(403);
    expect(result.html).toContain(`Your role, Viewer, does not allow this (${scope})`);
    expect(await linksOfMerchant()).toEqual(links);
    expect((await api.get('/v1/refunds?limit=100')).body.data).toEqual(refunds);
    expect((await api.get(`/v1/payment_links/${seeded.linkId}`)).body).toEqual(link);
  });

  test('the create form itself needs payment_link:create; pages offer only the actions the role may take', async () => {
    const session = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'viewer'));
    expect((await browser.get('/dashboard/payment-links/new', session)).status).toBe(403);
    expect((await browser.get('/dashboard/payment-links', session)).html).not.toContain('Create a payment link');
    const link = (await browser.get(`/dashboard/payment-links/${seeded.linkId}`, session)).html;
    expect(link).not.toContain('>Deactivate</button>');
    expect(link).not.toContain('Save changes');
    const payment = (await browser.get(`/dashboard/payments/${seeded.paymentIds[1]}`, session)).html;
    expect(payment).not.toContain('>Refund</button>');
  });
});

describe('create a payment link', () => {
  test('the form -> 303 to the new link\'s page; the link is the API\'s, with its created event', async () => {
    const result = await browser.submit('/dashboard/payment-links', cookie, linkFields());
    expect(result.status).toBe(303);
    const id = /\/dashboard\/payment-links\/(pl_\w+)$/.exec(result.location!)![1];
    expect((await api.get(`/v1/payment_links/${id}`)).body).toMatchObject({
      status: 'active',
      amount: { value: 12.5, currency: 'EUR' },
      description: 'Yoga class',
      payments_limit: 5,
      expires_at: '2099-01-01T12:30:00.000Z',
      acceptor_id: merchant.acceptorId,
    });
    expect(eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.created', id)).toHaveLength(1);
    const page = await browser.get(`/dashboard/payment-links/${id}`, cookie);
    expect(page.html).toContain(`<h1>Payment link ${id}</h1>`);
    expect(page.html).toContain('<dt>Collects</dt><dd>email</dd>');
  });

  test.each([
    ['no amount', { 'amount.value': '' }, 422, 'create-link-amount-value', 'amount.value is required'],
    ['a zero amount', { 'amount.value': '0' }, 422, 'create-link-amount-value', 'amount.value must be positive'],
    ['an amount that is no number', { 'amount.value': 'ten' }, 400, 'create-link-amount-value', 'amount.value: must be a decimal with at most two fraction digits'],
    ['a limit of 0', { payments_limit: '0' }, 422, 'create-link-payments_limit', 'payments_limit must be at least 1'],
    ['a limit that is no integer', { payments_limit: '2.5' }, 400, 'create-link-payments_limit', 'payments_limit: Invalid input: expected number, received string'],
    ['an expiry that is no date', { 'expires_at.date': 'soon', 'expires_at.time': '' }, 400, 'create-link-expires_at', 'must be an ISO 8601 datetime with a time zone'],
    ['an expiry date without its time', { 'expires_at.time': '' }, 400, 'create-link-expires_at', 'must be an ISO 8601 datetime with a time zone'],
    ['a currency of four letters', { 'amount.currency': 'EURO' }, 400, 'create-link-amount-currency', 'amount.currency: must be a three-letter currency code'],
  ])('%s (%j) -> %i, the form again with the error next to the field and the values kept, nothing created', async (_name, fields, status, field, detail) => {
    const before = await linksOfMerchant();
    const result = await browser.submit('/dashboard/payment-links', cookie, linkFields(fields as Record<string, string>));
    expect(result.status).toBe(status);
    expect(result.html).toContain('<h1>Create a payment link</h1>');
    expect(fieldError(result.html, field)).toBe(detail);
    // The control, or each of the expiry's date and time.
    expect(result.html).toMatch(new RegExp(`id="${field}(-date)?"[^>]*aria-describedby="[^"]*${field}-error"[^>]*aria-invalid="true"`));
    expect(result.html).toContain('value="Yoga class"');
    expect(await linksOfMerchant()).toEqual(before);
  });

  test("the form's errors are the API's own: the same status, detail and attribute", async () => {
    const cases: [Record<string, string>, Record<string, unknown>][] = [
      [{ 'amount.value': '0' }, { amount: { value: '0', currency: 'eur' } }],
      [{ 'amount.value': '' }, { amount: undefined }],
      [{ payments_limit: '2.5' }, { payments_limit: '2.5' }],
      [{ 'expires_at.date': 'soon', 'expires_at.time': '' }, { expires_at: 'soon' }],
    ];
    for (const [fields, body] of cases) {
      const form = await browser.submit('/dashboard/payment-links', cookie, linkFields(fields));
      const answer = await api.post('/v1/payment_links', { amount: { value: '12.50', currency: 'eur' }, acceptor_id: merchant.acceptorId, ...body });
      expect(form.status).toBe(answer.status);
      expect(fieldError(form.html, `create-link-${answer.body.attribute.replace('.', '-')}`)).toBe(answer.body.detail);
    }
  });

  test('an acceptor of another organization -> 422 next to the acceptor, as the API answers', async () => {
    const result = await browser.submit('/dashboard/payment-links', cookie, linkFields({ acceptor_id: foreign.acceptorId }));
    expect(result.status).toBe(422);
    expect(fieldError(result.html, 'create-link-acceptor_id')).toBe('acceptor_id does not name an acceptor of this organization');
  });

  test('an amount typed with a decimal comma (15,00) is taken as the API\'s 15.00; the API itself keeps its pattern', async () => {
    // Act
    const result = await browser.submit('/dashboard/payment-links', cookie, linkFields({ 'amount.value': '15,00' }));
    const direct = await api.post('/v1/payment_links', { amount: { value: '15,00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });

    // Assess
    expect(result.status).toBe(303);
    expect((await api.get(`/v1/payment_links/${result.location!.split('/').pop()}`)).body.amount).toEqual({ value: 15, currency: 'EUR' });
    expectEnvelope(direct, 400, 'amount.value');
  });

  test('the currency is a select of every ISO 4217 code, once each: the major currencies first, then the rest alphabetically; EUR chosen', async () => {
    // Act
    const html = (await browser.get('/dashboard/payment-links/new', cookie)).html;

    // Assess
    const select = /<select id="create-link-amount-currency" name="amount.currency"[^>]*>([\s\S]*?)<\/select>/.exec(html)![1];
    const codes = [...select.matchAll(/<option value="([A-Z]{3})"/g)].map((match) => match[1]);
    const iso = Object.values(ISO_4217.codesByMinorDigits).flatMap((list) => list.split(/\s+/));
    expect([...codes].sort()).toEqual([...iso].sort());
    const majors = codes.slice(0, codes.indexOf('AED'));
    expect(majors.slice(0, 4)).toEqual(['EUR', 'USD', 'GBP', 'CHF']);
    expect(codes.slice(majors.length)).toEqual(iso.filter((code) => !majors.includes(code)).sort());
    expect(select).toContain('<option value="EUR" selected>EUR</option>');
  });

  test('the expiry is a UTC date and a UTC time under one legend; a link\'s edit form shows its stored expiry in them', async () => {
    // Prepare
    const id = (await browser.submit('/dashboard/payment-links', cookie, linkFields({ 'expires_at.date': '2099-03-01', 'expires_at.time': '18:05' }))).location!.split('/').pop()!;

    // Act
    const form = (await browser.get('/dashboard/payment-links/new', cookie)).html;
    const page = (await browser.get(`/dashboard/payment-links/${id}`, cookie)).html;

    // Assess
    expect((await api.get(`/v1/payment_links/${id}`)).body.expires_at).toBe('2099-03-01T18:05:00.000Z');
    expect(form).toContain('<legend>Expires (UTC)</legend>');
    expect(form).toContain('<label for="create-link-expires_at-time">Time (UTC)</label>');
    expect(form).not.toContain('datetime-local');
    expect(page).toMatch(/id="edit-link-expires_at-date" name="expires_at.date" type="date" value="2099-03-01"/);
    expect(page).toMatch(/id="edit-link-expires_at-time" name="expires_at.time" type="time" value="18:05"/);
  });

  test('the form offers the acceptors of the organization (a person is bound to none)', async () => {
    const second = await stack.directory.createAcceptor(merchant.orgId, 'Pop-up store');
    const all = (await browser.get('/dashboard/payment-links/new', cookie)).html;
    expect(all).toContain(`<option value="${merchant.acceptorId}" selected>Web shop</option>`);
    expect(all).toContain(`<option value="${second.id}">Pop-up store</option>`);
  });
});

describe('a payment link\'s page and its forms', () => {
  test('reached without opening the checkout: looking creates no payment and no event', async () => {
    const overview = await browser.get('/dashboard', cookie);
    expect(rowOf(sectionOf(overview.html, 'payment-links'), seeded.linkId)).toContain(`href="${stack.baseUrl}/dashboard/payment-links/${seeded.linkId}"`);
    expect(overview.html).not.toContain(`href="${stack.baseUrl}/checkout/`);
    const [payments, events] = [(await api.get(`/v1/payment_links/${seeded.linkId}/payments`)).body.data, await outboxEvents(stack, merchant.orgId)];
    const page = await browser.get(`/dashboard/payment-links/${seeded.linkId}`, cookie);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<dd data-field="paid_count">2</dd>');
    expect(page.html).toContain('<dd data-field="remaining_payments">1</dd>');
    expect(page.html).not.toContain(`href="${stack.baseUrl}/checkout/`);
    expect((await api.get(`/v1/payment_links/${seeded.linkId}/payments`)).body.data).toEqual(payments);
    expect(await outboxEvents(stack, merchant.orgId)).toEqual(events);
  });

  test('its payments and its events with their delivery attempts; no other link\'s', async () => {
    const other = (await browser.submit('/dashboard/payment-links', cookie, linkFields({ description: 'Other' }))).location!.split('/').pop()!;
    const html = (await browser.get(`/dashboard/payment-links/${seeded.linkId}`, cookie)).html;
    const payments = sectionOf(html, 'link-payments');
    for (const id of seeded.paymentIds) expect(rowOf(payments, id)).toContain('>paid</span>');
    const events = sectionOf(html, 'link-events');
    const created = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.created', seeded.linkId)[0];
    expect(rowOf(events, created.id)).toContain('transactions.<wbr>payment_link.<wbr>created');
    const ofOther = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.created', other)[0];
    expect(events).not.toContain(ofOther.id);
  });

  test("an event's delivery attempts show on its link's page, the failed one marked", async () => {
    const created = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.created', seeded.linkId)[0];
    await putAttempt(stack, created.id, { attempt: 1, at: new Date().toISOString(), url: 'https://hooks.example/links', statusCode: 503, durationMs: 80, error: 'HTTP 503' });
    const row = rowOf(sectionOf((await browser.get(`/dashboard/payment-links/${seeded.linkId}`, cookie)).html, 'link-events'), created.id)!;
    expect(row).toContain('<li class="failed"><span class="badge bad">Failed</span> HTTP 503');
    expect(row).toContain('https://hooks.example/links');
  });

  test('the events of a link page: newest first, `events_after` pages on', async () => {
    const link = (await browser.submit('/dashboard/payment-links', cookie, linkFields({ payments_limit: '' }))).location!.split('/').pop()!;
    for (let i = 0; i < 3; i++) await browser.submit(`/dashboard/payment-links/${link}`, cookie, { description: `Edit ${i}`, payments_limit: '', 'expires_at.date': '', 'expires_at.time': '' });
    const ids = (await outboxEvents(stack, merchant.orgId)).filter((event) => event.data.id === link).map((event) => event.id).reverse();
    expect(ids).toHaveLength(4);
    const first = (await browser.get(`/dashboard/payment-links/${link}`, cookie)).html;
    expect(sectionOf(first, 'link-events').match(/data-id="(evt_\w+)"/g)!.map((match) => match.slice(9, -1))).toEqual(ids);
    const paged = (await browser.get(`/dashboard/payment-links/${link}?events_after=${ids[1]}`, cookie)).html;
    expect(sectionOf(paged, 'link-events').match(/data-id="(evt_\w+)"/g)!.map((match) => match.slice(9, -1))).toEqual(ids.slice(2));
  });

  test('edit description, limit and expiry -> 303 back; the API shows the change and its event', async () => {
    const id = (await browser.submit('/dashboard/payment-links', cookie, linkFields())).location!.split('/').pop()!;
    const result = await browser.submit(`/dashboard/payment-links/${id}`, cookie, { description: 'Yoga, advanced', payments_limit: '8', 'expires_at.date': '2098-06-01', 'expires_at.time': '08:00' });
    expect(result.status).toBe(303);
    expect(result.location).toBe(`${stack.baseUrl}/dashboard/payment-links/${id}`);
    expect((await api.get(`/v1/payment_links/${id}`)).body).toMatchObject({ description: 'Yoga, advanced', payments_limit: 8, expires_at: '2098-06-01T08:00:00.000Z' });
    expect(eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.properties.changed', id)).toHaveLength(1);
    await browser.submit(`/dashboard/payment-links/${id}`, cookie, { description: 'Yoga, advanced', payments_limit: '', 'expires_at.date': '', 'expires_at.time': '' });
    expect((await api.get(`/v1/payment_links/${id}`)).body).toMatchObject({ payments_limit: null, expires_at: null });
  });

  test('a limit below the paid count -> 422 next to the limit, the link unchanged', async () => {
    const before = (await api.get(`/v1/payment_links/${seeded.linkId}`)).body;
    const result = await browser.submit(`/dashboard/payment-links/${seeded.linkId}`, cookie, { description: 'x', payments_limit: '1', 'expires_at.date': '', 'expires_at.time': '' });
    expect(result.status).toBe(422);
    expect(fieldError(result.html, 'edit-link-payments_limit')).toBe('payments_limit cannot be set below the count of payments already completed');
    expect(result.html).toContain('id="edit-link-payments_limit" name="payments_limit" type="number" value="1"');
    expect((await api.get(`/v1/payment_links/${seeded.linkId}`)).body).toEqual(before);
  });

  test('deactivate, then reactivate -> inactive, then active again', async () => {
    const id = (await browser.submit('/dashboard/payment-links', cookie, linkFields())).location!.split('/').pop()!;
    expect((await browser.submit(`/dashboard/payment-links/${id}`, cookie, { status: 'inactive', confirm: 'on' })).status).toBe(303);
    expect((await api.get(`/v1/payment_links/${id}`)).body.status).toBe('inactive');
    expect((await browser.get(`/dashboard/payment-links/${id}`, cookie)).html).toContain('>Reactivate</button>');
    expect((await browser.submit(`/dashboard/payment-links/${id}`, cookie, { status: 'active' })).status).toBe(303);
    expect((await api.get(`/v1/payment_links/${id}`)).body.status).toBe('active');
  });

  test('reactivating an expired link -> 422 shown above the page; a status outside active/inactive -> 400', async () => {
    const id = (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, expires_at: new Date(Date.now() + 1000).toISOString() })).body.id;
    await new Promise((done) => setTimeout(done, 1100));
    await api.post('/v1/test_helpers/jobs/expire-payment-links');
    const expired = await browser.submit(`/dashboard/payment-links/${id}`, cookie, { status: 'active' });
    expect(expired.status).toBe(422);
    expect(expired.html).toContain('<p role="alert" id="link-status-error">Status cannot be changed once expired</p>');
    expect((await browser.submit(`/dashboard/payment-links/${seeded.linkId}`, cookie, { status: 'deleted' })).status).toBe(400);
  });

  test('unknown, foreign and other-mode links -> the same 404 page; a form on one changes nothing', async () => {
    const foreignLink = (await client(stack.baseUrl, foreign.test).post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: foreign.acceptorId })).body.id;
    const live = await browser.sessionOf(owner, 'live');
    const pages = await Promise.all([
      browser.get(`/dashboard/payment-links/${newId('paymentLink')}`, cookie),
      browser.get(`/dashboard/payment-links/${foreignLink}`, cookie),
      browser.get(`/dashboard/payment-links/${seeded.linkId}`, live),
    ]);
    expect(pages.map((page) => page.status)).toEqual([404, 404, 404]);
    expect(new Set(pages.map((page) => page.html)).size).toBe(1);
    expect((await browser.submit(`/dashboard/payment-links/${foreignLink}`, cookie, { status: 'inactive', confirm: 'on' })).status).toBe(404);
    expect((await client(stack.baseUrl, foreign.test).get(`/v1/payment_links/${foreignLink}`)).body.status).toBe('active');
  });
});

describe('refund a payment', () => {
  test('a partial refund -> 303 to the refund page; the payment page shows it and what is left', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '10.00', description: 'Broken strap' });
    expect(result.status).toBe(303);
    const id = /\/dashboard\/refunds\/(rf_\w+)$/.exec(result.location!)![1];
    expect((await api.get(`/v1/refunds/${id}`)).body).toMatchObject({ amount: { value: '10.00', currency: 'eur' }, status: 'pending', description: 'Broken strap', payment_id: payment.id });
    const page = (await browser.get(`/dashboard/payments/${payment.id}`, cookie)).html;
    expect(page).toContain('<dd data-field="refundable">€20.00</dd>');
    expect(rowOf(sectionOf(page, 'payment-refunds'), id)).toContain('€10.00');
  });

  test('cancel a pending refund from its page -> 303 back, canceled and given back; a second cancel shows the API\'s 422', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const created = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '4.00' });
    const id = created.location!.split('/').pop()!;
    expect((await browser.get(`/dashboard/refunds/${id}`, cookie)).html).toContain('Cancel refund');
    const canceled = await browser.submit(`/dashboard/refunds/${id}/cancel`, cookie, {});
    expect([canceled.status, canceled.location]).toEqual([303, expect.stringMatching(new RegExp(`/dashboard/refunds/${id}$`))]);
    expect((await api.get(`/v1/refunds/${id}`)).body.status).toBe('canceled');
    const page = (await browser.get(`/dashboard/refunds/${id}`, cookie)).html;
    expect(page).not.toContain('Cancel refund');
    const again = await browser.submit(`/dashboard/refunds/${id}/cancel`, cookie, {});
    expect(again.status).toBe(422);
    expect(again.html).toContain('only a pending one can');
  });

  test('an amount typed with a decimal comma (5,50) refunds 5.50', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });

    // Act
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '5,50' });

    // Assess
    expect(result.status).toBe(303);
    expect((await api.get(`/v1/refunds/${result.location!.split('/').pop()}`)).body.amount).toEqual({ value: '5.50', currency: 'eur' });
  });

  test('an empty amount refunds the whole refundable rest', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '7.50' });
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '' });
    expect(result.status).toBe(303);
    expect((await api.get(`/v1/refunds/${result.location!.split('/').pop()}`)).body.amount).toEqual({ value: '22.50', currency: 'eur' });
  });

  test.each([
    ['more than the refundable rest', '30.01', 422, 'amount.value exceeds the refundable rest of 30.00 eur'],
    ['a zero amount', '0.00', 422, 'amount.value must be positive'],
    ['an amount with three decimals', '1.005', 400, 'amount.value: must be a decimal with at most two fraction digits'],
  ])('%s (%s) -> %i next to the amount, no refund', async (_name, value, status, detail) => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': value });
    expect(result.status).toBe(status);
    expect(fieldError(result.html, 'refund-amount-value')).toBe(detail);
    expect(result.html).toContain(`value="${value}"`);
    expect((await api.get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id)).toEqual([]);
  });

  test('a problem shown beside its field is not repeated above the form: the refund and the edit of a link', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const refund = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '30.01' });
    expect([refund.status, fieldError(refund.html, 'refund-amount-value')]).toEqual([422, 'amount.value exceeds the refundable rest of 30.00 eur']);
    expect(refund.html).not.toContain('<p role="alert"');
    const edit = await browser.submit(`/dashboard/payment-links/${seeded.linkId}`, cookie, { description: 'x', payments_limit: '1', 'expires_at.date': '', 'expires_at.time': '' });
    expect([edit.status, fieldError(edit.html, 'edit-link-payments_limit')]).toEqual([422, 'payments_limit cannot be set below the count of payments already completed']);
    expect(edit.html).not.toContain('<p role="alert"');
  });

  test('a payment with an open chargeback -> 422 above the form (payment_id), as the API answers', async () => {
    const paymentId = seeded.paymentIds[1];
    const result = await browser.submit(`/dashboard/payments/${paymentId}/refunds`, cookie, { confirm: 'on', 'amount.value': '1.00' });
    expect(result.status).toBe(422);
    expect(result.html).toContain('<p role="alert" id="refund-error">A payment with a chargeback that is not won cannot be refunded</p>');
  });
});

describe('a form that acts for good asks for a confirmation the server requires', () => {
  test('a refund without its box ticked -> 422 beside the box, the values kept, no refund; the same form ticked then refunds (its nonce was not spent)', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const page = `/dashboard/payments/${payment.id}`;
    const form = { ...hiddenFieldsOf((await browser.get(page, cookie)).html, `${page}/refunds`), 'amount.value': '3.00', description: 'Late delivery' };
    // Act
    const unconfirmed = await browser.submit(`${page}/refunds`, cookie, form);
    // Assess
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'refund-confirm')).toBe('Tick the box to confirm the refund');
    expect(unconfirmed.html).toMatch(/id="refund-confirm" name="confirm" type="checkbox" value="on" aria-describedby="refund-confirm-error" aria-invalid="true">/);
    expect(unconfirmed.html).toContain('value="Late delivery"');
    expect((await api.get(`/v1/payments/${payment.id}/refunds`)).body.data).toEqual([]);
    const confirmed = await browser.post(`${page}/refunds`, { ...form, confirm: 'on' }, { cookie });
    expect(confirmed.status).toBe(303);
    expect((await api.get(`/v1/payments/${payment.id}/refunds`)).body.data.map((refund: { amount: { value: string } }) => refund.amount.value)).toEqual(['3.00']);
  });

  test('a refusal for another reason comes back with the box unticked: the person confirms the values again', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const refused = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '31.00' });
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(/id="refund-confirm" name="confirm" type="checkbox" value="on">/);
  });

  test('a deactivation without its box ticked -> 422 beside the box, the link still active; a reactivation needs none', async () => {
    // Prepare
    const id = (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
    const page = `/dashboard/payment-links/${id}`;
    expect((await browser.get(page, cookie)).html).toMatch(/<input id="link-status-confirm" name="confirm" type="checkbox"/);
    // Act
    const unconfirmed = await browser.submit(page, cookie, { status: 'inactive' });
    // Assess
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'link-status-confirm')).toBe('Tick the box to confirm the deactivation');
    expect((await api.get(`/v1/payment_links/${id}`)).body.status).toBe('active');
    expect((await browser.submit(page, cookie, { status: 'inactive', confirm: 'on' })).status).toBe(303);
    const inactive = (await browser.get(page, cookie)).html;
    expect(inactive).not.toContain('name="confirm"');
    expect((await browser.submit(page, cookie, { status: 'active' })).status).toBe(303);
    expect((await api.get(`/v1/payment_links/${id}`)).body.status).toBe('active');
  });
});

describe('a refused form comes back to its page once (post/redirect/get)', () => {
  const returnedCookieOf = (answer: { setCookie: string[] }) => answer.setCookie.find((value) => value.startsWith('dashboard_form='));

  test("303 to the form's page with the form in a cookie for that page only; the page shows it once, with the refusal's status", async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const page = `/dashboard/payments/${payment.id}`;
    const form = hiddenFieldsOf((await browser.get(page, cookie)).html, `${page}/refunds`);
    const posted = await browser.post(`${page}/refunds`, { ...form, confirm: 'on', 'amount.value': '30.01', description: 'Too much' }, { cookie });
    expect([posted.status, posted.location, posted.html]).toEqual([303, `${stack.baseUrl}${page}`, '']);
    const returned = returnedCookieOf(posted)!;
    expect(returned).toMatch(new RegExp(`^dashboard_form=[\\w-]+\\.[\\w-]{43}; Path=${page}; HttpOnly; SameSite=Strict; Max-Age=60$`));
    expect(returned).not.toContain('csrf_token');
    expect(returned).not.toContain('form_nonce');

    const shown = await browser.get(page, `${cookie}; ${returned.split(';')[0]}`);
    expect(shown.status).toBe(422);
    expect(fieldError(shown.html, 'refund-amount-value')).toBe('amount.value exceeds the refundable rest of 30.00 eur');
    expect(shown.html).toContain('value="Too much"');
    expect(returnedCookieOf(shown)).toBe(`dashboard_form=; Path=${page}; HttpOnly; SameSite=Strict; Max-Age=0`);
    const reloaded = await browser.get(page, cookie);
    expect(reloaded.status).toBe(200);
    expect(reloaded.html).not.toContain('class="field-error"');
  });

  test("a returned form not signed for this session (another session's, or made up) is ignored, and left to expire", async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const other = await browser.sessionOf(owner);
    const form = hiddenFieldsOf((await browser.get(`/dashboard/payments/${payment.id}`, other)).html, `/dashboard/payments/${payment.id}/refunds`);
    const posted = await browser.post(`/dashboard/payments/${payment.id}/refunds`, { ...form, confirm: 'on', 'amount.value': '0' }, { cookie: other });
    const othersForm = returnedCookieOf(posted)!.split(';')[0];
    const madeUp = `dashboard_form=${Buffer.from(JSON.stringify({ form: 'refund', values: {}, problem: { status: 422, detail: 'Call +1 555 0100 now' } })).toString('base64url')}.${'A'.repeat(43)}`;
    for (const planted of [othersForm, madeUp]) {
      const shown = await browser.get(`/dashboard/payments/${payment.id}`, `${cookie}; ${planted}`);
      expect(shown.status).toBe(200);
      expect(shown.html).not.toContain('<p role="alert"');
      expect(shown.html).not.toContain('class="field-error"');
      expect(returnedCookieOf(shown)).toBeUndefined();
    }
  });

  test("another page's returned form is not shown there: the page answers 200 and clears it", async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const refused = await browser.submit(`/dashboard/payment-links/${seeded.linkId}`, cookie, { description: 'x', payments_limit: '1', 'expires_at.date': '', 'expires_at.time': '' });
    expect(refused.status).toBe(422);
    const linkForm = returnedCookieOf(refused.posted!)!.split(';')[0];
    const shown = await browser.get(`/dashboard/payments/${payment.id}`, `${cookie}; ${linkForm}`);
    expect(shown.status).toBe(200);
    expect(shown.html).not.toContain('class="field-error"');
    expect(returnedCookieOf(shown)).toBe(`dashboard_form=; Path=/dashboard/payment-links/${seeded.linkId}; HttpOnly; SameSite=Strict; Max-Age=0`);
  });

  test('values too large for a cookie come back cut, or left out; the problem always comes back', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const cut = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '0', description: 'a'.repeat(5_000) });
    expect(returnedCookieOf(cut.posted!)!.length).toBeLessThan(4_096);
    expect(cut.status).toBe(422);
    expect(cut.html).toContain(`value="${'a'.repeat(1_000)}"`);
    const left = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '0', description: '€'.repeat(1_000) });
    expect(returnedCookieOf(left.posted!)!.length).toBeLessThan(4_096);
    expect([left.status, fieldError(left.html, 'refund-amount-value')]).toEqual([422, 'amount.value must be positive']);
    expect(left.html).not.toContain('€€');
    expect((await api.get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id)).toEqual([]);
  });
});

describe('a form is carried out once: its one-time nonce is its idempotency key', () => {
  const refundsOf = async (paymentId: string) =>
    ((await api.get('/v1/refunds?limit=100')).body.data as { id: string; payment_id: string; amount: { value: string } }[]).filter((refund) => refund.payment_id === paymentId);
  /** What a person sees of an answer: where it goes, and whether it carries a refused form back. */
  const outcome = (answer: DashboardAnswer) => ({
    status: answer.status,
    location: answer.location,
    returnsForm: answer.setCookie.some((value) => value.startsWith('dashboard_form=') && !value.startsWith('dashboard_form=;')),
  });
  /** The form on `page` posting to `action`, filled in, posted twice at once and then once more (a double click, then a resubmit). */
  async function postThrice(page: string, action: string, fields: Record<string, string>, button = '') {
    const form = { ...hiddenFieldsOf((await browser.get(page, cookie)).html, action, button), ...fields };
    const concurrent = await Promise.all([browser.post(action, form, { cookie }), browser.post(action, form, { cookie })]);
    return [...concurrent, await browser.post(action, form, { cookie })];
  }

  test('every form that writes carries a one-time nonce, new on each page load; sign-out carries none', async () => {
    const page = `/dashboard/payment-links/${seeded.linkId}`;
    const [first, second] = [(await browser.get(page, cookie)).html, (await browser.get(page, cookie)).html];
    const nonces = (html: string) => (html.match(/<form[^>]*method="post"[\s\S]*?<\/form>/g) ?? []).map((form) => /name="form_nonce" value="([\w-]{22})"/.exec(form)?.[1]);
    const [, sign, status, edit] = nonces(first);
    expect(sign).toBeUndefined();
    expect([status, edit]).toEqual([expect.any(String), expect.any(String)]);
    expect(status).not.toBe(edit);
    expect(nonces(second).filter((nonce) => nonce !== undefined).some((nonce) => nonce === status || nonce === edit)).toBe(false);
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    expect(hiddenFieldsOf((await browser.get(`/dashboard/payments/${payment.id}`, cookie)).html, `/dashboard/payments/${payment.id}/refunds`).form_nonce).toMatch(/^[\w-]{22}$/);
    expect(hiddenFieldsOf((await browser.get('/dashboard/payment-links/new', cookie)).html, '/dashboard/payment-links').form_nonce).toMatch(/^[\w-]{22}$/);
  });

  test('refund: two concurrent posts of one form and a resubmit -> exactly one refund; every answer is the first one\'s 303 to it', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const page = `/dashboard/payments/${payment.id}`;
    // Act
    const answers = await postThrice(page, `${page}/refunds`, { confirm: 'on', 'amount.value': '10.00', description: 'Double click' });
    // Assess
    const refunds = await refundsOf(payment.id);
    expect(refunds).toHaveLength(1);
    const refund = `${stack.baseUrl}/dashboard/refunds/${refunds[0].id}`;
    expect(answers.map(outcome)).toEqual(Array(3).fill({ status: 303, location: refund, returnsForm: false }));
  });

  test('create a link: two concurrent posts of one form and a resubmit -> exactly one link', async () => {
    // Prepare
    const description = `Once ${newId('event')}`;
    // Act
    const answers = await postThrice('/dashboard/payment-links/new', '/dashboard/payment-links', linkFields({ description }));
    // Assess
    const created = (await linksOfMerchant()).filter((link) => link.description === description);
    expect(created).toHaveLength(1);
    expect(answers.map(outcome)).toEqual(Array(3).fill({ status: 303, location: `${stack.baseUrl}/dashboard/payment-links/${created[0].id}`, returnsForm: false }));
  });

  test('edit a link: two concurrent posts of one form and a resubmit -> one update, one event', async () => {
    // Prepare
    const id = (await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
    const page = `/dashboard/payment-links/${id}`;
    // Act
    const answers = await postThrice(page, page, { description: 'Edited once', payments_limit: '', 'expires_at.date': '', 'expires_at.time': '' }, 'Save changes');
    // Assess
    expect(eventsFor(await outboxEvents(stack, merchant.orgId, 'test'), 'transactions.payment_link.properties.changed', id)).toHaveLength(1);
    expect(answers.map(outcome)).toEqual(Array(3).fill({ status: 303, location: `${stack.baseUrl}${page}`, returnsForm: false }));
  });

  test("cancel a refund: two concurrent posts of one form and a resubmit -> every answer is the first one's 303, none comes back refused", async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const created = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', 'amount.value': '4.00' });
    const page = new URL(created.location!).pathname;
    // Act
    const answers = await postThrice(page, `${page}/cancel`, {});
    // Assess
    expect((await api.get(`/v1/refunds/${page.split('/').pop()}`)).body.status).toBe('canceled');
    expect(answers.map(outcome)).toEqual(Array(3).fill({ status: 303, location: `${stack.baseUrl}${page}`, returnsForm: false }));
  });

  test('a refused form posted twice comes back twice with the same problem; nothing is written', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const page = `/dashboard/payments/${payment.id}`;
    // Act
    const answers = await postThrice(page, `${page}/refunds`, { confirm: 'on', 'amount.value': '30.01' });
    // Assess
    expect(answers.map(outcome)).toEqual(Array(3).fill({ status: 303, location: `${stack.baseUrl}${page}`, returnsForm: true }));
    const shown = await browser.get(page, `${cookie}; ${answers[2].setCookie.find((value) => value.startsWith('dashboard_form='))!.split(';')[0]}`);
    expect([shown.status, fieldError(shown.html, 'refund-amount-value')]).toEqual([422, 'amount.value exceeds the refundable rest of 30.00 eur']);
    expect(await refundsOf(payment.id)).toEqual([]);
  });

  test('a nonce already used with other values -> back to the page with those values and a 422 above the form; nothing more is written', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    const page = `/dashboard/payments/${payment.id}`;
    const form = hiddenFieldsOf((await browser.get(page, cookie)).html, `${page}/refunds`);
    expect((await browser.post(`${page}/refunds`, { ...form, confirm: 'on', 'amount.value': '5.00' }, { cookie })).status).toBe(303);
    // Act
    const again = await browser.submit(`${page}/refunds`, cookie, { confirm: 'on', ...form, 'amount.value': '6.00' });
    // Assess
    expect(again.status).toBe(422);
    expect(again.html).toMatch(/<p role="alert" id="refund-error">This form was already submitted with other values[^<]*<\/p>/);
    expect(again.html).toContain('value="6.00"');
    expect((await refundsOf(payment.id)).map((refund) => refund.amount.value)).toEqual(['5.00']);
  });

  test('a form without its nonce -> back to its page with a 400 above the form and the values kept; nothing written', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    // Act
    const result = await browser.submit(`/dashboard/payments/${payment.id}/refunds`, cookie, { confirm: 'on', form_nonce: '', 'amount.value': '2.00' });
    // Assess
    expect(result.status).toBe(400);
    expect(result.html).toMatch(/<p role="alert" id="refund-error">This form came without its one-time nonce[^<]*submit it again<\/p>/);
    expect(result.html).toContain('value="2.00"');
    expect(await refundsOf(payment.id)).toEqual([]);
  });
});

describe('lists: the API\'s cursors, a page at a time', () => {
  test('payment links page by page with Older and Newer links, each page once', async () => {
    for (let i = 0; i < 5; i++) await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    const ids = ((await api.get('/v1/payment_links?limit=100')).body.data as { id: string }[]).map((link) => link.id);
    const rowsOf = (html: string) => [...html.matchAll(/<tr data-id="(pl_\w+)"/g)].map((match) => match[1]);
    const linkOf = (html: string, rel: 'next' | 'prev') => /<a rel="(?:next|prev)" href="([^"]+)">/.exec(html.split(`rel="${rel}"`).length > 1 ? html.slice(html.indexOf(`<a rel="${rel}"`)) : '')?.[1]?.replace(stack.baseUrl, '').replace(/&amp;/g, '&');
    const pages: string[][] = [];
    let html = (await browser.get('/dashboard/payment-links?limit=2', cookie)).html;
    expect(linkOf(html, 'prev')).toBeUndefined();
    for (;;) {
      pages.push(rowsOf(html));
      const older = linkOf(html, 'next');
      if (!older) break;
      html = (await browser.get(older, cookie)).html;
    }
    expect(pages.flat()).toEqual(ids);
    expect(pages.slice(0, -1).every((page) => page.length === 2)).toBe(true);
    const newer = (await browser.get(linkOf(html, 'prev')!, cookie)).html;
    expect(rowsOf(newer)).toEqual(pages.at(-2));
  });

  test('a list page shows 20 items unless `limit` says otherwise', async () => {
    const ids = ((await api.get('/v1/payment_links?limit=100')).body.data as { id: string }[]).map((link) => link.id);
    while (ids.length < 21) ids.unshift((await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id);
    const html = (await browser.get('/dashboard/payment-links', cookie)).html;
    expect([...html.matchAll(/<tr data-id="(pl_\w+)"/g)].map((match) => match[1])).toEqual(ids.slice(0, 20));
    expect(html).toContain(`<a rel="next" href="${stack.baseUrl}/dashboard/payment-links?starting_after=${ids[19]}">Older</a>`);
  });

  test.each(['/dashboard/payments', '/dashboard/refunds', '/dashboard/chargebacks', '/dashboard/events', '/dashboard/payment-links'])(
    '%s: a page, then a bad limit or cursor -> 422 like the API',
    async (path) => {
      expect((await browser.get(path, cookie)).status).toBe(200);
      for (const query of ['limit=0', 'limit=101', 'starting_after=nope', `starting_after=${newId('payment')}x`, 'starting_after=a&ending_before=b']) {
        expect([query, (await browser.get(`${path}?${query}`, cookie)).status]).toEqual([query, 422]);
      }
    },
  );

  test('events list the attempts of each event; the failed one marked', async () => {
    const html = (await browser.get('/dashboard/events?limit=100', cookie)).html;
    const row = rowOf(html, seeded.eventId)!;
    expect(row).toContain('<li class="failed"><span class="badge bad">Failed</span> HTTP 500');
    expect(row).toContain('https://hooks.example/ok');
  });
});

describe('search by id', () => {
  test.each([
    ['a payment link', () => seeded.linkId, 'payment-links'],
    ['a payment', () => seeded.paymentIds[0], 'payments'],
    ['a refund', () => seeded.heldRefundId, 'refunds'],
    ['a chargeback', () => seeded.openChargebacks[0].id, 'chargebacks'],
    ['an event', () => seeded.eventId, 'events'],
  ])('%s -> 303 to its page', async (_name, id, path) => {
    const result = await browser.get(`/dashboard/search?id=${encodeURIComponent(` ${id()} `)}`, cookie);
    expect(result.status).toBe(303);
    expect(result.location).toBe(`${stack.baseUrl}/dashboard/${path}/${id()}`);
  });

  test('an unknown or foreign id -> 404 with the reason and the search filled in; no id of those kinds -> 422', async () => {
    const foreignRefund = foreignSeeded.heldRefundId;
    for (const id of [newId('paymentLink'), foreignRefund]) {
      const result = await browser.get(`/dashboard/search?id=${id}`, cookie);
      expect(result.status).toBe(404);
      expect(result.html).toContain(`<p role="alert">Nothing with the id ${id} in this organization and mode.</p>`);
      expect(result.html).toContain(`name="id" type="search" value="${id}"`);
    }
    const other = await browser.get(`/dashboard/search?id=${merchant.acceptorId}`, cookie);
    expect(other.status).toBe(422);
    expect(other.html).toContain(
      'Search takes the id of a payment link (pl_…), a payment (pay_…), a refund (rf_…), a chargeback (cb_…), an event (evt_…), a webhook endpoint (whk_…) or a settlement (stl_…)',
    );
  });
});

describe('paid volume per day, last 30 days', () => {
  test('sums paid payments per UTC day of paid_at and per currency, as inline SVG with the daily figures', async () => {
    const fresh = await createMerchant(stack);
    const day = 86_400_000;
    const now = Date.now();
    await seedPaidPayment(stack, fresh, { amount: '10.00', at: new Date(now - 2 * day) });
    await seedPaidPayment(stack, fresh, { amount: '5.50', at: new Date(now - 2 * day + 1) });
    await seedPaidPayment(stack, fresh, { amount: '99.00', at: new Date(now - 40 * day) });
    await seedPaidPayment(stack, fresh, { amount: '7.00', currency: 'USD', at: new Date(now - 2) });
    await seedPaidPayment(stack, fresh, { amount: '50.00', status: 'failed' });
    const html = (await browser.get('/dashboard', await browser.sessionOf(await createPerson(stack, fresh.orgId)))).html;
    const chart = sectionOf(html, 'paid-volume');
    expect(chart).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(chart).not.toMatch(/<script|<img|href="http/);
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(rowOf(chart, `data-date="${dayOf(now - 2 * day)}"`)).toContain('<td class="num">€15.50</td><td class="num">2</td>');
    expect(rowOf(chart, `data-date="${dayOf(now)}"`)).toContain('<td class="num">€0.00</td><td class="num">0</td>');
    expect(chart).toContain('<strong>€15.50</strong> paid in 2 payments');
    expect(chart).toContain('<strong>$7.00</strong> paid in 1 payment<');
    expect((chart.match(/<tr data-date=/g) ?? []).length).toBe(60);
    expect(chart).not.toContain(dayOf(now - 40 * day));
  });

  test('an account with nothing paid says so', async () => {
    const fresh = await createMerchant(stack);
    expect(sectionOf((await browser.get('/dashboard', await browser.sessionOf(await createPerson(stack, fresh.orgId)))).html, 'paid-volume')).toContain('No payments were paid from');
  });

  test('the window starts at the first paid payment created on its first day (GSI2 by id)', () => {
    expect(firstIdAt('payment', Date.parse('2026-11-01T00:00:00.000Z'))).toMatch(/^pay_[0-9a-z]{10}0{16}$/);
  });
});

describe('page frame', () => {
  test('an inline SVG favicon, allowed by the CSP; no script allowed', async () => {
    const result = await fetch(`${stack.baseUrl}/dashboard`, { headers: { cookie } });
    const html = await result.text();
    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    const csp = result.headers.get('content-security-policy')!;
    expect(csp).toContain('img-src data:');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(html).not.toContain('<script');
  });
});
