import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { outboxItem } from '../../../shared/db/outbox';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { newEvent } from '../../../shared/events';
import { newId } from '../../../shared/ids';
import { createPerson, dashboardBrowser, sectionOf } from '../../support/dashboard';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

let stack: TestStack;
let merchant: Merchant;
let api: ReturnType<typeof client>;
let receiver: WebhookReceiver;

beforeAll(async () => {
  process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.1,0.2';
  stack = await startTestStack({ background: true });
  merchant = await createMerchant(stack);
  api = client(stack.baseUrl, merchant.test);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
});

const createLink = async () =>
  (await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;

describe('events API', () => {
  test('events: list newest first with exact and wildcard type filters; retrieve the envelope', async () => {
    const link = await createLink();
    await api.post(`/v1/payment_links/${link.id}`, { description: 'changed' });
    await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {});

    const all = await api.get('/v1/events?limit=100');
    expect(all.status).toBe(200);
    const ids = all.body.data.map((event: { id: string }) => event.id);
    expect([...ids].sort().reverse()).toEqual(ids);

    const exact = await api.get('/v1/events?type=transactions.payment_link.properties.changed');
    expect(exact.body.data.map((event: { type: string }) => event.type)).toEqual(['transactions.payment_link.properties.changed']);

    const wildcard = await api.get('/v1/events?type=transactions.payment_link.*&limit=100');
    expect(wildcard.body.data.length).toBeGreaterThan(3);
    expect(wildcard.body.data.every((event: { type: string }) => event.type.startsWith('transactions.payment_link.'))).toBe(true);
    expect(wildcard.body.data.some((event: { type: string }) => event.type === 'transactions.payment.paid')).toBe(false);

    const paid = await api.get('/v1/events?type=transactions.payment.*');
    expect(paid.body.data.map((event: { type: string }) => event.type)).toEqual(['transactions.payment.paid']);

    const one = await api.get(`/v1/events/${exact.body.data[0].id}`);
    expect(one.body).toEqual(exact.body.data[0]);
    expect(Object.keys(one.body).sort()).toEqual(['data', 'id', 'mode', 'object', 'triggered_at', 'type', 'version']);
  });

  test('events: a wildcard page is full and pages on with both cursors', async () => {
    for (let i = 0; i < 3; i++) await createLink();
    const first = await api.get('/v1/events?type=transactions.payment_link.created&limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const next = await api.get(`/v1/events?type=transactions.payment_link.*&limit=2&starting_after=${first.body.data[1].id}`);
    expect(next.body.data).toHaveLength(2);
    const back = await api.get(`/v1/events?type=transactions.payment_link.created&limit=1&ending_before=${first.body.data[1].id}`);
    expect(back.body.data.map((event: { id: string }) => event.id)).toEqual([first.body.data[0].id]);
  });

  test('events: bad filters and cursors; other mode, foreign and unknown ids are 404; scopes', async () => {
    expectEnvelope(await api.get('/v1/events?type=Not A Type'), 400);
    expectEnvelope(await api.get('/v1/events?limit=0'), 422, 'limit');
    expectEnvelope(await api.get('/v1/events?starting_after=evt_bad'), 422, 'starting_after');
    expectEnvelope(await api.get('/v1/events?color=red'), 400);
    const event = (await api.get('/v1/events?limit=1')).body.data[0];
    const other = await createMerchant(stack);
    for (const result of [
      await api.get(`/v1/events/${newId('event')}`),
      await client(stack.baseUrl, merchant.live).get(`/v1/events/${event.id}`),
      await client(stack.baseUrl, other.test).get(`/v1/events/${event.id}`),
    ]) expectEnvelope(result, 404);
    const readOnly = await merchant.key({ scopes: ['event:read'] });
    expectEnvelope(await client(stack.baseUrl, readOnly).post(`/v1/events/${event.id}/resend`, {}), 403);
    const none = await merchant.key({ scopes: ['payment_link:read'] });
    expectEnvelope(await client(stack.baseUrl, none).get('/v1/events'), 403);
  });

  test('deliveries and resend: attempts are listed per event; a resend to one subscription reaches only it', async () => {
    const webhooks = createWebhookRepository(stack.db, stack.tableName, stack.sealer);
    const failing = await startWebhookReceiver();
    failing.failNext(1);
    const first = await webhooks.create({ orgId: merchant.orgId, mode: 'test', url: failing.url, events: ['transactions.payment_link.created'] });
    const second = await webhooks.create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['transactions.payment_link.*'] });
    try {
      const link = await createLink();
      const event = (await api.get('/v1/events?type=transactions.payment_link.created&limit=1')).body.data[0];
      expect(event.data.id).toBe(link.id);
      await failing.waitFor(() => failing.delivered().length === 1, 'the retried delivery', 20_000);
      await receiver.waitFor(() => receiver.delivered().some((r) => r.envelope.id === event.id), 'the first delivery', 20_000);

      // An attempt is recorded once its POST has returned: wait for both records, not just the requests.
      const recorded = async () => (await api.get(`/v1/events/${event.id}/deliveries`)).body;
      await failing.waitFor(async () => (await recorded()).data.filter((attempt: { subscription_id: string }) => attempt.subscription_id === first.id).length === 2, 'both attempts recorded');
      const attempts = await recorded();
      expect(attempts.has_more).toBe(false);
      const toFailing = attempts.data.filter((attempt: { subscription_id: string }) => attempt.subscription_id === first.id);
      expect(toFailing.map((a: { status_code: number; succeeded: boolean }) => [a.status_code, a.succeeded])).toEqual([[500, false], [200, true]]);
      expect(toFailing[0]).toMatchObject({ object: 'delivery_attempt', endpoint: failing.url, attempt: 1, duration_ms: expect.any(Number) });

      const resend = await api.post(`/v1/events/${event.id}/resend`, { subscription_id: second.id });
      expect(resend.status).toBe(202);
      expect(resend.body).toMatchObject({ object: 'event_resend', event_id: event.id, subscription_id: second.id });
      await receiver.waitFor(() => receiver.delivered().filter((r) => r.envelope.id === event.id).length === 2, 'the replay', 20_000);
      const replay = receiver.delivered().filter((r) => r.envelope.id === event.id)[1];
      expect(receiver.verify(replay, second.secret)).toEqual(event);
      expect(failing.delivered()).toHaveLength(1);

      expectEnvelope(await api.post(`/v1/events/${event.id}/resend`, { subscription_id: 'whk_nope' }), 422, 'subscription_id');
      expectEnvelope(await api.post(`/v1/events/${event.id}/resend`, { subscription: second.id }), 400);
    } finally {
      await webhooks.delete(first.id);
      await webhooks.delete(second.id);
      await failing.close();
    }
  }, 60_000);
});

