import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { newId } from '../../../shared/ids';
import { createPerson, dashboardBrowser, hiddenFieldsOf, rowOf, type DashboardAnswer, type DashboardBrowser, type Person } from '../../support/dashboard';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * The webhooks pages (product-decisions §14): a merchant manages webhook endpoints, sees their
 * deliveries and resends a failed event, through the API's operations with their scopes, over
 * HTTP as a browser posts the forms, with real deliveries from the local stack's pipeline.
 */
let stack: TestStack;
let browser: DashboardBrowser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ background: true, env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.4', WEBHOOK_TIMEOUT_MS: '30000' } });
  browser = dashboardBrowser(stack);
  receiver = await startWebhookReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** A fresh organization, its API client, its owner and a signed-in session of the owner (every permission), in test mode. */
async function account(): Promise<{ merchant: Merchant; api: Api; owner: Person; cookie: string }> {
  const merchant = await createMerchant(stack);
  const owner = await createPerson(stack, merchant.orgId, 'owner');
  return { merchant, api: client(stack.baseUrl, merchant.test), owner, cookie: await browser.sessionOf(owner) };
}

const endpointFields = (extra: Record<string, string> = {}) => ({
  url: receiver.url,
  enabled_events: 'transactions.payment_link.created\ntransactions.refund.*',
  description: 'Shop backend',
  ...extra,
});

/** The text of the inline error next to a field. */
const fieldError = (html: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
/** The secret a page shows once after a creation or a roll. */
const shownSecret = (html: string) => /<input id="revealed-secret" class="secret" type="text" value="(whsec_[^"]+)"/.exec(html)?.[1];
const noticeCookieOf = (answer: DashboardAnswer) => answer.setCookie.find((value) => value.startsWith('dashboard_notice='));

/** Adds an endpoint through the dashboard's form: its id and the secret its page showed. */
async function addEndpoint(cookie: string, fields: Record<string, string> = {}): Promise<{ id: string; secret: string; page: DashboardAnswer }> {
  const posted = await browser.submit('/dashboard/webhooks', cookie, endpointFields(fields));
  expect(posted.status).toBe(303);
  const page = await browser.follow(posted, cookie);
  return { id: posted.location!.split('/').pop()!, secret: shownSecret(page.html)!, page };
}

