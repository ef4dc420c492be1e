import { dashboardPages } from '../../../shared/api/pages';
import type { PageRoute } from '../../../shared/api/operation';
import { ANY_MEMBER, ROLE_PERMISSIONS, TEAM_ROLES, roleMay, type Permission, type TeamRole } from '../../../shared/domain/team-roles';
import { createPerson, dashboardBrowser, hiddenFieldsOf, seedAccount, type DashboardBrowser, type SeededAccount } from '../../support/dashboard';
import { client } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { importDocument, settlementInput } from '../../support/settlements';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Roles as data (product-decisions §16): every page and form of shared/api/pages.ts behind a
 * session, for every role, as the role table says — a page it may not see and a form it may not
 * post answer the 403 page (OWASP ASVS 5.0 V8.2.1: access checked on the server, per function),
 * and a page shows a control only to a role that may use it. A route added without an entry
 * below fails here.
 */
let stack: TestStack;
let merchant: Merchant;
let seeded: SeededAccount;
let browser: DashboardBrowser;
let endpointId: string;
let apiKeyId: string;
/** A paid payment nothing has refunded or charged back: its page offers a refund. */
let refundableId: string;
/** A member the team forms name (posted without their nonce, they change nothing). */
let bystander: string;
/** A live settlement, by its code (its pages take the code or the id). */
let settlementId: string;
/** A report of the seeded account's payments. */
let reportId: string;
/** A signed-in session per role, in test mode; `live` in live mode. */
const sessions = {} as Record<TeamRole, string>;
const liveSessions = {} as Record<TeamRole, string>;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  merchant = await createMerchant(stack);
  seeded = await seedAccount(stack, merchant);
  refundableId = (await seedPaidPayment(stack, merchant, { amount: '30.00' })).id;
  endpointId = (await client(stack.baseUrl, merchant.test).post('/v1/webhook_endpoints', { url: 'https://hooks.example/roles', enabled_events: ['*'] })).body.id;
  apiKeyId = (await stack.directory.createApiKey({ orgId: merchant.orgId, creatorId: merchant.userId, mode: 'test', scopes: ['payment:read'] })).id;
  const settlement = settlementInput(merchant.orgId);
  await importDocument(stack, [settlement]);
  settlementId = settlement.code;
  reportId = (await client(stack.baseUrl, merchant.test).post('/v1/reports', { type: 'payments', created: { gte: '2026-01-01T00:00:00Z', lt: '2026-02-01T00:00:00Z' } })).body.id;
  bystander = (await createPerson(stack, merchant.orgId, 'support')).userId;
  for (const role of TEAM_ROLES) {
    const person = await createPerson(stack, merchant.orgId, role);
    sessions[role] = await browser.sessionOf(person);
    liveSessions[role] = await browser.sessionOf(person, 'live');
  }
}, 120_000);
afterAll(() => stack.stop());

/**
 * Each route behind a session: the permission §16 gives it (checked against its declaration),
 * how to reach it (its path with ids of the seeded account; a form's fields) and what a role
 * that may use it gets (`allowed`: a page 200, a form 303). Forms are posted without their
 * one-time nonce: a role that may post one is sent back to its page (303) having run nothing,
 * and one that may not gets the 403 page before that.
 */
