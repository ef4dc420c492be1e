import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { SCOPES, type Scope } from '../../../shared/auth/principal';
import { createDeliveryRepository } from '../../../shared/db/delivery-repository';
import * as keys from '../../../shared/db/keys';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { endpointsWithRecentDeliveries } from '../../../shared/use-cases/webhook-endpoints';
import { client, expectEnvelope, type HttpResult } from '../../support/http';
import { createMerchant, startTestStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Webhook endpoints over the API (product-decisions §14): the resource, its list, update,
 * delete, the 16-endpoint limit, rolling secrets, and deliveries that stop when an endpoint is
 * disabled or deleted, queued ones included. The stack runs its event pipeline.
 */
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ background: true, env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.4,0.8', WEBHOOK_TIMEOUT_MS: '30000' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** A fresh organization and a client with its test key (every scope). */
async function merchantApi(): Promise<{ merchant: Merchant; api: Api }> {
  const merchant = await createMerchant(stack);
  return { merchant, api: client(stack.baseUrl, merchant.test) };
}

const create = (api: Api, body: object = {}) => api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/a', enabled_events: ['*'], ...body });
const remove = (api: Api, id: string) => api.call('DELETE', `/v1/webhook_endpoints/${id}`);

describe('Webhook endpoints: the resource', () => {
  test('create replayed with its Idempotency-Key -> the same 201, secret included, Idempotent-Replayed: true; one endpoint (a client that lost the answer still gets its secret)', async () => {
    // Prepare
    const { api } = await merchantApi();
    const body = { url: 'https://hooks.example/replayed', enabled_events: ['*'] };
    // Act
    const first = await api.post('/v1/webhook_endpoints', body, { 'idempotency-key': 'create-endpoint-1' });
    const replayed = await api.post('/v1/webhook_endpoints', body, { 'idempotency-key': 'create-endpoint-1' });
    // Assess
    expect(first.status).toBe(201);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    expect(replayed.body.secret).toMatch(/^whsec_/);
    expect((await api.get('/v1/webhook_endpoints')).body.data).toHaveLength(1);
  });

  test('create -> 201 with the secret, shown only there; retrieve and list show the same endpoint without it', async () => {
    const { api } = await merchantApi();
    const created = await create(api, { enabled_events: ['transactions.payment_link.*', 'transactions.refund.refunded'], description: 'Shop backend' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      object: 'webhook_endpoint',
      url: 'https://hooks.example/a',
      enabled_events: ['transactions.payment_link.*', 'transactions.refund.refunded'],
      description: 'Shop backend',
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      created_at: expect.stringMatching(/Z$/),
    });
    const { secret, ...withoutSecret } = created.body;
    expect(() => new Webhook(secret)).not.toThrow();
    const retrieved = await api.get(`/v1/webhook_endpoints/${created.body.id}`);
    expect([retrieved.status, retrieved.body]).toEqual([200, withoutSecret]);
    const listed = await api.get('/v1/webhook_endpoints');
    expect([listed.status, listed.body]).toEqual([200, { has_more: false, data: [withoutSecret] }]);
    expect(`${retrieved.text}${listed.text}`).not.toContain('whsec_');
  });

  test('create: description defaults to null, a repeated pattern is kept once', async () => {
    const { api } = await merchantApi();
    const created = await create(api, { enabled_events: ['transactions.refund.*', 'transactions.refund.*', '*'] });
    expect(created.body).toMatchObject({ description: null, enabled_events: ['transactions.refund.*', '*'] });
  });

  test.each([
    ['a pattern matching no event type', { enabled_events: ['transactions.refund.refundedd'] }, 'enabled_events'],
    ['a prefix no type has', { enabled_events: ['payments.*'] }, 'enabled_events'],
    ['a malformed pattern', { enabled_events: ['transactions.*.created'] }, 'enabled_events'],
    ['one bad pattern among good ones', { enabled_events: ['*', 'unknown.type'] }, 'enabled_events'],
    ['no pattern', { enabled_events: [] }, 'enabled_events'],
    ['no url', { url: undefined }, 'url'],
  ])('create: %s -> 422 on its attribute, nothing written', async (_case, body, attribute) => {
    const { api } = await merchantApi();
    expectEnvelope(await create(api, body), 422, attribute);
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([]);
  });

  test.each([
    ['a URL that is not http(s)', { url: 'ftp://hooks.example/a' }, 'url'],
    ['a URL that is no URL', { url: 'hooks' }, 'url'],
    ['a URL over 2,048 characters', { url: `https://hooks.example/${'a'.repeat(2_030)}` }, 'url'],
    ['a pattern that is not a string', { enabled_events: [3] }, 'enabled_events.0'],
    ['patterns that are not a list', { enabled_events: '*' }, 'enabled_events'],
    ['a description over 500 characters', { description: 'd'.repeat(501) }, 'description'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ])('create: %s -> 400, nothing written', async (_case, body, attribute) => {
    const { api } = await merchantApi();
    expectEnvelope(await create(api, body), 400, attribute);
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([]);
  });

  test('update: any of url, enabled_events, description, status; omitted fields kept; an empty body -> 422', async () => {
    const { api } = await merchantApi();
    const { id, secret: _secret, ...before } = (await create(api, { description: 'First' })).body;
    const moved = await api.post(`/v1/webhook_endpoints/${id}`, { url: 'https://hooks.example/b' });
    expect([moved.status, moved.body]).toEqual([200, { ...before, id, url: 'https://hooks.example/b' }]);
    const changed = await api.post(`/v1/webhook_endpoints/${id}`, { enabled_events: ['transactions.chargeback.*'], description: null, status: 'disabled' });
    expect(changed.body).toEqual({ ...before, id, url: 'https://hooks.example/b', enabled_events: ['transactions.chargeback.*'], description: null, status: 'disabled' });
    expect((await api.post(`/v1/webhook_endpoints/${id}`, { status: 'enabled' })).body.status).toBe('enabled');
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body).toEqual({ ...changed.body, status: 'enabled' });

    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}`, {}), 422);
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}`, { enabled_events: ['nothing.*'] }), 422, 'enabled_events');
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}`, { status: 'paused' }), 400, 'status');
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}`, { secret: 'x' }), 400, 'secret');
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body).toEqual({ ...changed.body, status: 'enabled' });
  });

  test('delete -> 200 {id, object, deleted: true}; then it is gone: retrieve, update, roll and delete -> 404', async () => {
    const { api } = await merchantApi();
    const { id } = (await create(api)).body;
    const deleted = await remove(api, id);
    expect([deleted.status, deleted.body]).toEqual([200, { id, object: 'webhook_endpoint', deleted: true }]);
    expectEnvelope(await api.get(`/v1/webhook_endpoints/${id}`), 404);
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}`, { status: 'enabled' }), 404);
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${id}/roll_secret`, {}), 404);
    expectEnvelope(await remove(api, id), 404);
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([]);
  });

  test('another organization, the other mode, an unknown and a malformed id: the identical 404 on every operation, nothing changed', async () => {
    const { merchant, api } = await merchantApi();
    const { id } = (await create(api)).body;
    const stranger = client(stack.baseUrl, (await createMerchant(stack)).test);
    const live = client(stack.baseUrl, merchant.live);
    const operations: [string, (caller: Api, endpointId: string) => Promise<HttpResult>][] = [
      ['retrieve', (caller, endpointId) => caller.get(`/v1/webhook_endpoints/${endpointId}`)],
      ['update', (caller, endpointId) => caller.post(`/v1/webhook_endpoints/${endpointId}`, { status: 'disabled' })],
      ['roll', (caller, endpointId) => caller.post(`/v1/webhook_endpoints/${endpointId}/roll_secret`, {})],
      ['delete', (caller, endpointId) => remove(caller, endpointId)],
    ];
    for (const [name, operation] of operations) {
      const answers = [
        await operation(stranger, id),
        await operation(live, id),
        await operation(api, 'whk_00000000000000000000000000'),
        await operation(api, 'not-an-id'),
      ];
      for (const answer of answers) expectEnvelope(answer, 404);
      expect({ name, bodies: new Set(answers.map((answer) => answer.text)).size }).toEqual({ name, bodies: 1 });
    }
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body).toMatchObject({ id, status: 'enabled' });
  });

  test('scopes: reads need webhook:read, writes webhook:write (403 otherwise; neither implies the other)', async () => {
    const { merchant, api } = await merchantApi();
    const { id } = (await create(api)).body;
    const keyWithout = async (missing: Scope) => client(stack.baseUrl, await merchant.key({ scopes: SCOPES.filter((scope) => scope !== missing) }));
    const noRead = await keyWithout('webhook:read');
    expectEnvelope(await noRead.get('/v1/webhook_endpoints'), 403);
    expectEnvelope(await noRead.get(`/v1/webhook_endpoints/${id}`), 403);
    expect((await noRead.post(`/v1/webhook_endpoints/${id}`, { description: 'written without read' })).status).toBe(200);
    const noWrite = await keyWithout('webhook:write');
    expectEnvelope(await create(noWrite), 403);
    expectEnvelope(await noWrite.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' }), 403);
    expectEnvelope(await noWrite.post(`/v1/webhook_endpoints/${id}/roll_secret`, {}), 403);
    expectEnvelope(await remove(noWrite, id), 403);
    expect((await noWrite.get(`/v1/webhook_endpoints/${id}`)).body).toMatchObject({ status: 'enabled', description: 'written without read' });
  });
});