describe('add an endpoint', () => {
  test('the form -> 303 to the endpoint\'s page, which shows its secret once; the endpoint is the API\'s and its secret verifies its deliveries', async () => {
    // Prepare
    const { merchant, api, cookie } = await account();
    const own = await startWebhookReceiver();
    // Act
    const { id, secret, page } = await addEndpoint(cookie, { url: own.url });
    // Assess
    expect(id).toMatch(/^whk_/);
    expect(page.status).toBe(200);
    expect(secret).toMatch(/^whsec_/);
    expect(page.html).toContain('Copy it now: it is not shown again');
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body).toMatchObject({
      url: own.url,
      enabled_events: ['transactions.payment_link.created', 'transactions.refund.*'],
      description: 'Shop backend',
      status: 'enabled',
    });
    expect(noticeCookieOf(page)).toBe(`dashboard_notice=; Path=/dashboard/webhooks/${id}; HttpOnly; SameSite=Strict; Max-Age=0`);
    const reloaded = await browser.get(`/dashboard/webhooks/${id}`, cookie);
    expect(shownSecret(reloaded.html)).toBeUndefined();
    expect(reloaded.html).not.toContain(secret);
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    await own.waitFor(() => own.delivered().length === 1, 'the created event');
    expect(() => own.verify(own.delivered()[0], secret)).not.toThrow();
    await own.close();
  });

  test('the secret travels sealed: the cookie and the nonce\'s stored answer hold no secret, and another session cannot open it', async () => {
    // Prepare
    const { owner, cookie } = await account();
    const newForm = (await browser.get('/dashboard/webhooks/new', cookie)).html;
    const form = hiddenFieldsOf(newForm, '/dashboard/webhooks');
    const posted = await browser.post('/dashboard/webhooks', { ...form, ...endpointFields() }, { cookie });
    const id = posted.location!.split('/').pop()!;
    // Act
    const notice = noticeCookieOf(posted)!;
    const other = await browser.sessionOf(owner);
    const elsewhere = await browser.get(`/dashboard/webhooks/${id}`, `${other}; ${notice.split(';')[0]}`);
    const page = await browser.follow(posted, cookie);
    // Assess
    expect(notice).toMatch(new RegExp(`^dashboard_notice=[\\w-]+; Path=/dashboard/webhooks/${id}; HttpOnly; SameSite=Strict; Max-Age=60$`));
    const secret = shownSecret(page.html)!;
    expect(notice).not.toContain('whsec_');
    expect(Buffer.from(notice.split(';')[0].split('=')[1], 'base64url').toString('latin1')).not.toContain(secret.slice(6, 20));
    expect(shownSecret(elsewhere.html)).toBeUndefined();
    // The nonce's record is the person's (their user id), as an API key's Idempotency-Key is the key's.
    const stored = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.idempotency(owner.userId, form.form_nonce) }))).Item;
    expect(JSON.stringify(stored)).toContain(notice.split(';')[0]);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  test.each([
    ['a pattern that matches no event type', { enabled_events: 'transactions.nothing.*' }, 422, 'create-endpoint-enabled_events', /^enabled_events: each pattern is an event type/],
    ['no pattern', { enabled_events: '' }, 422, 'create-endpoint-enabled_events', /^enabled_events needs at least one event pattern$/],
    ['no URL', { url: '' }, 422, 'create-endpoint-url', /^url is required$/],
    ['a URL that is none', { url: 'not a url' }, 400, 'create-endpoint-url', /^url: /],
  ])('%s (%j) -> %i next to the field, the values kept, nothing created', async (_name, fields, status, field, detail) => {
    const { api, cookie } = await account();
    const result = await browser.submit('/dashboard/webhooks', cookie, endpointFields(fields));
    expect(result.status).toBe(status);
    expect(result.html).toContain('<h1>Add a webhook endpoint</h1>');
    expect(fieldError(result.html, field)).toMatch(detail);
    expect(result.html).toContain('value="Shop backend"');
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([]);
  });

  test('the 17th endpoint of a mode -> 422 above the form, as the API answers', async () => {
    const { api, cookie } = await account();
    for (let i = 0; i < 16; i++) expect((await api.post('/v1/webhook_endpoints', { url: `https://hooks.example/${i}`, enabled_events: ['*'] })).status).toBe(201);
    const result = await browser.submit('/dashboard/webhooks', cookie, endpointFields());
    expect(result.status).toBe(422);
    expect(result.html).toContain('<p role="alert" id="create-endpoint-error">An organization has at most 16 webhook endpoints per mode; delete one first</p>');
  });

  test('two concurrent posts of one form and a resubmit -> one endpoint; every answer is the first one\'s, its sealed secret included', async () => {
    const { api, cookie } = await account();
    const form = { ...hiddenFieldsOf((await browser.get('/dashboard/webhooks/new', cookie)).html, '/dashboard/webhooks'), ...endpointFields() };
    const concurrent = await Promise.all([browser.post('/dashboard/webhooks', form, { cookie }), browser.post('/dashboard/webhooks', form, { cookie })]);
    const answers = [...concurrent, await browser.post('/dashboard/webhooks', form, { cookie })];
    const endpoints = (await api.get('/v1/webhook_endpoints')).body.data;
    expect(endpoints).toHaveLength(1);
    expect(answers.map((answer) => [answer.status, answer.location])).toEqual(Array(3).fill([303, `${stack.baseUrl}/dashboard/webhooks/${endpoints[0].id}`]));
    expect(new Set(answers.map(noticeCookieOf)).size).toBe(1);
  });

  test.each([
    ['the add form', async (_cookie: string) => ({ action: '/dashboard/webhooks', page: '/dashboard/webhooks/new', fields: endpointFields() })],
    [
      'the roll form',
      async (cookie: string) => {
        const { id } = await addEndpoint(cookie);
        return { action: `/dashboard/webhooks/${id}/roll-secret`, page: `/dashboard/webhooks/${id}`, fields: { expires_in_seconds: '0' } };
      },
    ],
  ])('%s resubmitted within a minute (the same page\'s form again): its replayed answer leads to the page, which shows the secret only the first time', async (_form, prepare) => {
    // Prepare
    const { cookie } = await account();
    const { action, page, fields } = await prepare(cookie);
    const form = { ...hiddenFieldsOf((await browser.get(page, cookie)).html, action), ...fields };
    const first = await browser.post(action, form, { cookie });
    const shown = await browser.follow(first, cookie);
    const marker = shown.setCookie.find((value) => value.startsWith('dashboard_notice_shown='))!.split(';')[0];
    // Act: the browser sends the form again (back, then submit), and follows the replayed answer with the cookies it now holds.
    const again = await browser.post(action, form, { cookie });
    const replayed = await browser.follow(again, `${cookie}; ${marker}`);
    // Assess
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(noticeCookieOf(again)).toBe(noticeCookieOf(first));
    expect(shownSecret(shown.html)).toMatch(/^whsec_/);
    expect(replayed.status).toBe(200);
    expect(shownSecret(replayed.html)).toBeUndefined();
    expect(replayed.html).not.toContain(shownSecret(shown.html)!);
    expect(replayed.html).toContain('Its signing secret was shown once, when this form was first answered, and is not shown again.');
  });
});

