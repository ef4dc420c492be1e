import { SCOPES } from '../../../shared/auth/principal';
import { apiOperations } from '../../../shared/api';
import { isAudited, type ApiOperation, type AuditDeclaration } from '../../../shared/api/operation';
import { dashboardBrowser, createPerson } from '../../support/dashboard';
import { auditEvents, type AuditEventBody } from '../../support/audit';
import { client, expectEnvelope, type HttpResult } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * The audit trail over HTTP (product-decisions §17): every audited operation records one event
 * with its action, actor and target, in the transaction of its change; GET /v1/audit_events with
 * its scope, mode separation, filters and the list conventions of §2.
 */
let stack: TestStack;
let merchant: Merchant;
let keyId: string;
let token: string;
let api: ReturnType<typeof client>;
/** Every secret the tests see (tokens, passwords, webhook secrets): none may appear in an audit event. */
const secrets = new Set<string>();

const USER_AGENT = 'audit-test/1.0';

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  const key = await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: merchant.userId, mode: 'test', scopes: [...SCOPES] });
  ({ id: keyId, token } = key);
  secrets.add(token).add(merchant.test).add(merchant.live);
  api = withUserAgent(client(stack.baseUrl, token));
});
afterAll(() => stack?.stop());

/** A client that names itself, as the record's `user_agent` should. */
function withUserAgent(base: ReturnType<typeof client>): ReturnType<typeof client> {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => base.call(method, path, body, { 'user-agent': USER_AGENT, ...headers });
  return { call, get: (path, headers) => call('GET', path, undefined, headers), post: (path, body, headers) => call('POST', path, body ?? {}, headers) } as ReturnType<typeof client>;
}

type AuditEvent = AuditEventBody;

/** Every record of the key's list (newest first), read page by page. */
const allEvents = (reader = api, query = '') => auditEvents(reader, query);

const created = async (result: Promise<HttpResult>) => {
  const answer = await result;
  expect(answer.status).toBeLessThan(300);
  return answer.body;
};