describe('Webhook endpoints: the list', () => {
  test('newest first; limit, starting_after and ending_before page it; has_more says what lies beyond', async () => {
    const { api } = await merchantApi();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.unshift((await create(api, { url: `https://hooks.example/${n}` })).body.id);
    const page = async (query: string) => {
      const { body } = await api.get(`/v1/webhook_endpoints?${query}`);
      return { ids: body.data.map((endpoint: { id: string }) => endpoint.id), has_more: body.has_more };
    };
    expect(await page('')).toEqual({ ids, has_more: false });
    expect(await page('limit=2')).toEqual({ ids: ids.slice(0, 2), has_more: true });
    expect(await page(`limit=2&starting_after=${ids[1]}`)).toEqual({ ids: ids.slice(2, 4), has_more: true });
    expect(await page(`limit=2&starting_after=${ids[3]}`)).toEqual({ ids: ids.slice(4), has_more: false });
    expect(await page(`limit=2&ending_before=${ids[4]}`)).toEqual({ ids: ids.slice(2, 4), has_more: true });
    expect(await page(`limit=2&ending_before=${ids[2]}`)).toEqual({ ids: ids.slice(0, 2), has_more: false });
  });

  test('bad list parameters: unknown -> 400; limit, malformed or foreign cursors, both cursors -> 422', async () => {
    const { api } = await merchantApi();
    const { id } = (await create(api)).body;
    const foreign = (await create(client(stack.baseUrl, (await createMerchant(stack)).test))).body.id;
    expectEnvelope(await api.get('/v1/webhook_endpoints?status=enabled'), 400);
    for (const limit of ['0', '101', 'abc', '1.5']) expectEnvelope(await api.get(`/v1/webhook_endpoints?limit=${limit}`), 422, 'limit');
    expectEnvelope(await api.get('/v1/webhook_endpoints?starting_after=pl_00000000000000000000000000'), 422, 'starting_after');
    expectEnvelope(await api.get(`/v1/webhook_endpoints?ending_before=${foreign}`), 422, 'ending_before');
    expectEnvelope(await api.get('/v1/webhook_endpoints?starting_after=whk_00000000000000000000000000'), 422, 'starting_after');
    expectEnvelope(await api.get(`/v1/webhook_endpoints?starting_after=${id}&ending_before=${id}`), 422, 'ending_before');
  });
});

