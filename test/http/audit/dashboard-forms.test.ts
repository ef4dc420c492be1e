import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isAudited, type AuditDeclaration, type PageRoute } from '../../../shared/api/operation';
import { dashboardPages } from '../../../shared/api/pages';
import { totpCode, totpSecretFromText, totpStepAt } from '../../../shared/domain/totp';
import { attemptWindowKey, createPerson, dashboardBrowser, formTokenOf, hiddenFieldsOf, linkIn, mailTo, rowOf, type DashboardBrowser, type Person } from '../../support/dashboard';
import { auditEvents, type AuditEventBody } from '../../support/audit';
import { softAuthenticator } from '../../support/soft-authenticator';
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
/** The same stack reached as `localhost`, where passkeys work (WebAuthn refuses an IP address). */
let localhost: DashboardBrowser;
let localOrigin: string;
/** Every secret this file sees: none may be in an audit event. */
const secrets = new Set<string>();

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  owner = await createPerson(stack, merchant.orgId, 'owner');
  browser = dashboardBrowser(stack);
  localOrigin = stack.baseUrl.replace('127.0.0.1', 'localhost');
  localhost = dashboardBrowser({ ...stack, baseUrl: localOrigin });
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

type Case = () => Promise<{
  send: () => Promise<{ status: number; location?: string | null; body?: any }>;
  /** The target's id, or how to find it in the answer or the record (a new person's id is known only from it). */
  targetId?: string | ((answer: any, recorded: AuditEventBody) => string);
  expectedStatus?: number;
  /** Who acts (the owner unless said); a person not yet created is known by their email alone. */
  actor?: Pick<Person, 'email'> & Partial<Pick<Person, 'userId'>>;
  /** Whose key reads the records (this file's organization's unless said). */
  reader?: ReturnType<typeof client>;
  /** The action names no target. */
  noTarget?: true;
}>;

const cookieNamed = (setCookie: string[], name: string) => setCookie.find((cookie) => cookie.startsWith(`${name}=`))?.split(';')[0];
const STRONG_PASSWORD = 'a new password, long enough';

/** A new person signed in, with the two-factor setup their Security page started: its key, and the code of the current step. */
async function twoFactorBegun() {
  const person = await createPerson(stack, merchant.orgId, 'viewer');
  const session = await browser.sessionOf(person);
  await browser.submit('/dashboard/security/two-factor', session, {});
  const secretText = /<code class="key" id="totp-secret">([A-Z2-7]+)<\/code>/.exec((await browser.get('/dashboard/security', session)).html)![1];
  secrets.add(person.password).add(secretText);
  const secret = totpSecretFromText(secretText);
  const step = totpStepAt(new Date());
  return { person, session, secret, step, code: totpCode(secret, step) };
}

/** A person signed in with two-factor set up: the session, the key, the step its confirming code used. */
async function withTwoFactor() {
  const begun = await twoFactorBegun();
  expect((await browser.submit('/dashboard/security/two-factor/confirm', begun.session, { code: begun.code })).status).toBe(303);
  return begun;
}

/** A person signed in at `localhost` with a passkey registered by a software authenticator. */
async function withPasskey() {
  const person = await createPerson(stack, merchant.orgId, 'viewer');
  const session = await localhost.sessionOf(person);
  const { credential, authenticator } = await passkeyCredential(session);
  expect((await localhost.submit('/dashboard/security/passkeys', session, { name: 'Laptop', credential: JSON.stringify(credential) })).status).toBe(303);
  secrets.add(person.password);
  return { person, session, credential, authenticator };
}

/** A new credential for the Security page of `session`, from the registration options its script would ask for. */
async function passkeyCredential(session: string) {
  const fields = hiddenFieldsOf((await localhost.get('/dashboard/security', session)).html, '/dashboard/security/passkeys');
  const options = await localhost.post('/dashboard/security/passkeys/options', { csrf_token: fields.csrf_token, page_mode: 'test' }, { cookie: session });
  expect(options.status).toBe(200);
  const authenticator = softAuthenticator();
  return { credential: authenticator.create(JSON.parse(options.html), localOrigin), authenticator };
}

/** The link of the newest email to `address`, after `ask` made it send one. */
async function mailedLink(address: string) {
  const [message] = await mailTo(stack, address);
  const link = linkIn(message);
  secrets.add(link.split('/').pop()!);
  return link;
}

