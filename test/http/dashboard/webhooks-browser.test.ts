import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectPageAtBothWidths } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, signIn, type Person } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

const describeBrowser = browserAvailable() ? describe : describe.skip;

/**
 * A webhook endpoint's signing secret in headless Chromium: shown once after the endpoint is
 * added and after its secret is rolled, with the Copy button an API key's token has (the same
 * markup and script, decision 136), which puts it on the clipboard; without script the field is
 * there to select, and no button. Each page at 1280 and 390 px (screenshots under /tmp) without
 * sideways scrolling or a serious axe-core violation.
 */
describeBrowser("the webhook signing secret's Copy button in headless Chromium", () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let browser: Browser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    owner = await createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' });
    receiver = await startWebhookReceiver();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  async function signedIn(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, owner);
    return page;
  }

  /** An endpoint added on the dashboard: the field that shows its signing secret, once. */
  async function addEndpoint(page: Page) {
    await page.goto(`${stack.baseUrl}/dashboard/webhooks/new`);
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    return page.getByRole('textbox', { name: 'Signing secret' });
  }

  /** Clicks the page's Copy button: the clipboard then holds `expected`, and a status says so. */
  async function copies(page: Page, expected: string): Promise<void> {
    await page.getByRole('button', { name: 'Copy' }).click();
    const said = page.getByText('Copied to the clipboard.', { exact: true });
    await said.waitFor();
    expect(await said.getAttribute('role')).toBe('status');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  }

  test('the signing secret shown after the endpoint is added, and after a roll, has a Copy button that puts it on the clipboard and says so', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await signedIn(context);
    const secret = await (await addEndpoint(page)).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await copies(page, secret);
    await expectPageAtBothWidths(page, 'webhook-secret-copied');

    await page.getByRole('button', { name: 'Roll secret' }).click();
    const rolled = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rolled).toMatch(/^whsec_/);
    expect(rolled).not.toBe(secret);
    await copies(page, rolled);
    await expectPageAtBothWidths(page, 'webhook-secret-rolled-copied');

    // Shown once: after a reload, neither the secret nor its button.
    await page.reload();
    expect(await page.content()).not.toContain(rolled);
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    await context.close();
  }, 120_000);

  test('without script the signing secret is in a read-only field to select, and there is no Copy button', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 }, javaScriptEnabled: false });
    const page = await signedIn(context);
    const field = await addEndpoint(page);
    const secret = await field.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    // Selectable: the whole secret is what a selection of the field holds.
    await field.focus();
    await field.selectText();
    expect(await field.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0))).toBe(secret);
    await context.close();
  }, 120_000);
});
