import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { createTeamDirectory } from '../../../shared/db/team-directory';
import { createPerson, dashboardBrowser, expire, linkIn, mailTo, rowOf, sectionOf, type DashboardBrowser, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * Invitations by email (product-decisions §16) over HTTP, read from the local mailbox's JSON:
 * owners and admins invite `{email, role}` (never owner; an email with a user: 422 beside the
 * field); the link works once, for 7 days; sent again it replaces the link; revoked it ends;
 * accepted with a name and password it signs the invitee in with the invited role.
 */
let stack: TestStack;
let merchant: Merchant;
let browser: DashboardBrowser;
let admin: Person;
let adminSession: string;

beforeAll(async () => {
  stack = await startTestStack();
  browser = dashboardBrowser(stack);
  merchant = await createMerchant(stack);
  await createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' });
  admin = await createPerson(stack, merchant.orgId, 'admin', { name: 'Ada Admin' });
  adminSession = await browser.sessionOf(admin);
}, 60_000);
afterAll(() => stack.stop());

let invitees = 0;
const newAddress = () => `invitee-${Date.now()}-${++invitees}@example.com`;
const fieldError = (html: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
const NEW_PASSWORD = 'a password of the invitee';

/** Invites `email` as `role` from the admin's team page; the link of the newest message it received. */
async function invite(email: string, role = 'developer'): Promise<string> {
  const posted = await browser.submit('/dashboard/team/invitations', adminSession, { email, role });
  expect(posted.status).toBe(303);
  const [message] = await mailTo(stack, email);
  return linkIn(message);
}

const accept = (link: string, name = 'New Person', password = NEW_PASSWORD) => browser.postSignedOut(link, { name, password });
const invitationIdOf = (link: string) => link.split('/').pop()!.split('.')[0];

describe('inviting', () => {
  test('an admin invites a developer: the team page lists the invitation and says it is sent; the email has the link in text and HTML, from the stage sender', async () => {
    const email = newAddress();
    const posted = await browser.submit('/dashboard/team/invitations', adminSession, { email, role: 'developer' });
    const team = await browser.follow(posted, adminSession);
    expect(team.html).toContain(`An invitation is on its way to ${email}, as Developer`);
    expect(rowOf(sectionOf(team.html, 'invitations'), email)).toContain('Developer');
    const [message] = await mailTo(stack, email);
    expect(message).toMatchObject({ to: [email], subject: expect.stringContaining('Join Org '), from: expect.any(String) });
    const link = linkIn(message);
    expect(link).toMatch(/^\/dashboard\/invitations\/inv_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}$/);
    expect(message.html).toContain(`${stack.baseUrl}${link}`);
    expect(message.text).toContain('Ada Admin invites you');
  });

  test('a viewer sees the pending invitations but no invite form, and posting it anyway is refused with 403', async () => {
    const email = newAddress();
    await invite(email);
    const viewerSession = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'viewer'));
    const team = await browser.get('/dashboard/team', viewerSession);
    expect(rowOf(sectionOf(team.html, 'invitations'), email)).toBeDefined();
    expect(team.html).not.toContain('>Invite</button>');
    expect(team.html).not.toContain('>Revoke</button>');
    expect((await browser.submit('/dashboard/team/invitations', viewerSession, { email: newAddress(), role: 'viewer' })).status).toBe(403);
  });

  test.each([
    ['owner as the role', () => ({ email: newAddress(), role: 'owner' }), 'role', 'Ownership is handed over by the owner, never given by an invitation'],
    ['an email that has a user (in other letter case)', () => ({ email: admin.email.toUpperCase(), role: 'viewer' }), 'email', 'This email address already has a user'],
  ])('%s -> 422 beside the field, no invitation, no email', async (_name, fields, field, detail) => {
    const body = fields();
    const refused = await browser.submit('/dashboard/team/invitations', adminSession, body);
    expect(refused.status).toBe(422);
    expect(fieldError(refused.html, `invite-${field}`)).toBe(detail);
    expect(await mailTo(stack, body.email)).toEqual([]);
  });
});