/**
 * The migration of packed envelopes (decisions 152) is reading both forms: an event item written
 * before packing keeps its envelope as a map until its TTL. Such an item, written straight into
 * the table, is listed and fetched by the events API, shown on the dashboard's event and link
 * pages, delivered from the table stream, and resent, beside an event written now.
 */
test('an event item written before packing (its envelope a map) is listed, fetched, shown, delivered and resent like one written now', async () => {
  // Prepare: an organization with an endpoint for every event, and a link (its event written now, packed)
  const shop = await createMerchant(stack);
  const shopApi = client(stack.baseUrl, shop.test);
  const subscription = await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: shop.orgId, mode: 'test', url: receiver.url, events: ['*'] });
  const link = (await shopApi.post('/v1/payment_links', { amount: { value: '12.00', currency: 'EUR' }, acceptor_id: shop.acceptorId, description: 'Before packing' })).body;
  const [packed] = (await shopApi.get('/v1/events')).body.data;
  const old = newEvent({ type: 'transactions.payment_link.properties.changed', orgId: shop.orgId, mode: 'test', data: { ...link, description: 'Old form' } });

  // Act: the old form, as the service wrote it before (the envelope a map), straight into the table
  await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...outboxItem(old), envelope: old.envelope } }));

  // Assess: the events API lists and fetches both, exact and by prefix
  const listed = (await shopApi.get('/v1/events?limit=100')).body.data;
  expect(listed).toEqual([old.envelope, packed]);
  expect((await shopApi.get('/v1/events?type=transactions.payment_link.properties.changed')).body.data).toEqual([old.envelope]);
  expect((await shopApi.get('/v1/events?type=transactions.payment_link.*')).body.data).toEqual([old.envelope, packed]);
  expect((await shopApi.get(`/v1/events/${old.envelope.id}`)).body).toEqual(old.envelope);
  expect((await shopApi.get(`/v1/events/${packed.id}`)).body).toEqual(packed);
  // the dashboard's event page and the link's events
  const browser = dashboardBrowser(stack);
  const cookie = await browser.sessionOf(await createPerson(stack, shop.orgId, 'owner'));
  const page = await browser.get(`/dashboard/events/${old.envelope.id}`, cookie);
  expect(page.status).toBe(200);
  expect(page.html).toContain('&quot;description&quot;: &quot;Old form&quot;');
  const linkEvents = sectionOf((await browser.get(`/dashboard/payment-links/${link.id}`, cookie)).html, 'link-events');
  expect(linkEvents.match(/data-id="(evt_\w+)"/g)!.map((match) => match.slice(9, -1))).toEqual([old.envelope.id, packed.id]);
  // delivered from the stream, signed over the envelope as written
  const delivered = (id: string) => receiver.delivered().filter((request) => request.envelope.id === id);
  await receiver.waitFor(() => delivered(old.envelope.id).length === 1 && delivered(packed.id).length === 1, 'both events delivered');
  expect(receiver.verify(delivered(old.envelope.id)[0], subscription.secret)).toEqual(old.envelope);
  expect(receiver.verify(delivered(packed.id)[0], subscription.secret)).toEqual(packed);
  // and resent
  expect((await shopApi.post(`/v1/events/${old.envelope.id}/resend`, {})).status).toBe(202);
  await receiver.waitFor(() => delivered(old.envelope.id).length === 2, 'the old event resent');
  expect(receiver.verify(delivered(old.envelope.id)[1], subscription.secret)).toEqual(old.envelope);
});