const ROUTES: Record<string, { permission: Permission | typeof ANY_MEMBER; path: () => string; fields?: Record<string, string>; allowed?: number }> = {
  'GET /dashboard': { permission: ANY_MEMBER, path: () => '/dashboard' },
  'POST /dashboard/sign-out': { permission: ANY_MEMBER, path: () => '/dashboard/sign-out' },
  'POST /dashboard/mode': { permission: ANY_MEMBER, path: () => '/dashboard/mode', fields: { mode: 'test' } },
  'GET /dashboard/search': { permission: ANY_MEMBER, path: () => `/dashboard/search?id=${seeded.linkId}`, allowed: 303 },
  'GET /dashboard/payment-links': { permission: 'payment_link:read', path: () => '/dashboard/payment-links' },
  'GET /dashboard/payment-links/new': { permission: 'payment_link:create', path: () => '/dashboard/payment-links/new' },
  'GET /dashboard/payment-links/{id}': { permission: 'payment_link:read', path: () => `/dashboard/payment-links/${seeded.linkId}` },
  'POST /dashboard/payment-links': { permission: 'payment_link:create', path: () => '/dashboard/payment-links' },
  'POST /dashboard/payment-links/{id}': { permission: 'payment_link:update', path: () => `/dashboard/payment-links/${seeded.linkId}`, fields: { status: 'inactive' } },
  'GET /dashboard/payments': { permission: 'payment:read', path: () => '/dashboard/payments' },
  'GET /dashboard/payments/{id}': { permission: 'payment:read', path: () => `/dashboard/payments/${refundableId}` },
  'POST /dashboard/payments/{id}/refunds': { permission: 'refund:create', path: () => `/dashboard/payments/${refundableId}/refunds`, fields: { confirm: 'on' } },
  'GET /dashboard/refunds': { permission: 'refund:read', path: () => '/dashboard/refunds' },
  'GET /dashboard/refunds/{id}': { permission: 'refund:read', path: () => `/dashboard/refunds/${seeded.heldRefundId}` },
  'POST /dashboard/refunds/{id}/cancel': { permission: 'refund:create', path: () => `/dashboard/refunds/${seeded.heldRefundId}/cancel` },
  'GET /dashboard/chargebacks': { permission: 'chargeback:read', path: () => '/dashboard/chargebacks' },
  'GET /dashboard/chargebacks/{id}': { permission: 'chargeback:read', path: () => `/dashboard/chargebacks/${seeded.openChargebacks[0].id}` },
  'POST /dashboard/chargebacks/{id}/accept': { permission: 'chargeback:update', path: () => `/dashboard/chargebacks/${seeded.openChargebacks[0].id}/accept`, fields: { confirm: 'on' } },
  'POST /dashboard/chargebacks/{id}/dispute': { permission: 'chargeback:update', path: () => `/dashboard/chargebacks/${seeded.openChargebacks[0].id}/dispute`, fields: { confirm: 'on' } },
  // The page's script's request: a refusal is JSON, a role that may gets the schema's 400 for the fields missing.
  'POST /dashboard/chargebacks/{id}/documents': { permission: 'chargeback:update', path: () => `/dashboard/chargebacks/${seeded.openChargebacks[0].id}/documents`, allowed: 422 },
  'GET /dashboard/events': { permission: 'event:read', path: () => '/dashboard/events' },
  'GET /dashboard/events/{id}': { permission: 'event:read', path: () => `/dashboard/events/${seeded.eventId}` },
  'POST /dashboard/events/{id}/resend': { permission: 'event:resend', path: () => `/dashboard/events/${seeded.eventId}/resend` },
  'GET /dashboard/webhooks': { permission: 'webhook:read', path: () => '/dashboard/webhooks' },
  'GET /dashboard/webhooks/new': { permission: 'webhook:write', path: () => '/dashboard/webhooks/new' },
  'GET /dashboard/webhooks/{id}': { permission: 'webhook:read', path: () => `/dashboard/webhooks/${endpointId}` },
  'POST /dashboard/webhooks': { permission: 'webhook:write', path: () => '/dashboard/webhooks' },
  'POST /dashboard/webhooks/{id}': { permission: 'webhook:write', path: () => `/dashboard/webhooks/${endpointId}`, fields: { status: 'disabled', confirm: 'on' } },
  'POST /dashboard/webhooks/{id}/roll-secret': { permission: 'webhook:write', path: () => `/dashboard/webhooks/${endpointId}/roll-secret` },
  'POST /dashboard/webhooks/{id}/delete': { permission: 'webhook:write', path: () => `/dashboard/webhooks/${endpointId}/delete`, fields: { confirm: 'on' } },
  'GET /dashboard/balance-transactions': { permission: 'balance:read', path: () => '/dashboard/balance-transactions' },
  'GET /dashboard/settlements': { permission: 'settlement:read', path: () => '/dashboard/settlements' },
  // Settlements are live only: in test mode the one 404, after the permission.
  'GET /dashboard/settlements/{id}': { permission: 'settlement:read', path: () => `/dashboard/settlements/${settlementId}`, allowed: 404 },
  'GET /dashboard/settlements/{id}/records.csv': { permission: 'settlement:export', path: () => `/dashboard/settlements/${settlementId}/records.csv`, allowed: 404 },
  'GET /dashboard/security': { permission: ANY_MEMBER, path: () => '/dashboard/security' },
  'POST /dashboard/security/password': { permission: ANY_MEMBER, path: () => '/dashboard/security/password' },
  'POST /dashboard/security/sign-out-everywhere': { permission: ANY_MEMBER, path: () => '/dashboard/security/sign-out-everywhere' },
  'GET /dashboard/team': { permission: ANY_MEMBER, path: () => '/dashboard/team' },
  'POST /dashboard/team/members/{id}/role': { permission: 'team:manage', path: () => `/dashboard/team/members/${bystander}/role`, fields: { role: 'viewer' } },
  'POST /dashboard/team/members/{id}/remove': { permission: 'team:manage', path: () => `/dashboard/team/members/${bystander}/remove`, fields: { confirm: 'on' } },
  'POST /dashboard/team/invitations': { permission: 'team:manage', path: () => '/dashboard/team/invitations', fields: { email: 'roles@example.com', role: 'viewer' } },
  'POST /dashboard/team/invitations/{id}/resend': { permission: 'team:manage', path: () => '/dashboard/team/invitations/inv_nobody/resend' },
  'POST /dashboard/team/invitations/{id}/revoke': { permission: 'team:manage', path: () => '/dashboard/team/invitations/inv_nobody/revoke', fields: { confirm: 'on' } },
  'POST /dashboard/team/ownership': { permission: 'team:transfer_ownership', path: () => '/dashboard/team/ownership', fields: { confirm: 'on' } },
  'POST /dashboard/security/two-factor': { permission: ANY_MEMBER, path: () => '/dashboard/security/two-factor' },
  'POST /dashboard/security/two-factor/confirm': { permission: ANY_MEMBER, path: () => '/dashboard/security/two-factor/confirm', fields: { code: '123456' } },
  'POST /dashboard/security/recovery-codes': { permission: ANY_MEMBER, path: () => '/dashboard/security/recovery-codes' },
  'POST /dashboard/security/two-factor/remove': { permission: ANY_MEMBER, path: () => '/dashboard/security/two-factor/remove' },
  // The passkey script's request: JSON, the registration's options for any member.
  'POST /dashboard/security/passkeys/options': { permission: ANY_MEMBER, path: () => '/dashboard/security/passkeys/options', allowed: 200 },
  'POST /dashboard/security/passkeys': { permission: ANY_MEMBER, path: () => '/dashboard/security/passkeys' },
  'POST /dashboard/security/passkeys/{id}/remove': { permission: ANY_MEMBER, path: () => '/dashboard/security/passkeys/unknown/remove' },
  'POST /dashboard/security/require-two-factor': { permission: 'security:manage', path: () => '/dashboard/security/require-two-factor', fields: { require: 'off' } },
  'GET /dashboard/api-keys': { permission: 'api_key:test', path: () => '/dashboard/api-keys' },
  'POST /dashboard/api-keys': { permission: 'api_key:test', path: () => '/dashboard/api-keys', fields: { name: 'Roles', 'scope.payment:read': 'on' } },
  'POST /dashboard/api-keys/{id}/roll': { permission: 'api_key:test', path: () => `/dashboard/api-keys/${apiKeyId}/roll`, fields: { expires_in: '1 hour' } },
  'POST /dashboard/api-keys/{id}/revoke': { permission: 'api_key:test', path: () => `/dashboard/api-keys/${apiKeyId}/revoke` },
  'GET /dashboard/audit': { permission: 'audit:read', path: () => '/dashboard/audit' },
  'POST /dashboard/reports': { permission: 'report:create', path: () => '/dashboard/reports', fields: { type: 'payments' } },
  'GET /dashboard/reports/{id}': { permission: 'report:read', path: () => `/dashboard/reports/${reportId}` },
};