/** An invitation sent from the owner's team page: its id and its link. */
async function invitation() {
  const email = `audited-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  expect((await browser.submit('/dashboard/team/invitations', cookie, { email, role: 'viewer' })).status).toBe(303);
  const link = await mailedLink(email);
  return { email, link, id: link.split('/').pop()!.split('.')[0] };
}

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
  'dashboard-create-report': async () => ({
    send: () =>
      browser.submit('/dashboard/reports', cookie, { type: 'payments', 'created.gte': new Date(Date.now() - 86_400_000).toISOString(), 'created.lt': new Date().toISOString() }),
    targetId: (answer) => idAfter(answer.location),
  }),
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
  'dashboard-invite': async () => {
    const email = `invited-${Date.now()}@example.com`;
    return { send: () => browser.submit('/dashboard/team/invitations', cookie, { email, role: 'developer' }), targetId: (_answer, recorded) => (recorded.target?.id.startsWith('inv_') ? recorded.target.id : 'an invitation') };
  },
  'dashboard-resend-invitation': async () => {
    const { id } = await invitation();
    return { targetId: id, send: () => browser.submit(`/dashboard/team/invitations/${id}/resend`, cookie, {}) };
  },
  'dashboard-revoke-invitation': async () => {
    const { id } = await invitation();
    return { targetId: id, send: () => browser.submit(`/dashboard/team/invitations/${id}/revoke`, cookie, { confirm: 'on' }) };
  },
  'dashboard-accept-invitation': async () => {
    const { email, link } = await invitation();
    secrets.add(STRONG_PASSWORD);
    return { actor: { email }, targetId: (_answer, recorded) => recorded.actor.id!, send: () => browser.postSignedOut(link, { name: 'Joining Person', password: STRONG_PASSWORD }) };
  },
  'dashboard-change-role': async () => {
    const member = await createPerson(stack, merchant.orgId, 'viewer');
    return { targetId: member.userId, send: () => browser.submit(`/dashboard/team/members/${member.userId}/role`, cookie, { role: 'support' }) };
  },
  'dashboard-remove-member': async () => {
    const member = await createPerson(stack, merchant.orgId, 'viewer');
    return { targetId: member.userId, send: () => browser.submit(`/dashboard/team/members/${member.userId}/remove`, cookie, { confirm: 'on' }) };
  },
  'dashboard-hand-over-ownership': async () => {
    // An organization of its own, so that this file's owner stays the owner; its records are read with its key.
    const other = await createMerchant(stack);
    const [from, to] = [await createPerson(stack, other.orgId, 'owner'), await createPerson(stack, other.orgId, 'admin')];
    const session = await browser.sessionOf(from);
    secrets.add(from.password).add(other.test).add(other.live);
    return {
      actor: from,
      targetId: to.userId,
      reader: client(stack.baseUrl, other.test),
      send: () => browser.submit('/dashboard/team/ownership', session, { user_id: to.userId, password: from.password, confirm: 'on' }),
    };
  },
  'dashboard-confirm-two-factor': async () => {
    const { person, session, code } = await twoFactorBegun();
    return { actor: person, targetId: person.userId, send: () => browser.submit('/dashboard/security/two-factor/confirm', session, { code }) };
  },
  'dashboard-regenerate-recovery-codes': async () => {
    const { person, session } = await withTwoFactor();
    return { actor: person, targetId: person.userId, send: () => browser.submit('/dashboard/security/recovery-codes', session, {}) };
  },
  'dashboard-remove-two-factor': async () => {
    const { person, session } = await withTwoFactor();
    return { actor: person, targetId: person.userId, send: () => browser.submit('/dashboard/security/two-factor/remove', session, { password: person.password }) };
  },
  'dashboard-add-passkey': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    const session = await localhost.sessionOf(person);
    const { credential } = await passkeyCredential(session);
    secrets.add(person.password);
    return { actor: person, targetId: person.userId, send: () => localhost.submit('/dashboard/security/passkeys', session, { name: 'Work laptop', credential: JSON.stringify(credential) }) };
  },
  'dashboard-remove-passkey': async () => {
    const { person, session, credential } = await withPasskey();
    return { actor: person, targetId: person.userId, send: () => localhost.submit(`/dashboard/security/passkeys/${credential.id}/remove`, session, {}) };
  },
  'dashboard-require-two-factor': async () => ({
    // Off: on would have every later sign-in of this file's people enrol first.
    send: () => browser.submit('/dashboard/security/require-two-factor', cookie, { require: 'off' }),
    targetId: undefined,
    noTarget: true,
  }),
  'dashboard-reset-password': async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    expect((await browser.postSignedOut('/dashboard/forgot-password', { email: person.email })).status).toBe(303);
    const link = await mailedLink(person.email);
    secrets.add(person.password).add(STRONG_PASSWORD);
    return { actor: person, targetId: person.userId, send: () => browser.postSignedOut(link, { password: STRONG_PASSWORD }) };
  },
  'dashboard-submit-second-factor': async () => {
    const { person, secret, step } = await withTwoFactor();
    const signedIn = await browser.signIn(person);
    const pending = cookieNamed(signedIn.setCookie, 'dashboard_pending')!;
    const token = formTokenOf((await browser.get('/dashboard/sign-in/second-factor', pending)).html)!;
    // A step after the one the enrolment used: a code serves once.
    const code = totpCode(secret, step + 1);
    return { actor: person, targetId: person.userId, send: () => browser.post('/dashboard/sign-in/second-factor', { csrf_token: token, code }, { cookie: pending }) };
  },
  'dashboard-submit-passkey-sign-in': async () => {
    const { person, authenticator } = await withPasskey();
    const page = await localhost.get('/dashboard/sign-in/passkey');
    const signInCookie = cookieNamed(page.setCookie, 'dashboard_sign_in')!;
    const token = formTokenOf(page.html)!;
    const options = await localhost.post('/dashboard/sign-in/passkey/options', { csrf_token: token }, { cookie: signInCookie });
    const answer = authenticator.get(JSON.parse(options.html), localOrigin);
    return { actor: person, targetId: person.userId, send: () => localhost.post('/dashboard/sign-in/passkey', { csrf_token: token, credential: JSON.stringify(answer) }, { cookie: signInCookie }) };
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

const eventsOf = (action: string, reader = api) => auditEvents(reader, `&action=${action}`);

test.each(auditedForms.map((route) => [route.handler, route] as const))(
  'audit: the form %s records exactly one event with its action, the person as actor and its target',
  async (handler, route) => {
    const { action } = route.audit as AuditDeclaration;
    const { send, targetId, expectedStatus, actor = owner, reader = api, noTarget } = await CASES[handler]();
    const before = new Set((await eventsOf(action, reader)).map((event) => event.id));
    const answer = await send();
    expect({ handler, status: answer.status }).toEqual({ handler, status: expectedStatus ?? 303 });
    const recorded = (await eventsOf(action, reader)).filter((event) => !before.has(event.id));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ action, actor: { type: 'user', ...(actor.userId ? { id: actor.userId } : {}), email: actor.email }, ip: expect.any(String) });
    const expected = typeof targetId === 'function' ? targetId(answer, recorded[0]) : targetId;
    if (noTarget) expect(recorded[0].target).toBeNull();
    else if (expected !== undefined) expect(recorded[0].target?.id).toBe(expected);
    else expect(recorded[0].target?.id).toMatch(/^key_/);
  },
  30_000,
);

describe('refused sign-ins (§17: every sign-in, succeeded or failed, with the email tried)', () => {
  const WRONG_PASSWORD = 'not the password, surely';
  /** The refused sign-ins recorded as `person`'s, newest first. */
  const refusalsOf = async (person: Pick<Person, 'userId'>) => (await auditEvents(api, `&actor_id=${person.userId}`)).filter((event) => event.action === 'user.sign_in_failed');
  const refusalOf = (person: Person, email = person.email) => ({
    action: 'user.sign_in_failed',
    actor: { type: 'user', id: person.userId, email },
    target: { type: 'user', id: person.userId },
    mode: null,
    ip: expect.any(String),
  });

  beforeAll(() => void secrets.add(WRONG_PASSWORD));

  test("a lockout's 429: one record per refused attempt with the email tried, on the API and the Audit page, up to as many as the window lets fail (5); the refusals after are not recorded", async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    secrets.add(person.password);
    for (let attempt = 0; attempt < 5; attempt++) expect((await browser.signIn({ email: person.email, password: WRONG_PASSWORD })).status).toBe(401);
    expect(await refusalsOf(person)).toHaveLength(5);
    const tried = person.email.toUpperCase();

    expect((await browser.signIn({ email: tried, password: person.password })).status).toBe(429);

    const [locked, ...before] = await refusalsOf(person);
    expect(before).toHaveLength(5);
    expect(locked).toMatchObject(refusalOf(person, tried));
    const auditPage = await browser.get('/dashboard/audit?action=user.sign_in_failed', cookie);
    expect(rowOf(auditPage.html, locked.id)).toContain(tried);
    for (let attempt = 0; attempt < 5; attempt++) expect((await browser.signIn({ email: tried, password: person.password })).status).toBe(429);
    expect(await refusalsOf(person)).toHaveLength(10);
  }, 60_000);

  test("an address's lockout: its refusal of a person's email is recorded as theirs, up to 50 refusals of the lock", async () => {
    const person = await createPerson(stack, merchant.orgId, 'viewer');
    // The address's window as 50 failures and 49 refusals would leave it (50 wrong passwords would take a minute here).
    const key = attemptWindowKey('address:127.0.0.1');
    await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...key, entity: 'attempt_window', window: 'seeded', count: 50, refusals: 49, endsAt: Date.now() + 10 * 60_000 } }));
    try {
      expect((await browser.signIn(person)).status).toBe(429);
      expect((await browser.signIn(person)).status).toBe(429);
    } finally {
      await stack.db.send(new DeleteCommand({ TableName: stack.tableName, Key: key }));
    }
    const refusals = await refusalsOf(person);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject(refusalOf(person));
  });

  test('a wrong second-factor code, TOTP or recovery code: one record each, the code in none', async () => {
    const { person, secret, step } = await withTwoFactor();
    const signedIn = await browser.signIn(person);
    const pending = cookieNamed(signedIn.setCookie, 'dashboard_pending')!;
    const token = formTokenOf((await browser.get('/dashboard/sign-in/second-factor', pending)).html)!;
    const wrongCodes = [totpCode(secret, step + 10), 'abcd-efgh-jkmn-pqrs'];
    for (const code of wrongCodes) {
      secrets.add(code);
      expect((await browser.post('/dashboard/sign-in/second-factor', { csrf_token: token, code }, { cookie: pending })).status).toBe(401);
    }
    expect(await refusalsOf(person)).toEqual([expect.objectContaining(refusalOf(person)), expect.objectContaining(refusalOf(person))]);
  });

  /** Posts the passkey sign-in's answer that `answer` makes of a fresh challenge, as the script would: the status. */
  async function passkeySignIn(answer: (options: any) => unknown) {
    const page = await localhost.get('/dashboard/sign-in/passkey');
    const signInCookie = cookieNamed(page.setCookie, 'dashboard_sign_in')!;
    const token = formTokenOf(page.html)!;
    const options = await localhost.post('/dashboard/sign-in/passkey/options', { csrf_token: token }, { cookie: signInCookie });
    return (await localhost.post('/dashboard/sign-in/passkey', { csrf_token: token, credential: JSON.stringify(answer(JSON.parse(options.html))) }, { cookie: signInCookie })).status;
  }

  test("a passkey's answer that does not verify (another origin's): one record of its person; an answer naming a passkey never registered, none", async () => {
    const { person, session, authenticator } = await withPasskey();
    expect(await passkeySignIn((options) => authenticator.get(options, 'https://payments.example.net'))).toBe(401);
    const refusals = await refusalsOf(person);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject(refusalOf(person));

    // A credential made for the person, with their user handle, but never added: anyone could forge its like.
    const unregistered = await passkeyCredential(session);
    expect(await passkeySignIn((options) => unregistered.authenticator.get(options, localOrigin))).toBe(401);
    expect(await refusalsOf(person)).toHaveLength(1);
  });
});

test('no secret of this file is in any audit event', async () => {
  const json = JSON.stringify((await api.get('/v1/audit_events?limit=100')).body.data);
  expect([...secrets].filter((secret) => json.includes(secret))).toEqual([]);
});
