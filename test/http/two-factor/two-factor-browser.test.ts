import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import * as keys from '../../../shared/db/keys';
import { totpCode, totpSecretFromText, totpStepAt } from '../../../shared/domain/totp';
import { screenshotAtBothWidths, seriousAxeViolations } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { addVirtualAuthenticator } from '../../support/virtual-authenticator';

const describeBrowser = browserAvailable() ? describe : describe.skip;

/**
 * Two-factor and passkeys in headless Chromium (product-decisions §16), at
 * `http://localhost:$PORT/dashboard` (browsers allow WebAuthn on a domain): two-factor set up on
 * the Security page with codes computed from the key the page shows, a sign-in with a code and
 * one with a recovery code; a passkey registered and used through Chromium's virtual
 * authenticator (CDP `WebAuthn`). Each new page: no serious or critical axe-core violation, no
 * sideways scrolling, screenshots at 1280 and 390 px under /tmp.
 */
describeBrowser('two-factor and passkeys in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    origin = stack.baseUrl.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The page as it stands: no serious axe-core violation, no sideways scrolling at either width; screenshots kept under /tmp. */
  async function checkPage(page: Page, name: string): Promise<void> {
    await screenshotAtBothWidths(page, `two-factor-${name}`);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ name, width, sideways, violations: await seriousAxeViolations(page) }).toEqual({ name, width, sideways: 0, violations: [] });
    }
  }

  async function signInWithPassword(page: Page, person: Person): Promise<void> {
    await page.goto(`${origin}/dashboard`);
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
  }

  test('two-factor set up from the key on the page; signing in with a code, then with a recovery code', async () => {
    const person = await createPerson(stack, merchant.orgId, 'operator', { name: 'Otto Operator' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    // The wrong code's page is a 401, which Chromium reports: that one is expected.
    page.on('console', (message) => message.type() === 'error' && !message.text().includes('status of 401') && errors.push(message.text()));
    await signInWithPassword(page, person);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${origin}/dashboard/security`);
    await checkPage(page, 'security-off');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    await page.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
    await checkPage(page, 'security-enrolment');
    const secret = totpSecretFromText((await page.locator('#totp-secret').textContent())!);
    const step = totpStepAt(new Date());
    await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, step));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    const recoveryCodes = await page.getByRole('list', { name: 'Recovery codes' }).locator('code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await checkPage(page, 'security-recovery-codes');
    await page.reload();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
    await checkPage(page, 'security-on');

    // A code of the next step (the confirming one is used).
    await signOut(page);
    await signInWithPassword(page, person);
    await page.getByRole('heading', { name: 'Two-factor authentication', level: 1 }).waitFor();
    await checkPage(page, 'code');
    await page.getByLabel('Code', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('The code is not valid').waitFor();
    await checkPage(page, 'code-refused');
    await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, step + 1));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Otto Operator').isVisible()).toBe(true);

    await signOut(page);
    await signInWithPassword(page, person);
    await page.getByLabel('Code', { exact: true }).fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${origin}/dashboard/security`);
    expect(await page.getByText('9 recovery codes left').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test('a passkey registered on the Security page through the virtual authenticator, then Sign in with a passkey (no email, no code)', async () => {
    const person = await createPerson(stack, merchant.orgId, 'finance', { name: 'Fay Finance' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const authenticator = await addVirtualAuthenticator(context, page);
    await signInWithPassword(page, person);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${origin}/dashboard/security`);
    await page.getByLabel('Name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The passkey “Virtual key” is added').waitFor();
    expect(await page.getByRole('cell', { name: 'Virtual key' }).isVisible()).toBe(true);
    await checkPage(page, 'security-passkey');
    const [held] = await authenticator.credentials();
    expect(held).toMatchObject({ isResidentCredential: true, rpId: 'localhost', userHandle: Buffer.from(person.userId).toString('base64') });

    await signOut(page);
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Sign in with a passkey' }).waitFor();
    await checkPage(page, 'passkey-sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Fay Finance').isVisible()).toBe(true);

    // With a passkey, the password leads to the second step, which offers it.
    await signOut(page);
    await signInWithPassword(page, person);
    await page.getByRole('heading', { name: 'Two-factor authentication', level: 1 }).waitFor();
    await checkPage(page, 'code-passkey');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test('the enrolment the organization requires, right after the password', async () => {
    const org = await createMerchant(stack);
    const member = await createPerson(stack, org.orgId, 'viewer', { name: 'Vera Viewer' });
    await stack.db.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.organization(org.orgId),
        UpdateExpression: 'SET requireTwoFactor = :on',
        ExpressionAttributeValues: { ':on': true },
      }),
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInWithPassword(page, member);
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await checkPage(page, 'enrol');
    const secret = totpSecretFromText((await page.locator('#totp-secret').textContent())!);
    await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, totpStepAt(new Date())));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Security', level: 1 }).isVisible()).toBe(true);
    await context.close();
  }, 120_000);
});