const behindSession = dashboardPages.filter((route): route is PageRoute => route.auth === 'dashboard session');
const keyOf = (route: PageRoute) => `${route.method} ${route.path}`;

test('every route behind a session is in the matrix, with the permission §16 gives it', () => {
  expect(behindSession.map(keyOf).sort()).toEqual(Object.keys(ROUTES).sort());
  for (const route of behindSession) expect([keyOf(route), route.permission]).toEqual([keyOf(route), ROUTES[keyOf(route)].permission]);
});

test('the role table of §16: owner everything; admin all but ownership and security settings; the others read everything and their own few', () => {
  const everything = new Set(Object.values(ROLE_PERMISSIONS).flat());
  expect(new Set(ROLE_PERMISSIONS.owner)).toEqual(everything);
  expect(ROLE_PERMISSIONS.owner.filter((permission) => !ROLE_PERMISSIONS.admin.includes(permission)).sort()).toEqual(['security:manage', 'team:transfer_ownership']);
  const reads = ROLE_PERMISSIONS.viewer;
  // Exporting a list is reading it (product-decisions §18): every role may take a report of what it may page through.
  expect([...reads].sort()).toEqual(['balance:read', 'chargeback:read', 'event:read', 'payment:read', 'payment_link:read', 'refund:read', 'report:create', 'report:read', 'settlement:read', 'webhook:read']);
  const beyondReading = (role: TeamRole) => ROLE_PERMISSIONS[role].filter((permission) => !reads.includes(permission as never)).sort();
  expect(beyondReading('developer')).toEqual(['api_key:test', 'event:resend', 'webhook:write']);
  expect(beyondReading('operator')).toEqual(['chargeback:update', 'payment_link:create', 'payment_link:update', 'refund:create']);
  expect(beyondReading('finance')).toEqual(['settlement:export']);
  expect(beyondReading('support')).toEqual(['refund:create']);
});

