import { isAudited, type AuditDeclaration, type PageRoute } from '../../../shared/api/operation';
import { dashboardPages } from '../../../shared/api/pages';
import { createPerson, dashboardBrowser, type DashboardBrowser, type Person } from '../../support/dashboard';
import { auditEvents } from '../../support/audit';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Every dashboard form that writes records exactly one audit event with its action, the person
 * as actor and its target (table-driven over the route declarations: a new audited form without
 * its case here fails the first test).
 */
let stack: TestStack;
let merchant: Merchant;
let owner: Person;
let cookie: string;
let browser: DashboardBrowser;
let api: ReturnType<typeof client>;
/** Every secret this file sees: none may be in an audit event. */
const secrets = new Set<string>();

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  owner = await createPerson(stack, merchant.orgId, 'owner');
  browser = dashboardBrowser(stack);
  cookie = await browser.sessionOf(owner);
  api = client(stack.baseUrl, merchant.test);
  secrets.add(merchant.test).add(merchant.live).add(owner.password);
}, 60_000);
afterAll(() => stack?.stop());

const created = async (path: string, body: unknown = {}) => {
  const answer = await api.post(path, body);
  expect(answer.status).toBeLessThan(300);
  return answer.body;
};
const newLink = () => created('/v1/payment_links', { amount: { value: '30.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
const newPayment = async () => created(`/v1/test_helpers/payment_links/${(await newLink()).id}/checkout`);
const newChargeback = async () => created(`/v1/test_helpers/payments/${(await newPayment()).id}/chargebacks`, { amount: { value: '10.00', currency: 'EUR' } });
const newEndpoint = async () => {
  const endpoint = await created('/v1/webhook_endpoints', { url: 'https://hooks.example/forms', enabled_events: ['transactions.refund.*'] });
  secrets.add(endpoint.secret);
  return endpoint;
};
const idAfter = (location: string | null) => location!.split('/').pop()!.split('?')[0];

type Case = () => Promise<{ send: () => Promise<{ status: number; location?: string | null; body?: any }>; targetId?: string | ((answer: any) => string); expectedStatus?: number }>;

/** How each audited form is posted (its setup first, outside the count). */
const CASES: Record<string, Case> = {
  'dashboard-create-payment-link': async () => ({
    send: () => browser.submit('/dashboard/payment-links', cookie, { 'amount.value': '12.50', 'amount.currency': 'eur', acceptor_id: merchant.acceptorId }),
    targetId: (answer) => idAfter(answer.location),
  }),
  'dashboard-update-payment-link': async () => {
    const { id } = await newLink();
    return { targetId: id, send: () => browser.submit(`/dashboard/payment-links/${id}`, cookie, { description: 'Changed', payments_limit: '', 'expires_at.date': '', 'expires_at.time': '' }) };
  },
  'dashboard-create-refund': async () => {
    const { id } = await newPayment();
    return { send: () => browser.submit(`/dashboard/payments/${id}/refunds`, cookie, { confirm: 'on', 'amount.value': '1.00' }), targetId: (answer) => idAfter(answer.location) };
  },
  'dashboard-cancel-refund': async () => {
    const { id: paymentId } = await newPayment();
    const { id } = await created(`/v1/payments/${paymentId}/refunds`, { amount: { value: '1.00', currency: 'eur' } });
    return { targetId: id, send: () => browser.submit(`/dashboard/refunds/${id}/cancel`, cookie, {}) };
  },
  'dashboard-accept-chargeback': async () => {
    const { id } = await newChargeback();
    return { targetId: id, send: () => browser.submit(`/dashboard/chargebacks/${id}/accept`, cookie, { confirm: 'on' }) };
  },
  'dashboard-dispute-chargeback': async () => {
    const { id } = await newChargeback();
    return { targetId: id, send: () => browser.submit(`/dashboard/chargebacks/${id}/dispute`, cookie, { confirm: 'on', 'evidence.product_description': 'A lamp' }) };
  },
  'dashboard-create-dispute-document': async () => {
    const { id } = await newChargeback();
    return {
      expectedStatus: 201,
      targetId: (answer) => answer.body.id,
      send: async () => {
        const answer = await fetch(`${stack.baseUrl}/dashboard/chargebacks/${id}/documents`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie },
          body: new URLSearchParams({ csrf_token: await browser.tokenOf(cookie), page_mode: 'test', filename: 'a.pdf', content_type: 'application/pdf', size: '10' }).toString(),
        });
        return { status: answer.status, body: await answer.json() };
      },
    };
  },
  'dashboard-resend-event': async () => {
    const link = await newLink();
    const events = (await api.get('/v1/events?type=transactions.payment_link.*&limit=100')).body.data;
    const { id } = events.find((event: { data: { id: string } }) => event.data.id === link.id);
    return { targetId: id, send: () => browser.submit(`/dashboard/events/${id}/resend`, cookie, {}) };
  },
  'dashboard-create-webhook': async () => ({
    send: () => browser.submit('/dashboard/webhooks', cookie, { url: 'https://hooks.example/added', enabled_events: 'transactions.refund.*' }),
    targetId: (answer) => idAfter(answer.location),
  }),
  'dashboard-update-webhook': async () => {
    const { id } = await newEndpoint();
    return { targetId: id, send: () => browser.submit(`/dashboard/webhooks/${id}`, cookie, { url: 'https://hooks.example/changed', enabled_events: 'transactions.refund.*', description: 'Changed' }) };
  },
  'dashboard-roll-webhook-secret': async () => {
    const { id } = await newEndpoint();
    return { targetId: id, send: () => browser.submit(`/dashboard/webhooks/${id}/roll-secret`, cookie, { expires_in_seconds: '60' }) };
  },
  'dashboard-delete-webhook': async () => {
    const { id } = await newEndpoint();
    return { targetId: id, send: () => browser.submit(`/dashboard/webhooks/${id}/delete`, cookie, { confirm: 'on' }) };
  },
  'dashboard-create-api-key': async () => ({
    send: () => browser.submit('/dashboard/api-keys', cookie, { name: 'Forms', 'scope.payment:read': 'on' }),
    targetId: undefined,
  }),
  'dashboard-roll-api-key': async () => {
    const { id } = await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: owner.userId, mode: 'test', scopes: ['payment:read'] });
    return { targetId: id, send: () => browser.submit(`/dashboard/api-keys/${id}/roll`, cookie, { expires_in: 'now' }) };
  },
  'dashboard-revoke-api-key': async () => {
    const { id } = await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: owner.userId, mode: 'test', scopes: ['payment:read'] });
    return { targetId: id, send: () => browser.submit(`/dashboard/api-keys/${id}/revoke`, cookie, {}) };
  },
  'dashboard-change-password': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const session = await browser.sessionOf(person);
    const next = 'a second password, longer';
    secrets.add(person.password).add(next);
    return { targetId: person.userId, actor: person, send: () => browser.submit('/dashboard/security/password', session, { current_password: person.password, new_password: next }) };
  },
  'dashboard-sign-out-everywhere': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const session = await browser.sessionOf(person);
    return { targetId: person.userId, actor: person, send: () => browser.submit('/dashboard/security/sign-out-everywhere', session, {}) };
  },
  'dashboard-sign-in': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    return { targetId: person.userId, actor: person, send: () => browser.signIn(person) };
  },
  'dashboard-sign-out': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const session = await browser.sessionOf(person);
    return { targetId: person.userId, actor: person, send: () => browser.signOut(session) };
  },
};