describe('Webhook endpoints: at most 16 per organization and mode', () => {
  test('20 concurrent creations: exactly 16 are made, 4 refused with 422; a deletion frees a place; the other mode has its own 16', async () => {
    const { merchant, api } = await merchantApi();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => create(api, { url: `https://hooks.example/${n}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(16).fill(201), ...Array(4).fill(422)]);
    for (const refused of answers.filter((answer) => answer.status === 422)) expect(refused.body.detail).toMatch(/at most 16/);
    const listed = (await api.get('/v1/webhook_endpoints?limit=100')).body.data;
    expect(listed.map((endpoint: { id: string }) => endpoint.id).sort()).toEqual(answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id).sort());

    expectEnvelope(await create(api), 422);
    expect((await remove(api, listed[0].id)).status).toBe(200);
    expect((await create(api)).status).toBe(201);
    expectEnvelope(await create(api), 422);
    expect((await create(client(stack.baseUrl, merchant.live))).status).toBe(201);
  }, 60_000);
});

describe('Webhook endpoints: rolling the secret', () => {
  test('expires_in_seconds: an integer 0..604800 (422 otherwise, 400 for a string); the endpoint is unchanged', async () => {
    const { api } = await merchantApi();
    const created = (await create(api)).body;
    for (const seconds of [-1, 604_801, 1.5]) {
      expectEnvelope(await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, { expires_in_seconds: seconds }), 422, 'expires_in_seconds');
    }
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, { expires_in_seconds: '60' }), 400, 'expires_in_seconds');
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, { expires_in: 60 }), 400, 'expires_in');
    const rolled = await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, { expires_in_seconds: 604_800 });
    const { secret, ...rest } = rolled.body;
    const { secret: before, ...unchanged } = created;
    expect([rolled.status, rest]).toEqual([200, unchanged]);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(before);
  });
});

/** A payment link's creation: its `transactions.payment_link.created` event goes to every endpoint. */
async function emitEvent(api: Api, merchant: Merchant): Promise<string> {
  const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  return link.id;
}

const forLink = (linkId: string) => (request: ReceivedWebhook) => request.envelope?.data?.id === linkId;

/** What the delivery of `eventId` to endpoint `endpointId` ended as (`canceled`, `delivered`…), read from the table. */
async function deliveryOutcome(eventId: string, endpointId: string): Promise<string | undefined> {
  const item = await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.deliveryState(eventId, endpointId) }));
  return item.Item?.status;
}

describe('Webhook endpoints: deliveries', () => {
  test('a resend to a disabled endpoint -> 422 on subscription_id; enabled again, it is accepted', async () => {
    const { merchant, api } = await merchantApi();
    const endpoint = (await create(api, { url: 'https://hooks.example/resend' })).body;
    await emitEvent(api, merchant);
    const [event] = (await api.get('/v1/events?type=transactions.payment_link.created')).body.data;
    await api.post(`/v1/webhook_endpoints/${endpoint.id}`, { status: 'disabled' });
    expectEnvelope(await api.post(`/v1/events/${event.id}/resend`, { subscription_id: endpoint.id }), 422, 'subscription_id');
    await api.post(`/v1/webhook_endpoints/${endpoint.id}`, { status: 'enabled' });
    expect((await api.post(`/v1/events/${event.id}/resend`, { subscription_id: endpoint.id })).status).toBe(202);
  });

  test('a roll: until the old secret expires every delivery carries both signatures, and a receiver verifies it with either secret', async () => {
    const { merchant, api } = await merchantApi();
    const endpoint = (await create(api, { url: receiver.url, enabled_events: ['transactions.payment_link.created'] })).body;
    const rolled = (await api.post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`, {})).body;

    const link = await emitEvent(api, merchant);
    await receiver.waitFor(() => receiver.delivered().some(forLink(link)), 'the delivery after the roll', 60_000);
    const delivery = receiver.requests.find(forLink(link))!;
    expect(delivery.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(receiver.verify(delivery, endpoint.secret)).toEqual(delivery.envelope);
    expect(receiver.verify(delivery, rolled.secret)).toEqual(delivery.envelope);

    // A roll with no overlap: the newest secret alone signs; the one before no longer verifies.
    const again = (await api.post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`, { expires_in_seconds: 0 })).body;
    const next = await emitEvent(api, merchant);
    await receiver.waitFor(() => receiver.delivered().some(forLink(next)), 'the delivery after the second roll', 60_000);
    const after = receiver.requests.find(forLink(next))!;
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(receiver.verify(after, again.secret)).toEqual(after.envelope);
    expect(() => receiver.verify(after, rolled.secret)).toThrow();
    expect(() => receiver.verify(after, endpoint.secret)).toThrow();
  }, 150_000);

  test("the dashboard's read: each endpoint of a page with its most recent attempts, newest first, failures marked", async () => {
    const { merchant, api } = await merchantApi();
    const flaky = await startWebhookReceiver();
    try {
      const busy = (await create(api, { url: flaky.url, enabled_events: ['transactions.payment_link.created'] })).body;
      const quiet = (await create(api, { url: flaky.url, enabled_events: ['transactions.refund.refunded'] })).body;
      flaky.failNext(1);
      const first = await emitEvent(api, merchant);
      await flaky.waitFor(() => flaky.delivered().some(forLink(first)), 'the first event after a failed attempt', 60_000);
      const second = await emitEvent(api, merchant);
      await flaky.waitFor(() => flaky.delivered().some(forLink(second)), 'the second event', 60_000);
      const deps = { endpoints: createWebhookRepository(stack.db, stack.tableName, stack.sealer), deliveries: createDeliveryRepository(stack.db, stack.tableName) };
      const principal = { actor: { type: 'api_key' as const, id: 'key_dashboard' }, orgId: merchant.orgId, mode: 'test' as const, scopes: [] };
      const seen = async () => (await endpointsWithRecentDeliveries(deps, principal, {}, 2)).items;
      const eventOf = (linkId: string) => flaky.requests.find(forLink(linkId))!.envelope.id;
      // The attempt is recorded after the receiver answered, and the attempts' index is a GSI: the
      // second event's attempt may show a moment after the receiver got it.
      await waitUntil(async () => (await seen())[1]?.attempts[0]?.eventId === eventOf(second), "the second event's attempt on the index", { timeoutMs: 30_000, intervalMs: 200 });
      const page = await seen();
      expect(page.map((entry) => entry.endpoint.id)).toEqual([quiet.id, busy.id]);
      expect(page[0].attempts).toEqual([]);
      expect(page[1].attempts.map((attempt) => [attempt.eventId, attempt.eventType, attempt.succeeded, attempt.statusCode])).toEqual([
        [eventOf(second), 'transactions.payment_link.created', true, 200],
        [eventOf(first), 'transactions.payment_link.created', true, 200],
      ]);
      const all = (await endpointsWithRecentDeliveries(deps, principal, { limit: '1', starting_after: quiet.id }, 5)).items[0];
      expect(all.attempts.map((attempt) => [attempt.eventId, attempt.succeeded, attempt.statusCode])).toEqual([
        [eventOf(second), true, 200],
        [eventOf(first), true, 200],
        [eventOf(first), false, 500],
      ]);
    } finally {
      await flaky.close();
    }
  }, 150_000);

  test.each([
    ['disabled', (api: Api, id: string) => api.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' })],
    ['deleted', (api: Api, id: string) => remove(api, id)],
  ])('an endpoint %s receives nothing more: the retry of a delivery queued before never comes, new events never go', async (_case, stop) => {
    const { merchant, api } = await merchantApi();
    const stopping = await startWebhookReceiver();
    const witness = await startWebhookReceiver();
    try {
      const endpoint = (await create(api, { url: stopping.url, enabled_events: ['transactions.payment_link.created'] })).body;
      await create(api, { url: witness.url, enabled_events: ['transactions.payment_link.created'] });

      // The first attempt is held at the receiver while the endpoint stops, then fails: its retry is queued.
      stopping.hold();
      const link = await emitEvent(api, merchant);
      await stopping.waitFor(() => stopping.held() === 1, 'the first attempt', 60_000);
      expect((await stop(api, endpoint.id)).status).toBe(200);
      stopping.release(500);
      const eventId = stopping.requests[0].envelope.id;
      // Either the queued retry is canceled, or it comes (a second request): whichever happens first.
      await waitUntil(async () => stopping.requests.length > 1 || (await deliveryOutcome(eventId, endpoint.id)) === 'canceled', 'the queued retry', {
        timeoutMs: 90_000,
        intervalMs: 200,
      });
      expect(stopping.requests).toHaveLength(1);
      expect(await deliveryOutcome(eventId, endpoint.id)).toBe('canceled');
      expect((await api.get(`/v1/events/${eventId}/deliveries`)).body.data.filter((attempt: { subscription_id: string }) => attempt.subscription_id === endpoint.id)).toHaveLength(1);

      // A later event reaches the other endpoint, not this one.
      const later = await emitEvent(api, merchant);
      await witness.waitFor(() => witness.delivered().some(forLink(later)), 'the later event at the other endpoint', 60_000);
      const laterEvent = witness.requests.find(forLink(later))!.envelope.id;
      expect(await deliveryOutcome(laterEvent, endpoint.id)).toBeUndefined();
      expect(stopping.requests.filter(forLink(later))).toEqual([]);
      expect(witness.delivered().filter(forLink(link))).toHaveLength(1);
    } finally {
      await stopping.close();
      await witness.close();
    }
  }, 180_000);
});