describe('the webhooks page', () => {
  test("the key's organization and mode's endpoints, newest first, each with its recent deliveries, failures marked; no other organization's or mode's", async () => {
    // Prepare
    const { merchant, api, cookie } = await account();
    const flaky = await startWebhookReceiver();
    flaky.failNext(1);
    const first = (await api.post('/v1/webhook_endpoints', { url: flaky.url, enabled_events: ['transactions.payment_link.created'] })).body.id;
    const second = (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/quiet', enabled_events: ['transactions.refund.*'], description: 'Quiet' })).body.id;
    const live = (await client(stack.baseUrl, merchant.live).post('/v1/webhook_endpoints', { url: 'https://hooks.example/live', enabled_events: ['*'] })).body.id;
    const foreign = await createMerchant(stack);
    const foreignId = (await client(stack.baseUrl, foreign.test).post('/v1/webhook_endpoints', { url: 'https://hooks.example/foreign', enabled_events: ['*'] })).body.id;
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    await flaky.waitFor(() => flaky.delivered().length === 1, 'the created event delivered after one failure');
    // Act
    const page = (await browser.get('/dashboard/webhooks', cookie)).html;
    // Assess
    expect([...page.matchAll(/<tr data-id="(whk_\w+)"/g)].map((match) => match[1])).toEqual([second, first]);
    expect(page).not.toContain(live);
    expect(page).not.toContain(foreignId);
    const row = rowOf(page, first)!;
    expect(row).toContain('<li class="failed"><span class="badge bad">Failed</span> HTTP 500');
    expect(row).toMatch(/<li><span class="badge good">Delivered<\/span> HTTP 200/);
    expect(rowOf(page, second)).toContain('None yet');
    await flaky.close();
  });

  test('forms need webhook:write (a finance person has webhook:read only): no form is shown, each post is refused 403', async () => {
    const { merchant, api } = await account();
    const id = (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/a', enabled_events: ['*'] })).body.id;
    const reader = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'finance'));
    const list = (await browser.get('/dashboard/webhooks', reader)).html;
    expect(list).not.toContain('Add an endpoint');
    const endpoint = (await browser.get(`/dashboard/webhooks/${id}`, reader)).html;
    expect(endpoint).not.toContain('Save changes');
    expect(endpoint).not.toContain('Roll secret');
    expect((await browser.get('/dashboard/webhooks/new', reader)).status).toBe(403);
    for (const [path, fields] of [
      ['/dashboard/webhooks', endpointFields()],
      [`/dashboard/webhooks/${id}`, { status: 'disabled', confirm: 'on' }],
      [`/dashboard/webhooks/${id}/roll-secret`, {}],
      [`/dashboard/webhooks/${id}/delete`, { confirm: 'on' }],
    ] as [string, Record<string, string>][]) {
      const result = await browser.submit(path, reader, fields);
      expect([path, result.status, result.html.includes('Your role, Finance, does not allow this (webhook:write)')]).toEqual([path, 403, true]);
    }
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('enabled');
  });

  test("another organization's or mode's endpoint, or an unknown one -> the same 404 page; its forms change nothing", async () => {
    const { merchant, cookie } = await account();
    const foreign = await createMerchant(stack);
    const foreignId = (await client(stack.baseUrl, foreign.test).post('/v1/webhook_endpoints', { url: 'https://hooks.example/f', enabled_events: ['*'] })).body.id;
    const liveId = (await client(stack.baseUrl, merchant.live).post('/v1/webhook_endpoints', { url: 'https://hooks.example/l', enabled_events: ['*'] })).body.id;
    const pages = await Promise.all([foreignId, liveId, newId('webhook'), 'nope'].map((id) => browser.get(`/dashboard/webhooks/${id}`, cookie)));
    expect(pages.map((page) => page.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(pages.map((page) => page.html)).size).toBe(1);
    expect((await browser.submit(`/dashboard/webhooks/${foreignId}/delete`, cookie, { confirm: 'on' })).status).toBe(404);
    expect((await browser.submit(`/dashboard/webhooks/${foreignId}`, cookie, { status: 'disabled', confirm: 'on' })).status).toBe(404);
    expect((await client(stack.baseUrl, foreign.test).get(`/v1/webhook_endpoints/${foreignId}`)).body.status).toBe('enabled');
  });
});

describe("an endpoint's page and its forms", () => {
  test('edit URL, patterns and description -> 303 back, the API shows them; an empty description removes it', async () => {
    const { api, cookie } = await account();
    const { id } = await addEndpoint(cookie);
    const page = `/dashboard/webhooks/${id}`;
    const result = await browser.submit(page, cookie, { url: 'https://hooks.example/moved', enabled_events: '*', description: '' });
    expect([result.status, result.location]).toEqual([303, `${stack.baseUrl}${page}`]);
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body).toMatchObject({ url: 'https://hooks.example/moved', enabled_events: ['*'], description: null });
    const refused = await browser.submit(page, cookie, { url: 'https://hooks.example/moved', enabled_events: 'transactions.nothing', description: 'x' });
    expect(refused.status).toBe(422);
    expect(fieldError(refused.html, 'edit-endpoint-enabled_events')).toMatch(/^enabled_events: each pattern/);
    expect(refused.html).toContain('transactions.nothing</textarea>');
  });

  test('disable without its box ticked -> 422 beside the box, still enabled; ticked -> disabled, nothing more delivered; enable needs no box', async () => {
    // Prepare
    const { merchant, api, cookie } = await account();
    const quiet = await startWebhookReceiver();
    // Receives every event too: once it has one, the pipeline has planned that event's deliveries.
    const witness = await startWebhookReceiver();
    const { id } = await addEndpoint(cookie, { url: quiet.url, enabled_events: 'transactions.payment_link.*' });
    await api.post('/v1/webhook_endpoints', { url: witness.url, enabled_events: ['transactions.payment_link.*'] });
    const page = `/dashboard/webhooks/${id}`;
    // Act
    const unconfirmed = await browser.submit(page, cookie, { status: 'disabled' });
    // Assess
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'endpoint-status-confirm')).toBe('Tick the box to confirm disabling the endpoint');
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('enabled');
    expect((await browser.submit(page, cookie, { status: 'disabled', confirm: 'on' })).status).toBe(303);
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('disabled');
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    // Enabled again only once the event of the disabled time is planned, however slow the pipeline.
    await witness.waitFor(() => witness.delivered().some((request) => request.envelope.data.amount.value === 5), "the disabled time's event at the witness");
    expect((await browser.get(page, cookie)).html).toContain('>Enable</button>');
    expect((await browser.submit(page, cookie, { status: 'enabled' })).status).toBe(303);
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('enabled');
    await api.post('/v1/payment_links', { amount: { value: '6.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    await quiet.waitFor(() => quiet.delivered().length === 1, 'the event after enabling');
    expect(quiet.requests.map((request) => request.envelope.data.amount.value)).toEqual([6]);
    await quiet.close();
    await witness.close();
  });

  test('roll the secret -> the page shows the new one once; deliveries carry both signatures, so each secret verifies them', async () => {
    // Prepare
    const { merchant, api, cookie } = await account();
    const rolled = await startWebhookReceiver();
    const { id, secret: before } = await addEndpoint(cookie, { url: rolled.url, enabled_events: 'transactions.payment_link.created' });
    // Act
    const posted = await browser.submit(`/dashboard/webhooks/${id}/roll-secret`, cookie, { expires_in_seconds: '3600' });
    const page = await browser.follow(posted, cookie);
    // Assess
    const after = shownSecret(page.html)!;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    expect(page.html).toContain('Secret rolled.');
    expect(shownSecret((await browser.get(`/dashboard/webhooks/${id}`, cookie)).html)).toBeUndefined();
    expect((await browser.get(`/dashboard/webhooks/${id}`, cookie)).html).toContain('Rolled: the secret before it signs too until');
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    await rolled.waitFor(() => rolled.delivered().length === 1, 'a delivery after the roll');
    const [delivery] = rolled.delivered();
    expect(() => rolled.verify(delivery, after)).not.toThrow();
    expect(() => rolled.verify(delivery, before)).not.toThrow();
    await rolled.close();
  });

  test('roll with an overlap outside the API\'s choices -> 422 beside it, nothing rolled', async () => {
    const { cookie } = await account();
    const { id } = await addEndpoint(cookie);
    const result = await browser.submit(`/dashboard/webhooks/${id}/roll-secret`, cookie, { expires_in_seconds: '604801' });
    expect(result.status).toBe(422);
    expect(fieldError(result.html, 'roll-secret-expires_in_seconds')).toBe('expires_in_seconds must be an integer from 0 to 604800');
    expect(result.html).not.toContain('Rolled: the secret before it signs too');
  });

  test('delete without its box ticked -> 422 beside the box, still there; ticked -> 303 to the webhooks page, which says so; the API answers 404', async () => {
    const { api, cookie } = await account();
    const { id } = await addEndpoint(cookie);
    const unconfirmed = await browser.submit(`/dashboard/webhooks/${id}/delete`, cookie, {});
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'delete-endpoint-confirm')).toBe('Tick the box to confirm the deletion');
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).status).toBe(200);
    const posted = await browser.submit(`/dashboard/webhooks/${id}/delete`, cookie, { confirm: 'on' });
    expect([posted.status, posted.location]).toEqual([303, `${stack.baseUrl}/dashboard/webhooks`]);
    const list = await browser.follow(posted, cookie);
    expect(list.html).toContain(`<p>Endpoint ${id} deleted: it receives nothing more.</p>`);
    expect(list.html).not.toContain(`data-id="${id}"`);
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).status).toBe(404);
  });
});

