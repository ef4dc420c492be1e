import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, linkIn, mailTo, type Person } from '../../support/dashboard';
import { client } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const describeBrowser = browserAvailable() ? describe : describe.skip;

/**
 * People in headless Chromium (product-decisions §16): signing in, what a role sees and may do,
 * the security page, an invitation read from the local mailbox and accepted, a password reset;
 * every page of it at 1280 and 390 px without sideways scrolling and without
 * a serious or critical axe-core violation. DASHBOARD_SCREENSHOTS=<folder> keeps a screenshot of
 * each, for the person who checks them by eye.
 */
describeBrowser('a team in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let viewer: Person;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    [owner, viewer] = await Promise.all([createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' }), createPerson(stack, merchant.orgId, 'viewer', { name: 'Vic Viewer' })]);
    await createPerson(stack, merchant.orgId, 'admin', { name: 'Ada Admin' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const contextOf = (width = 1280): Promise<BrowserContext> => browser.newContext({ viewport: { width, height: 900 } });

  async function signIn(page: Page, person: Person): Promise<void> {
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  }

  /** The page as it stands: no sideways scrolling, no serious axe-core violation; its screenshot kept when asked. */
  async function checkPage(page: Page, name: string, width: number): Promise<void> {
    const folder = process.env.DASHBOARD_SCREENSHOTS;
    if (folder) await page.screenshot({ path: join(folder, `team-${name}-${width}.png`), fullPage: true });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect({ name, sideways, violations: await seriousAxeViolations(page) }).toEqual({ name, sideways: 0, violations: [] });
  }

  test('sign in: a wrong password shows the one refusal, the right one opens the dashboard of the person, in test mode; the switch shows live', async () => {
    const context = await contextOf();
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('surely not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Email or password is incorrect.');
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Olive Owner').isVisible()).toBe(true);
    expect(await page.getByText('Test mode', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Switch to live mode' }).click();
    await page.getByText('Live mode', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Switch to test mode' }).isVisible()).toBe(true);
    await context.close();
  });

  test('a viewer finds no refund button, and posting the refund form anyway gets the 403 page; no refund is made', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '25.00' });
    const context = await contextOf();
    const page = await context.newPage();
    await signIn(page, viewer);
    await page.goto(`${stack.baseUrl}/dashboard/payments/${payment.id}`);
    await page.getByRole('heading', { name: `Payment ${payment.id}` }).waitFor();
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    // The form an owner's page has, built in the viewer's page with its session's token, and sent.
    const answer = page.waitForResponse((response) => response.url().endsWith(`/payments/${payment.id}/refunds`));
    await page.evaluate((action) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      const token = (document.querySelector('input[name="csrf_token"]') as HTMLInputElement).value;
      for (const [name, value] of Object.entries({ csrf_token: token, page_mode: 'test', form_nonce: 'AAAAAAAAAAAAAAAAAAAAAA', confirm: 'on', 'amount.value': '5.00' })) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    }, `${stack.baseUrl}/dashboard/payments/${payment.id}/refunds`);
    expect((await answer).status()).toBe(403);
    await page.getByText('Your role, Viewer, does not allow this (refund:create)').waitFor();
    expect((await client(stack.baseUrl, merchant.test).get(`/v1/payments/${payment.id}/refunds`)).body.data).toEqual([]);
    await context.close();
  });

  test('the security page: a refused password change shows beside its field, a good one says every other session ended', async () => {
    const person = await createPerson(stack, merchant.orgId, 'developer', { password: 'a password for the browser' });
    const context = await contextOf();
    const page = await context.newPage();
    await signIn(page, person);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByLabel('Current password').fill('a password for the browser');
    await page.getByLabel('New password').fill('too short');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.locator('#password-new_password-error').textContent()).toBe('A password needs at least 12 characters');
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    await page.getByLabel('Current password').fill('a password for the browser');
    await page.getByLabel('New password').fill('another password, a longer one');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Your password is changed. Every other session has ended.');
    await context.close();
  }, 60_000);

  test.each([1280, 390])('at %i px the new pages fit and axe-core finds nothing serious', async (width) => {
    const context = await contextOf(width);
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/dashboard`);
    await checkPage(page, 'sign-in', width);
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByLabel('Password').fill('surely not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await checkPage(page, 'sign-in-refused', width);
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await checkPage(page, 'passkey-sign-in', width);
    await signIn(page, viewer);
    await checkPage(page, 'overview', width);
    await page.goto(`${stack.baseUrl}/dashboard/team`);
    await checkPage(page, 'team-as-viewer', width);
    await page.goto(`${stack.baseUrl}/dashboard/security`);
    await checkPage(page, 'security', width);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('whatever it may be');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('#password-current_password-error').waitFor();
    await checkPage(page, 'security-refused', width);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signIn(page, owner);
    await page.goto(`${stack.baseUrl}/dashboard/team`);
    await checkPage(page, 'team-as-owner', width);
    // A removal without its box ticked comes back beside the box.
    await page.getByRole('row', { name: /Vic Viewer/ }).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Tick the box to confirm the removal').waitFor();
    await checkPage(page, 'team-refused', width);
    await context.close();
  }, 180_000);
  /** The link of the newest message `address` received, read from the local mailbox's JSON. */
  const mailedLink = async (address: string) => `${stack.baseUrl}${linkIn((await mailTo(stack, address))[0])}`;

  test('an invitation: the owner invites from the team page, the invitee opens the link from the mailbox, chooses a name and password, and is signed in as Support', async () => {
    const invitee = `invitee-${Date.now()}@example.com`;
    const context = await contextOf();
    const page = await context.newPage();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('Email', { exact: true }).fill(invitee);
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Invite' }).click();
    expect(await page.getByRole('status').textContent()).toContain(`An invitation is on its way to ${invitee}, as Support`);
    expect(await page.getByRole('row', { name: new RegExp(invitee) }).isVisible()).toBe(true);
    const guest = await (await contextOf()).newPage();
    await guest.goto(await mailedLink(invitee));
    await guest.getByRole('heading', { name: /^Join Org / }).waitFor();
    await guest.getByLabel('Your name').fill('Sam Support');
    await guest.getByLabel('Password', { exact: true }).fill('the invitee chose this');
    await guest.getByRole('button', { name: 'Join the team' }).click();
    await guest.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(guest.url()).toBe(`${stack.baseUrl}/dashboard`);
    expect(await guest.getByText('Sam Support').isVisible()).toBe(true);
    await guest.goto(`${stack.baseUrl}/dashboard/team`);
    expect(await guest.getByRole('row', { name: /Sam Support/ }).textContent()).toContain('Support');
    await context.close();
    await guest.context().close();
  }, 60_000);

  test('a password reset: Forgot password? sends a link to the mailbox; the new password is set there, and signs in', async () => {
    const person = await createPerson(stack, merchant.orgId, 'finance', { name: 'Fay Finance' });
    const context = await contextOf();
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').textContent()).toContain('a link to choose a new password is on its way');
    await page.goto(await mailedLink(person.email));
    await page.getByLabel('New password').fill('my reset password, at last');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}/dashboard/forgot-password?done`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, { ...person, password: 'my reset password, at last' });
    expect(await page.getByText('Fay Finance').isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  test.each([1280, 390])('at %i px the invitation and reset pages fit and axe-core finds nothing serious', async (width) => {
    const invitee = `seen-${width}-${Date.now()}@example.com`;
    const context = await contextOf(width);
    const page = await context.newPage();
    await signIn(page, owner);
    await page.goto(`${stack.baseUrl}/dashboard/team`);
    await page.getByLabel('Email', { exact: true }).fill(invitee);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('status').waitFor();
    await checkPage(page, 'team-invited', width);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('#invite-email-error').waitFor();
    await checkPage(page, 'team-invite-refused', width);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.goto(await mailedLink(invitee));
    await checkPage(page, 'invitation', width);
    await page.getByLabel('Your name').fill('Someone');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.locator('#join-password-error').waitFor();
    await checkPage(page, 'invitation-refused', width);
    await page.goto(`${stack.baseUrl}/dashboard/forgot-password`);
    await checkPage(page, 'forgot-password', width);
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').waitFor();
    await checkPage(page, 'forgot-password-sent', width);
    await page.goto(await mailedLink(viewer.email));
    await checkPage(page, 'password-reset', width);
    await page.getByLabel('New password').fill(viewer.email);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.locator('#reset-password-error').waitFor();
    await checkPage(page, 'password-reset-refused', width);
    await page.getByLabel('New password').fill(viewer.password);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    await checkPage(page, 'password-set', width);
    await page.goto(`${stack.baseUrl}/dashboard/invitations/inv_nothing`);
    await checkPage(page, 'invitation-gone', width);
    await context.close();
  }, 180_000);
});