/** The routes in the order a session can take them: the ones that end it (sign-out, sign out everywhere) each with a session of its own. */
const ENDS_SESSION = new Set(['POST /dashboard/sign-out', 'POST /dashboard/security/sign-out-everywhere']);

describe.each(TEAM_ROLES)('%s', (role) => {
  test.each(behindSession.map((route) => [keyOf(route), route] as const))('%s', async (key, route) => {
    const entry = ROUTES[key];
    const allowed = roleMay(role, entry.permission);
    const cookie = ENDS_SESSION.has(key) ? await browser.sessionOf(await createPerson(stack, merchant.orgId, role)) : sessions[role];
    let status: number;
    if (route.method === 'GET') {
      status = (await browser.get(entry.path(), cookie)).status;
    } else {
      const token = await browser.tokenOf(cookie);
      status = (await browser.post(entry.path(), { csrf_token: token, page_mode: 'test', ...entry.fields }, { cookie })).status;
    }
    expect([key, status]).toEqual([key, allowed ? (entry.allowed ?? (route.method === 'GET' ? 200 : 303)) : 403]);
  });
});

describe('controls: a page shows a control only to a role that may use it', () => {
  const shows = async (role: TeamRole, path: string, control: string | RegExp, cookieOf = sessions) => {
    const html = (await browser.get(path, cookieOf[role])).html;
    return typeof control === 'string' ? html.includes(control) : control.test(html);
  };

  test.each(TEAM_ROLES)('%s', async (role) => {
    const may = (permission: Permission) => roleMay(role, permission);
    const expected = {
      'Create a payment link': may('payment_link:create'),
      Deactivate: may('payment_link:update'),
      Refund: may('refund:create'),
      'Cancel refund': may('refund:create'),
      'Accept chargeback': may('chargeback:update'),
      'Add an endpoint': may('webhook:write'),
      'Roll secret': may('webhook:write'),
      Resend: may('event:resend'),
      'Download CSV': may('settlement:export'),
      'Export CSV': may('report:create'),
      'Change role': may('team:manage'),
      'Hand ownership over': may('team:transfer_ownership'),
      'Require two-factor for everyone': may('security:manage'),
    };
    const shown = {
      'Create a payment link': await shows(role, '/dashboard/payment-links', 'Create a payment link'),
      Deactivate: await shows(role, `/dashboard/payment-links/${seeded.linkId}`, '>Deactivate</button>'),
      Refund: await shows(role, `/dashboard/payments/${refundableId}`, '>Refund</button>'),
      'Cancel refund': await shows(role, `/dashboard/refunds/${seeded.heldRefundId}`, '>Cancel refund</button>'),
      'Accept chargeback': await shows(role, `/dashboard/chargebacks/${seeded.openChargebacks[0].id}`, '>Accept chargeback</button>'),
      'Add an endpoint': await shows(role, '/dashboard/webhooks', 'Add an endpoint'),
      'Roll secret': await shows(role, `/dashboard/webhooks/${endpointId}`, '>Roll secret</button>'),
      Resend: await shows(role, `/dashboard/events/${seeded.eventId}`, />Resend[^<]*<\/button>/),
      'Download CSV': await shows(role, `/dashboard/settlements/${settlementId}`, 'Download CSV', liveSessions),
      'Export CSV': await shows(role, '/dashboard/payments', '>Export CSV</button>'),
      'Change role': await shows(role, '/dashboard/team', '>Change role</button>'),
      'Hand ownership over': await shows(role, '/dashboard/team', '>Hand ownership over</button>'),
      'Require two-factor for everyone': await shows(role, '/dashboard/security', '>Require two-factor for everyone</button>'),
    };
    expect(shown).toEqual(expected);
  });

  test('a viewer posting the refund form anyway gets the 403 page, and no refund is made', async () => {
    const page = await browser.get(`/dashboard/payments/${refundableId}`, sessions.owner);
    const fields = hiddenFieldsOf(page.html, `/dashboard/payments/${refundableId}/refunds`);
    const before = (await client(stack.baseUrl, merchant.test).get('/v1/refunds?limit=100')).body.data.length;
    const forged = await browser.post(`/dashboard/payments/${refundableId}/refunds`, { ...fields, csrf_token: await browser.tokenOf(sessions.viewer), confirm: 'on', 'amount.value': '1.00' }, { cookie: sessions.viewer });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('Your role, Viewer, does not allow this (refund:create)');
    expect((await client(stack.baseUrl, merchant.test).get('/v1/refunds?limit=100')).body.data.length).toBe(before);
  });
});