const newLink = () => created(api.post('/v1/payment_links', { amount: { value: '30.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId }));
const newPayment = async () => created(api.post(`/v1/test_helpers/payment_links/${(await newLink()).id}/checkout`, {}));
const newChargeback = async () => created(api.post(`/v1/test_helpers/payments/${(await newPayment()).id}/chargebacks`, { amount: { value: '10.00', currency: 'EUR' } }));
const newRefund = async () => created(api.post(`/v1/payments/${(await newPayment()).id}/refunds`, { amount: { value: '1.00', currency: 'eur' } }));
const newEndpoint = async () => {
  const endpoint = await created(api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/audit', enabled_events: ['transactions.refund.*'] }));
  secrets.add(endpoint.secret);
  return endpoint;
};

/**
 * How each audited operation is called (its setup first, outside the count): the call and the id
 * its record must name (`target: 'created'`: the answer's object, unless `createdId` says where
 * it is). An audited operation missing here fails the test: a new one comes with its case.
 */
const CALLS: Record<string, () => Promise<{ call: () => Promise<HttpResult>; pathId?: string; createdId?: (body: any) => string }>> = {
  'create-payment-link': async () => ({ call: () => api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId }) }),
  'update-payment-link': async () => {
    const { id } = await newLink();
    return { pathId: id, call: () => api.post(`/v1/payment_links/${id}`, { description: 'Changed' }) };
  },
  'test-helper-checkout': async () => {
    const { id } = await newLink();
    return { pathId: id, call: () => api.post(`/v1/test_helpers/payment_links/${id}/checkout`, {}) };
  },
  'create-refund': async () => {
    const { id } = await newPayment();
    return { call: () => api.post(`/v1/payments/${id}/refunds`, { amount: { value: '1.00', currency: 'eur' } }) };
  },
  'cancel-refund': async () => {
    const { id } = await newRefund();
    return { pathId: id, call: () => api.post(`/v1/refunds/${id}/cancel`) };
  },
  'test-helper-refund-transition': async () => {
    const { id } = await newRefund();
    return { pathId: id, call: () => api.post(`/v1/test_helpers/refunds/${id}/transitions`, { status: 'canceled' }) };
  },
  'test-helper-balance-adjustment': async () => ({
    call: () => api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '3.00', currency: 'eur' } }),
    // The answer is the balance; the record names the ledger entry the adjustment made.
    createdId: () => 'btx_',
  }),
  'test-helper-create-chargeback': async () => {
    const { id } = await newPayment();
    return { call: () => api.post(`/v1/test_helpers/payments/${id}/chargebacks`, { amount: { value: '10.00', currency: 'EUR' } }) };
  },
  'test-helper-transition-chargeback': async () => {
    const { id } = await newChargeback();
    return { pathId: id, call: () => api.post(`/v1/test_helpers/chargebacks/${id}/transitions`, { status: 'disputed' }) };
  },
  'accept-chargeback': async () => {
    const { id } = await newChargeback();
    return { pathId: id, call: () => api.post(`/v1/chargebacks/${id}/accept`) };
  },
  'dispute-chargeback': async () => {
    const { id } = await newChargeback();
    return { pathId: id, call: () => api.post(`/v1/chargebacks/${id}/dispute`, { evidence: { refund_policy: '30 days' } }) };
  },
  'create-dispute-document': async () => {
    const { id } = await newChargeback();
    return { call: () => api.post(`/v1/chargebacks/${id}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size: 10 }) };
  },
  'resend-event': async () => {
    const link = await newLink();
    const events = (await api.get('/v1/events?type=transactions.payment_link.*&limit=100')).body.data;
    const { id } = events.find((event: { data: { id: string } }) => event.data.id === link.id);
    return { pathId: id, call: () => api.post(`/v1/events/${id}/resend`, {}) };
  },
  'create-webhook-endpoint': async () => ({ call: () => api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/created', enabled_events: ['transactions.refund.*'] }) }),
  'update-webhook-endpoint': async () => {
    const { id } = await newEndpoint();
    return { pathId: id, call: () => api.post(`/v1/webhook_endpoints/${id}`, { status: 'disabled' }) };
  },
  'roll-webhook-endpoint-secret': async () => {
    const { id } = await newEndpoint();
    return { pathId: id, call: () => api.post(`/v1/webhook_endpoints/${id}/roll_secret`, { expires_in_seconds: 60 }) };
  },
  'delete-webhook-endpoint': async () => {
    const { id } = await newEndpoint();
    return { pathId: id, call: () => api.call('DELETE', `/v1/webhook_endpoints/${id}`) };
  },
  'create-report': async () => ({
    call: () => api.post('/v1/reports', { type: 'payments', created: { gte: '2026-01-01T00:00:00Z', lt: '2026-02-01T00:00:00Z' } }),
  }),
  'test-helper-run-job': async () => {
    // A run that changes nothing records nothing (no record of a change that did not happen): this one expires a link.
    await created(api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, expires_at: '2021-01-01T00:00:00Z' }));
    return { call: () => api.post('/v1/test_helpers/jobs/expire-payment-links') };
  },
};

const audited = (apiOperations as ApiOperation[]).filter((operation) => isAudited(operation.audit));

test('every writing /v1 operation declares what it audits, and this file calls each one that does', () => {
  const writing = (apiOperations as ApiOperation[]).filter((operation) => operation.method !== 'GET');
  expect(writing.filter((operation) => operation.audit === undefined).map((operation) => operation.handler)).toEqual([]);
  expect(audited.map((operation) => operation.handler).filter((handler) => !CALLS[handler])).toEqual([]);
});

test.each(audited.map((operation) => [operation.handler, operation] as const))(
  'audit: %s records exactly one event with its action, the key as actor, its target, mode, address and user agent',
  async (handler, operation) => {
    const declaration = operation.audit as AuditDeclaration;
    const { call, pathId, createdId } = await CALLS[handler]();
    const before = new Set((await allEvents(api, `&action=${declaration.action}`)).map((event) => event.id));
    const answer = await call();
    expect({ handler, status: answer.status }).toEqual({ handler, status: operation.success.status });
    const recorded = (await allEvents(api, `&action=${declaration.action}`)).filter((event) => !before.has(event.id));
    expect(recorded).toHaveLength(1);
    const [event] = recorded;
    expect(event).toMatchObject({ object: 'audit_event', action: declaration.action, actor: { type: 'api_key', id: keyId }, mode: 'test', user_agent: USER_AGENT });
    expect(event.ip).toEqual(expect.any(String));
    if (declaration.target === 'none') expect(event.target).toBeNull();
    if (declaration.target === 'path') expect(event.target?.id).toBe(pathId);
    if (declaration.target === 'created') {
      const expected = createdId ? createdId(answer.body) : answer.body.id;
      expect(event.target?.id.startsWith(expected)).toBe(true);
    }
    if (answer.body?.secret) secrets.add(answer.body.secret);
  },
  30_000,
);

test('a write that fails records nothing: a 422, a 404 and a 409 leave the trail as it was', async () => {
  const before = (await allEvents()).map((event) => event.id);
  expectEnvelope(await api.post('/v1/payment_links', { acceptor_id: merchant.acceptorId }), 422, 'amount.value');
  expectEnvelope(await api.post('/v1/refunds/rf_01jd2x3y4z5a6b7c8d9e0f1g2h/cancel'), 404);
  const link = await newLink();
  await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive' });
  const afterSetup = (await allEvents()).map((event) => event.id);
  expect(afterSetup.length).toBe(before.length + 2);
  expectEnvelope(await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {}), 409);
  expect((await allEvents()).map((event) => event.id)).toEqual(afterSetup);
});

test('concurrent writes record one event each', async () => {
  const links = await Promise.all(Array.from({ length: 8 }, () => newLink()));
  const recorded = await allEvents(api, '&action=payment_link.created');
  for (const link of links) expect(recorded.filter((event) => event.target?.id === link.id)).toHaveLength(1);
  const updates = await Promise.all(links.map((link) => api.post(`/v1/payment_links/${link.id}`, { description: 'Concurrent' })));
  expect(updates.map((answer) => answer.status)).toEqual(links.map(() => 200));
  const updated = await allEvents(api, '&action=payment_link.updated');
  for (const link of links) expect(updated.filter((event) => event.target?.id === link.id)).toHaveLength(1);
});

test('an Idempotency-Key replay records nothing more', async () => {
  const body = { amount: { value: '7.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId };
  const headers = { 'idempotency-key': `audit-${Date.now()}` };
  const first = await api.call('POST', '/v1/payment_links', body, headers);
  const again = await api.call('POST', '/v1/payment_links', body, headers);
  expect(again.body.id).toBe(first.body.id);
  expect((await allEvents(api, `&target_id=${first.body.id}`)).map((event) => event.action)).toEqual(['payment_link.created']);
});

test('GET /v1/audit_events needs audit:read (403 without it, 401 without a key)', async () => {
  expectEnvelope(await client(stack.baseUrl, await merchant.key({ scopes: ['payment_link:read', 'event:read'] })).get('/v1/audit_events'), 403);
  expectEnvelope(await client(stack.baseUrl).get('/v1/audit_events'), 401);
  expect((await client(stack.baseUrl, await merchant.key({ scopes: ['audit:read'] })).get('/v1/audit_events')).status).toBe(200);
});

test('test and live are separate: a key sees its mode\'s records and those of no mode, never another organization\'s', async () => {
  const person = await createPerson(stack, merchant.orgId, 'owner');
  secrets.add(person.password);
  const browser = dashboardBrowser(stack);
  const cookie = await browser.sessionThroughForm(person);
  const liveKey = await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: merchant.userId, mode: 'live', scopes: ['audit:read', 'webhook:write'] });
  secrets.add(liveKey.token);
  const live = client(stack.baseUrl, liveKey.token);
  const liveEndpoint = await created(live.post('/v1/webhook_endpoints', { url: 'https://hooks.example/live', enabled_events: ['transactions.refund.*'] }));
  secrets.add(liveEndpoint.secret);
  const testLink = await newLink();

  const liveEvents = await allEvents(live);
  const testEvents = await allEvents();
  expect(liveEvents.every((event) => event.mode === 'live' || event.mode === null)).toBe(true);
  expect(testEvents.every((event) => event.mode === 'test' || event.mode === null)).toBe(true);
  expect(liveEvents.some((event) => event.target?.id === liveEndpoint.id)).toBe(true);
  expect(testEvents.some((event) => event.target?.id === liveEndpoint.id)).toBe(false);
  expect(liveEvents.some((event) => event.target?.id === testLink.id)).toBe(false);
  const signIn = (events: AuditEvent[]) => events.filter((event) => event.action === 'user.signed_in' && event.actor.id === person.userId);
  expect(signIn(liveEvents)).toHaveLength(1);
  expect(signIn(testEvents).map((event) => event.id)).toEqual(signIn(liveEvents).map((event) => event.id));
  expect(signIn(testEvents)[0]).toMatchObject({ actor: { type: 'user', id: person.userId, email: person.email }, target: { type: 'user', id: person.userId }, mode: null });

  const other = await createMerchant(stack);
  expect((await allEvents(client(stack.baseUrl, other.test))).map((event) => event.id)).toEqual([]);
  await browser.signOut(cookie);
});

test('sign-ins: a refused one records the email tried and never the password; a sign-in and a sign-out record theirs; an unknown email records nothing', async () => {
  const person = await createPerson(stack, merchant.orgId, 'admin');
  const browser = dashboardBrowser(stack);
  const wrong = 'not the password at all 123';
  secrets.add(wrong).add(person.password);
  expect((await browser.signIn({ email: person.email.toUpperCase(), password: wrong })).status).toBe(401);
  const before = (await allEvents()).length;
  expect((await browser.signIn({ email: 'nobody-audit@example.com', password: wrong })).status).toBe(401);
  expect((await allEvents()).length).toBe(before);
  const cookie = await browser.sessionThroughForm(person);
  secrets.add(cookie.split('=')[1]?.split(';')[0] ?? cookie);
  await browser.signOut(cookie);
  const mine = (await allEvents(api, `&actor_id=${person.userId}`)).map((event) => [event.action, event.actor.email, event.mode]);
  expect(mine).toEqual([
    ['user.signed_out', person.email, null],
    ['user.signed_in', person.email, null],
    ['user.sign_in_failed', person.email.toUpperCase(), null],
  ]);
});

test('filters: action, actor_id and target_id each give their own list, newest first', async () => {
  const link = await newLink();
  await api.post(`/v1/payment_links/${link.id}`, { description: 'One' });
  await api.post(`/v1/payment_links/${link.id}`, { description: 'Two' });
  const ofTarget = await allEvents(api, `&target_id=${link.id}`);
  expect(ofTarget.map((event) => event.action)).toEqual(['payment_link.updated', 'payment_link.updated', 'payment_link.created']);
  expect([...ofTarget.map((event) => event.id)].sort().reverse()).toEqual(ofTarget.map((event) => event.id));
  const ofAction = await allEvents(api, '&action=payment_link.updated');
  expect(ofAction.every((event) => event.action === 'payment_link.updated')).toBe(true);
  expect(ofAction.slice(0, 2).map((event) => event.target?.id)).toEqual([link.id, link.id]);
  const otherKey = await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: merchant.userId, mode: 'test', scopes: ['payment_link:create', 'audit:read'] });
  const other = client(stack.baseUrl, otherKey.token);
  const byOther = await created(other.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId }));
  expect((await allEvents(api, `&actor_id=${otherKey.id}`)).map((event) => event.target?.id)).toEqual([byOther.id]);
  expect((await allEvents(api, `&actor_id=${keyId}`)).some((event) => event.target?.id === byOther.id)).toBe(false);
  expect(await allEvents(api, '&target_id=pl_01jd2x3y4z5a6b7c8d9e0f1g2h')).toEqual([]);
});

test('pagination: limit, starting_after and ending_before walk the list as §2 says, one filter\'s cursors its own', async () => {
  const link = await newLink();
  for (const description of ['a', 'b', 'c', 'd']) await api.post(`/v1/payment_links/${link.id}`, { description });
  const all = await allEvents(api, `&target_id=${link.id}`);
  expect(all).toHaveLength(5);
  const ids = all.map((event) => event.id);
  const first = (await api.get(`/v1/audit_events?target_id=${link.id}&limit=2`)).body;
  expect([first.data.map((event: AuditEvent) => event.id), first.has_more]).toEqual([ids.slice(0, 2), true]);
  const second = (await api.get(`/v1/audit_events?target_id=${link.id}&limit=2&starting_after=${ids[1]}`)).body;
  expect([second.data.map((event: AuditEvent) => event.id), second.has_more]).toEqual([ids.slice(2, 4), true]);
  const last = (await api.get(`/v1/audit_events?target_id=${link.id}&limit=2&starting_after=${ids[3]}`)).body;
  expect([last.data.map((event: AuditEvent) => event.id), last.has_more]).toEqual([ids.slice(4), false]);
  const back = (await api.get(`/v1/audit_events?target_id=${link.id}&limit=2&ending_before=${ids[4]}`)).body;
  expect([back.data.map((event: AuditEvent) => event.id), back.has_more]).toEqual([ids.slice(2, 4), true]);
  // A record of another list is no cursor of this one.
  const foreign = (await allEvents(api, '&action=user.signed_in'))[0] ?? (await allEvents(api, '&action=webhook_endpoint.created'))[0];
  expectEnvelope(await api.get(`/v1/audit_events?target_id=${link.id}&starting_after=${foreign.id}`), 422, 'starting_after');
});

test('bad queries: the shape is a 400, a list rule a 422', async () => {
  const cases: [string, number, string?][] = [
    ['?color=red', 400],
    ['?action=refund.teleported', 400, 'action'],
    ['?actor_id=pl_01jd2x3y4z5a6b7c8d9e0f1g2h', 400, 'actor_id'],
    ['?target_id=not-an-id', 400, 'target_id'],
    ['?action=refund.created&target_id=rf_01jd2x3y4z5a6b7c8d9e0f1g2h', 400],
    ['?limit=0', 422, 'limit'],
    ['?limit=101', 422, 'limit'],
    ['?limit=abc', 422, 'limit'],
    ['?starting_after=aud_nope', 422, 'starting_after'],
    ['?ending_before=aud_01jd2x3y4z5a6b7c8d9e0f1g2h', 422, 'ending_before'],
    ['?starting_after=aud_01jd2x3y4z5a6b7c8d9e0f1g2h&ending_before=aud_01jd2x3y4z5a6b7c8d9e0f1g2h', 422, 'ending_before'],
  ];
  for (const [query, status, attribute] of cases) {
    const answer = await api.get(`/v1/audit_events${query}`);
    expect({ query, status: answer.status }).toEqual({ query, status });
    expectEnvelope(answer, status, attribute);
  }
});

test('no secret appears in any audit event: every token, password and webhook secret this file made', async () => {
  const json = JSON.stringify([...(await allEvents()), ...(await allEvents(client(stack.baseUrl, merchant.live)))]);
  expect(json.length).toBeGreaterThan(1000);
  expect([...secrets].filter((secret) => secret && json.includes(secret))).toEqual([]);
});