describe('the link (single use, 7 days)', () => {
  test('the invitation page names the team, the role and the email; accepting signs the invitee in as a developer, and the invitation is gone', async () => {
    const email = newAddress();
    const link = await invite(email);
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('You are invited as Developer');
    expect(page.html).toContain(email);
    const accepted = await accept(link, 'Dana Developer');
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe(`${stack.baseUrl}/dashboard`);
    const overview = await browser.get('/dashboard', accepted.cookie);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('Dana Developer');
    const person = await createTeamDirectory(stack.db, stack.tableName).personByEmail(email);
    expect(person).toMatchObject({ teamRole: 'developer', status: 'active', name: 'Dana Developer', orgId: merchant.orgId });
    expect((await browser.signIn({ email, password: NEW_PASSWORD })).status).toBe(303);
    expect(rowOf(sectionOf((await browser.get('/dashboard/team', adminSession)).html, 'invitations'), email)).toBeUndefined();
  });

  test('a used link answers 404, both the page and the form posted again; nobody is created twice', async () => {
    const link = await invite(newAddress());
    const page = await browser.get(link);
    const formCookie = page.setCookie.find((cookie) => cookie.startsWith('dashboard_sign_in='))!.split(';')[0];
    const fields = { name: 'Twice', password: NEW_PASSWORD, csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page.html)![1] };
    expect((await browser.post(link, fields, { cookie: formCookie })).status).toBe(303);
    expect((await browser.post(link, fields, { cookie: formCookie })).status).toBe(404);
    const again = await browser.get(link);
    expect(again.status).toBe(404);
    expect(again.html).toContain('This invitation link no longer works');
  });

  test('an expired link answers 404 and cannot be accepted', async () => {
    const link = await invite(newAddress());
    await expire(stack, keys.invitation(invitationIdOf(link)));
    expect((await browser.get(link)).status).toBe(404);
  });

  test('a link with a wrong random part, or of no invitation, answers 404', async () => {
    const link = await invite(newAddress());
    const forged = `${link.slice(0, -4)}AAAA`;
    for (const path of [forged, '/dashboard/invitations/inv_nothing', `/dashboard/invitations/inv_${'0'.repeat(26)}.${'A'.repeat(43)}`]) {
      expect((await browser.get(path)).status).toBe(404);
    }
    expect((await browser.get(link)).status).toBe(200);
  });

  test('sent again: the old link no longer works, the new one does', async () => {
    const email = newAddress();
    const first = await invite(email);
    const resent = await browser.submit(`/dashboard/team/invitations/${invitationIdOf(first)}/resend`, adminSession, {});
    expect(resent.status).toBe(303);
    const messages = await mailTo(stack, email);
    expect(messages).toHaveLength(2);
    const second = linkIn(messages[0]);
    expect(second).not.toBe(first);
    expect((await browser.get(first)).status).toBe(404);
    expect((await browser.get(second)).status).toBe(200);
  });

  test('revoked (once confirmed): its link answers 404; without the box ticked, 422 and it stands', async () => {
    const link = await invite(newAddress());
    const revokePath = `/dashboard/team/invitations/${invitationIdOf(link)}/revoke`;
    expect((await browser.submit(revokePath, adminSession, {})).status).toBe(422);
    expect((await browser.get(link)).status).toBe(200);
    const revoked = await browser.submit(revokePath, adminSession, { confirm: 'on' });
    expect(revoked.status).toBe(303);
    expect((await browser.follow(revoked, adminSession)).html).toContain('The invitation is revoked');
    expect((await browser.get(link)).status).toBe(404);
    expect((await accept(link)).status).toBe(404);
  });

  test('a short password or an empty name -> the form again, 422 beside the field, the invitation still open', async () => {
    const email = newAddress();
    const link = await invite(email);
    const short = await accept(link, 'Somebody', 'too short');
    expect(short.status).toBe(422);
    expect(fieldError(short.html, 'join-password')).toBe('A password needs at least 12 characters');
    expect(short.html).toContain('value="Somebody"');
    const nameless = await accept(link, '  ');
    expect(nameless.status).toBe(422);
    expect(fieldError(nameless.html, 'join-name')).toBe('A name has 1 to 100 characters');
    expect((await accept(link)).status).toBe(303);
  });

  test('a form posted without the page\'s own cookie and token -> 403, nothing created', async () => {
    const email = newAddress();
    const link = await invite(email);
    expect((await browser.post(link, { name: 'Forged', password: NEW_PASSWORD })).status).toBe(403);
    expect(await createTeamDirectory(stack.db, stack.tableName).personByEmail(email)).toBeUndefined();
  });

  test('when the owner requires two-factor, accepting leads to its enrolment (a pending sign-in), not to a session', async () => {
    const link = await invite(newAddress());
    await stack.db.send(
      new UpdateCommand({ TableName: stack.tableName, Key: keys.organization(merchant.orgId), UpdateExpression: 'SET requireTwoFactor = :on', ExpressionAttributeValues: { ':on': true } }),
    );
    try {
      const accepted = await accept(link);
      expect(accepted.status).toBe(303);
      expect(accepted.location).toBe(`${stack.baseUrl}/dashboard/sign-in/second-factor`);
      expect(accepted.cookie).toBeUndefined();
      expect(accepted.setCookie.some((cookie) => cookie.startsWith('dashboard_pending='))).toBe(true);
    } finally {
      await stack.db.send(new UpdateCommand({ TableName: stack.tableName, Key: keys.organization(merchant.orgId), UpdateExpression: 'REMOVE requireTwoFactor' }));
    }
  });
});