const auditedForms = (dashboardPages as PageRoute[]).filter((route) => route.method === 'POST' && isAudited(route.audit));

test('every audited dashboard form has its case here', () => {
  expect(auditedForms.map((route) => route.handler).filter((handler) => !CASES[handler])).toEqual([]);
});

const eventsOf = (action: string) => auditEvents(api, `&action=${action}`);

test.each(auditedForms.map((route) => [route.handler, route] as const))(
  'audit: the form %s records exactly one event with its action, the person as actor and its target',
  async (handler, route) => {
    const { action } = route.audit as AuditDeclaration;
    const { send, targetId, expectedStatus, actor = owner } = (await CASES[handler]()) as Awaited<ReturnType<Case>> & { actor?: Person };
    const before = new Set((await eventsOf(action)).map((event) => event.id));
    const answer = await send();
    expect({ handler, status: answer.status }).toEqual({ handler, status: expectedStatus ?? 303 });
    const recorded = (await eventsOf(action)).filter((event) => !before.has(event.id));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ action, actor: { type: 'user', id: actor.userId, email: actor.email }, ip: expect.any(String) });
    const expected = typeof targetId === 'function' ? targetId(answer) : targetId;
    if (expected !== undefined) expect(recorded[0].target?.id).toBe(expected);
    else expect(recorded[0].target?.id).toMatch(/^key_/);
  },
  30_000,
);

test('no secret of this file is in any audit event', async () => {
  const json = JSON.stringify((await api.get('/v1/audit_events?limit=100')).body.data);
  expect([...secrets].filter((secret) => json.includes(secret))).toEqual([]);
});