describe('resend a failed event, and an event\'s page', () => {
  test("a failed attempt's Resend sends the event again to that endpoint only, with the same webhook-id; the page says so and then shows the delivery", async () => {
    // Prepare: the endpoint fails every attempt of the delivery (3 with this schedule), then recovers.
    const { merchant, api, cookie } = await account();
    const broken = await startWebhookReceiver();
    const witness = await startWebhookReceiver();
    broken.failNext(3);
    const { id } = await addEndpoint(cookie, { url: broken.url, enabled_events: 'transactions.payment_link.created' });
    await addEndpoint(cookie, { url: witness.url, enabled_events: 'transactions.payment_link.created' });
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    await broken.waitFor(() => broken.requests.length === 3, 'three failed attempts');
    await witness.waitFor(() => witness.delivered().length === 1, 'the other endpoint served');
    const page = `/dashboard/webhooks/${id}`;
    let html = '';
    await waitUntil(
      async () => ((html = (await browser.get(page, cookie)).html).match(/<tr class="failed">/g) ?? []).length === 3,
      () => 'the three failed attempts on the endpoint page',
    );
    const eventId = broken.requests[0].headers['webhook-id'];
    // Act
    const form = hiddenFieldsOf(html, `/dashboard/events/${eventId}/resend`);
    const posted = await browser.post(`/dashboard/events/${eventId}/resend`, form, { cookie });
    const shown = await browser.follow(posted, cookie);
    // Assess
    expect(form.subscription_id).toBe(id);
    expect([posted.status, posted.location]).toEqual([303, `${stack.baseUrl}${page}`]);
    expect(shown.html).toContain(`Event ${eventId} is on its way again to this endpoint`);
    await broken.waitFor(() => broken.delivered().length === 1, 'the resent event');
    expect(broken.delivered()[0].headers['webhook-id']).toBe(eventId);
    expect(witness.requests).toHaveLength(1);
    await waitUntil(async () => (await browser.get(page, cookie)).html.includes('<span class="badge good">Delivered</span>'), () => 'the delivery on the endpoint page');
    await Promise.all([broken.close(), witness.close()]);
  });

  test('a resend to a disabled endpoint -> 422 on the endpoint page, nothing sent; without event:resend -> 403', async () => {
    const { merchant, api, cookie } = await account();
    const { id } = await addEndpoint(cookie, { url: 'https://hooks.example/off', enabled_events: '*' });
    await api.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' });
    await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    const eventId = (await api.get('/v1/events')).body.data[0].id;
    const refused = await browser.submit(`/dashboard/events/${eventId}/resend`, cookie, { subscription_id: id });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('<h1>Webhook endpoint');
    expect(refused.html).toContain('<p role="alert" id="resend-error">subscription_id names a disabled webhook endpoint</p>');
    const reader = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'support'));
    const forbidden = await browser.submit(`/dashboard/events/${eventId}/resend`, reader, {});
    expect([forbidden.status, forbidden.html.includes('Your role, Support, does not allow this (event:resend)')]).toEqual([403, true]);
  });

  test("an event's page shows its payload as delivered and its attempts; Resend from there goes to every endpoint it matches", async () => {
    const { merchant, api, cookie } = await account();
    const both = await startWebhookReceiver();
    await addEndpoint(cookie, { url: both.url, enabled_events: 'transactions.payment_link.*' });
    const link = (await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, description: 'Tea <b>set</b>' })).body;
    await both.waitFor(() => both.delivered().length === 1, 'the first delivery');
    const event = (await api.get('/v1/events')).body.data[0];
    const page = await browser.get(`/dashboard/events/${event.id}`, cookie);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<h1>Event ${event.id}</h1>`);
    expect(page.html).toContain('&quot;description&quot;: &quot;Tea &lt;b&gt;set&lt;/b&gt;&quot;');
    expect(page.html).toContain(`&quot;id&quot;: &quot;${link.id}&quot;`);
    await waitUntil(async () => (await browser.get(`/dashboard/events/${event.id}`, cookie)).html.includes('Delivered'), () => 'the attempt on the event page');
    const posted = await browser.submit(`/dashboard/events/${event.id}/resend`, cookie, {});
    expect(posted.location).toBe(`${stack.baseUrl}/dashboard/events/${event.id}`);
    expect((await browser.follow(posted, cookie)).html).toContain(`Event ${event.id} is on its way again;`);
    await both.waitFor(() => both.delivered().length === 2, 'the resent event');
    expect(both.delivered().map((request) => request.headers['webhook-id'])).toEqual([event.id, event.id]);
    await both.close();
  });

  test("another organization's or mode's event, or an unknown one -> the one 404 page; event ids in lists lead to it; search finds events and endpoints", async () => {
    const { merchant, api, owner, cookie } = await account();
    await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    const [event] = (await api.get('/v1/events')).body.data;
    const foreign = await createMerchant(stack);
    const foreignApi = client(stack.baseUrl, foreign.test);
    await foreignApi.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: foreign.acceptorId });
    const [foreignEvent] = (await foreignApi.get('/v1/events')).body.data;
    const live = await browser.sessionOf(owner, 'live');
    const pages = [await browser.get(`/dashboard/events/${foreignEvent.id}`, cookie), await browser.get(`/dashboard/events/${event.id}`, live), await browser.get(`/dashboard/events/${newId('event')}`, cookie)];
    expect(pages.map((page) => page.status)).toEqual([404, 404, 404]);
    expect(new Set(pages.map((page) => page.html)).size).toBe(1);
    expect((await browser.get('/dashboard/events', cookie)).html).toContain(`<a href="${stack.baseUrl}/dashboard/events/${event.id}"><code>${event.id}</code></a>`);
    expect((await browser.get(`/dashboard/search?id=${event.id}`, cookie)).location).toBe(`${stack.baseUrl}/dashboard/events/${event.id}`);
    const { id } = await addEndpoint(cookie);
    expect((await browser.get(`/dashboard/search?id=${id}`, cookie)).location).toBe(`${stack.baseUrl}/dashboard/webhooks/${id}`);
  });
});
