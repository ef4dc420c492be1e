import { createTeamDirectory } from '../../../shared/db/team-directory';
import { client } from '../../support/http';
import { createPerson, dashboardBrowser, rowOf, type DashboardBrowser, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { requestUntil } from '../../support/wait';

/**
 * The team page (product-decisions §16) over HTTP: everyone sees the members; owners and admins
 * change roles and remove members (never the owner, never themselves); the owner hands
 * ownership to an admin, confirmed with their password; always exactly one owner.
 */
let stack: TestStack;
let merchant: Merchant;
let browser: DashboardBrowser;
let owner: Person;
let admin: Person;
let ownerSession: string;
let adminSession: string;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  merchant = await createMerchant(stack);
  [owner, admin] = await Promise.all([createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' }), createPerson(stack, merchant.orgId, 'admin', { name: 'Ada Admin' })]);
  [ownerSession, adminSession] = [await browser.sessionOf(owner), await browser.sessionOf(admin)];
}, 60_000);
afterAll(() => stack.stop());

const teamRoleOf = async (person: Person) => (await createTeamDirectory(stack.db, stack.tableName).person(person.userId))!.teamRole;
const fieldError = (html: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];

describe('everyone sees the members', () => {
  test('a viewer sees name, email, role, two-factor, passkeys and last sign-in of each member, and no control', async () => {
    const viewer = await createPerson(stack, merchant.orgId, 'viewer', { name: 'Vic Viewer' });
    const page = await browser.get('/dashboard/team', await browser.sessionOf(viewer));
    expect(page.status).toBe(200);
    const row = rowOf(page.html, owner.userId)!;
    for (const text of ['Olive Owner', owner.email, '>Owner<', '>Off</span>', 'data-label="Passkeys">0<']) expect(row).toContain(text);
    expect(row).toMatch(/data-label="Last sign-in"><time datetime="/);
    expect(rowOf(page.html, viewer.userId)).toContain('>You</span>');
    expect(page.html).not.toContain('Change role');
    expect(page.html).not.toContain('>Remove</button>');
    expect(page.html).not.toContain('Hand ownership over');
  });

  test('an admin sees each member\'s forms but the owner\'s and their own; the owner sees the handover', async () => {
    const team = (await browser.get('/dashboard/team', adminSession)).html;
    expect(rowOf(team, owner.userId)).not.toContain('Change role');
    expect(rowOf(team, admin.userId)).not.toContain('Change role');
    expect((await browser.get('/dashboard/team', ownerSession)).html).toContain('>Hand ownership over</button>');
    expect(team).not.toContain('Hand ownership over');
  });
});

describe('roles', () => {
  test('an admin makes a developer an operator: the page says so, and the member\'s next request has the new role', async () => {
    const developer = await createPerson(stack, merchant.orgId, 'developer', { name: 'Dev Eloper' });
    const session = await browser.sessionOf(developer);
    expect((await browser.get('/dashboard/payment-links/new', session)).status).toBe(403);
    const changed = await browser.submit(`/dashboard/team/members/${developer.userId}/role`, adminSession, { role: 'operator' });
    expect(changed.status).toBe(303);
    expect((await browser.follow(changed, adminSession)).html).toContain('Dev Eloper&#39;s role is now Operator.');
    expect(await teamRoleOf(developer)).toBe('operator');
    expect((await browser.get('/dashboard/payment-links/new', session)).status).toBe(200);
  });

  test.each([
    ['the owner\'s role', () => owner, { role: 'viewer' }, "The owner's role changes only when they hand ownership over"],
    ['one\'s own role', () => admin, { role: 'viewer' }, 'You cannot change your own role'],
  ])('%s (no form offers it; posted anyway) -> 422 above the members, nothing changed', async (_name, target, fields, detail) => {
    const before = await teamRoleOf(target());
    const refused = await browser.submit(`/dashboard/team/members/${target().userId}/role`, adminSession, fields);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain(`<p role="alert">${detail.replace("'", '&#39;')}</p>`);
    expect(await teamRoleOf(target())).toBe(before);
  });

  test('owner as a new role -> 422 beside it: ownership is only handed over', async () => {
    const support = await createPerson(stack, merchant.orgId, 'support');
    const refused = await browser.submit(`/dashboard/team/members/${support.userId}/role`, ownerSession, { role: 'owner' });
    expect(refused.status).toBe(422);
    expect(fieldError(refused.html, `role-${support.userId}-role`)).toBe('Ownership is handed over by the owner, never given as a role');
    expect(await teamRoleOf(support)).toBe('support');
  });

  test('a member of another organization, or no one -> 404, nothing changed', async () => {
    const other = await createMerchant(stack);
    const stranger = await createPerson(stack, other.orgId, 'viewer');
    for (const id of [stranger.userId, 'usr_nobody']) {
      expect((await browser.submit(`/dashboard/team/members/${id}/role`, adminSession, { role: 'operator' })).status).toBe(404);
    }
    expect(await teamRoleOf(stranger)).toBe('viewer');
  });
});

describe('removing a member (§16: their sessions end and their keys stop within 5 s)', () => {
  test('without the box ticked -> 422, nothing changed', async () => {
    const member = await createPerson(stack, merchant.orgId, 'finance');
    const refused = await browser.submit(`/dashboard/team/members/${member.userId}/remove`, adminSession, {});
    expect(refused.status).toBe(422);
    expect((await browser.signIn(member)).status).toBe(303);
  });

  test('removed: their open session ends at its next request, their key answers 403 within 5 s, they cannot sign in; their email may be given to a new member', async () => {
    const member = await createPerson(stack, merchant.orgId, 'developer', { name: 'Leaving Soon' });
    const session = await browser.sessionOf(member);
    const token = await merchant.key({ creatorId: member.userId, scopes: ['payment_link:read'] });
    expect((await client(stack.baseUrl, token).get('/v1/payment_links')).status).toBe(200);
    const removed = await browser.submit(`/dashboard/team/members/${member.userId}/remove`, adminSession, { confirm: 'on' });
    expect(removed.status).toBe(303);
    const removedAt = Date.now();
    expect((await browser.follow(removed, adminSession)).html).toContain('Leaving Soon is removed from the team');
    expect((await browser.get('/dashboard', session)).status).toBe(401);
    await requestUntil(() => client(stack.baseUrl, token).get('/v1/payment_links'), (answer) => answer.status === 403, "the removed member's key refused", { by: removedAt + 5_000 });
    expect((await browser.signIn(member)).status).toBe(401);
    expect(rowOf((await browser.get('/dashboard/team', adminSession)).html, member.userId)).toBeUndefined();
    await expect(createPerson(stack, merchant.orgId, 'viewer', { email: member.email })).resolves.toMatchObject({ email: member.email });
  });

  test.each([
    ['the owner', () => owner, 'The owner cannot be removed: they hand ownership to an admin first'],
    ['oneself', () => admin, 'You cannot remove yourself: another admin or the owner can'],
  ])('%s (no form offers it; posted anyway) -> 422 above the members, nothing changed', async (_name, target, detail) => {
    const refused = await browser.submit(`/dashboard/team/members/${target().userId}/remove`, adminSession, { confirm: 'on' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain(`<p role="alert">${detail}</p>`);
    expect((await browser.get('/dashboard', adminSession)).status).toBe(200);
  });
});

describe('ownership', () => {
  test('the owner hands ownership to an admin with their password: the owner becomes an admin, the admin the owner', async () => {
    const merchantB = await createMerchant(stack);
    const [first, second] = await Promise.all([createPerson(stack, merchantB.orgId, 'owner', { name: 'First Owner' }), createPerson(stack, merchantB.orgId, 'admin', { name: 'Second Owner' })]);
    const session = await browser.sessionOf(first);
    const wrong = await browser.submit('/dashboard/team/ownership', session, { user_id: second.userId, password: 'not the password at all', confirm: 'on' });
    expect(wrong.status).toBe(422);
    expect(fieldError(wrong.html, 'ownership-password')).toBe('This is not your current password');
    expect(wrong.html).not.toContain('not the password at all');
    const handed = await browser.submit('/dashboard/team/ownership', session, { user_id: second.userId, password: first.password, confirm: 'on' });
    expect(handed.status).toBe(303);
    expect((await browser.follow(handed, session)).html).toContain('Second Owner is now the owner; you are an admin.');
    expect([await teamRoleOf(first), await teamRoleOf(second)]).toEqual(['admin', 'owner']);
    // The former owner's next request is an admin's: no handover any more.
    expect((await browser.submit('/dashboard/team/ownership', session, { user_id: second.userId, password: first.password, confirm: 'on' })).status).toBe(403);
  });

  test('to someone who is not an admin -> 422 beside the choice', async () => {
    const developer = await createPerson(stack, merchant.orgId, 'developer');
    const refused = await browser.submit('/dashboard/team/ownership', ownerSession, { user_id: developer.userId, password: owner.password, confirm: 'on' });
    expect(refused.status).toBe(422);
    expect(fieldError(refused.html, 'ownership-user_id')).toBe('Ownership goes to an admin of the team: make them an admin first');
    expect(await teamRoleOf(owner)).toBe('owner');
  });

  test('two handovers at once, to two admins: one wins, and the organization has exactly one owner', async () => {
    const merchantC = await createMerchant(stack);
    const [boss, one, two] = await Promise.all([createPerson(stack, merchantC.orgId, 'owner'), createPerson(stack, merchantC.orgId, 'admin'), createPerson(stack, merchantC.orgId, 'admin')]);
    const [a, b] = [await browser.sessionOf(boss), await browser.sessionOf(boss)];
    const answers = await Promise.all([
      browser.submit('/dashboard/team/ownership', a, { user_id: one.userId, password: boss.password, confirm: 'on' }),
      browser.submit('/dashboard/team/ownership', b, { user_id: two.userId, password: boss.password, confirm: 'on' }),
    ]);
    // The loser meets the changed owner in the transaction (422), or already as an admin (403).
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(303);
    expect([403, 422]).toContain(statuses[1]);
    expect(answers.find((answer) => answer.status === 422)?.html ?? 'This member changed meanwhile').toContain('This member changed meanwhile');
    const roles = await Promise.all([boss, one, two].map(teamRoleOf));
    expect(roles.filter((role) => role === 'owner')).toHaveLength(1);
    expect(roles[0]).toBe('admin');
  }, 60_000);
});
