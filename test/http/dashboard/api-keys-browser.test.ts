import type { Browser, Page } from 'playwright-core';
import { expectPageAtBothWidths } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, signIn, type Person } from '../../support/dashboard';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';
import { summarizeUserAgent } from '../../../shared/dashboard/user-agent';

const describeBrowser = browserAvailable() ? describe : describe.skip;

/**
 * The API keys page and the Audit page in headless Chromium (product-decisions §17): a key made
 * with two scopes works for them and gets 403 for a third; rolled with "1 hour" both work;
 * revoked, 401; its token is never on the page again, and its Copy button copies it. Each page at
 * 1280 and 390 px (screenshots under /tmp) without sideways scrolling or a serious axe-core violation.
 */
describeBrowser('API keys and the audit trail in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    owner = await createPerson(stack, merchant.orgId, 'owner', { name: 'Olive Owner' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A key made on the keys page with one scope: the field that shows its token, once. */
  async function createKey(page: Page, name: string) {
    await page.goto(`${stack.baseUrl}/dashboard/api-keys`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('payment:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    return page.getByLabel('API key token');
  }

  test('create with two scopes (token shown once), roll with "1 hour" (both work), revoke (401); the audit page shows each', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, owner);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Shop backend');
    await page.getByLabel('payment_link:read').check();
    await page.getByLabel('refund:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = await page.getByLabel('API key token').inputValue();
    expect(token).toMatch(/^test_/);
    await expectPageAtBothWidths(page, 'api-keys-created');

    const api = client(stack.baseUrl, token);
    expect((await api.get('/v1/payment_links')).status).toBe(200);
    expect((await api.get('/v1/refunds')).status).toBe(200);
    expectEnvelope(await api.get('/v1/payments'), 403);

    await page.reload();
    expect(await page.content()).not.toContain(token);
    expect(await page.getByLabel('API key token').count()).toBe(0);

    const row = page.locator('tr', { hasText: 'Shop backend' });
    await row.getByLabel('Old key works').selectOption('1 hour');
    await row.getByRole('button', { name: 'Roll' }).click();
    const rolled = await page.getByLabel('API key token').inputValue();
    expect(rolled).not.toBe(token);
    for (const each of [token, rolled]) expect((await client(stack.baseUrl, each).get('/v1/payment_links')).status).toBe(200);
    await expectPageAtBothWidths(page, 'api-keys-rolled');

    await page.locator('tr', { hasText: 'expiring' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(/revoked: it no longer works/).waitFor();
    await waitUntil(async () => (await api.get('/v1/payment_links')).status === 401, 'the revoked key refused', { timeoutMs: 6_000 });
    expect(await page.content()).not.toContain(rolled);

    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const actions = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(actions.slice(0, 4)).toEqual(['api_key.revoked', 'api_key.rolled', 'api_key.created', 'user.signed_in']);
    await expectPageAtBothWidths(page, 'audit');
    await page.getByLabel('Action').selectOption('api_key.rolled');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(['api_key.rolled']);
    await context.close();
  }, 120_000);

  test('the Audit page names each user agent in a few words, the whole string behind a disclosure a keyboard opens; an agent is text, never markup', async () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
    const crawler = '<img src=x onerror="window.injected=1"> Mozilla/5.0 (compatible; SomeCrawler; +https://crawler.example/about-this-robot)';
    for (const agent of ['curl/8.5.0', crawler]) {
      const created = await fetch(`${stack.baseUrl}/v1/payment_links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.test}`, 'content-type': 'application/json', 'user-agent': agent },
        body: JSON.stringify({ amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId }),
      });
      expect(created.status).toBe(201);
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: chrome });
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, owner);
    await page.goto(`${stack.baseUrl}/dashboard/audit`);
    const agents = page.locator('tbody tr td:nth-child(7)');
    const summaries = await agents.locator('summary').allTextContents();
    expect(summaries.slice(0, 3)).toEqual(['Chrome 156 on Linux', summarizeUserAgent(crawler), 'curl 8.5']);
    expect(summarizeUserAgent(crawler)).toMatch(/^<img src=x .*…$/);
    const whole = agents.first().getByText(chrome, { exact: true });
    expect(await whole.isVisible()).toBe(false);
    await agents.first().locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await whole.isVisible()).toBe(true);
    expect(await page.locator('tbody img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
    const widths = await agents.evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width));
    expect(Math.max(...widths)).toBeLessThan(1280 / 4);
    await expectPageAtBothWidths(page, 'audit-user-agents');
    await context.close();
  }, 120_000);

  test("the token's Copy button puts it on the clipboard and says so; without script the button is not there and the field is", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, owner);
    const token = await (await createKey(page, 'Copied')).inputValue();
    await page.getByRole('button', { name: 'Copy' }).click();
    // Said in a live region of its own, within the notice's.
    const said = page.getByText('Copied to the clipboard.', { exact: true });
    await said.waitFor();
    expect(await said.getAttribute('role')).toBe('status');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await expectPageAtBothWidths(page, 'api-keys-copied');
    await context.close();

    const withoutScript = await browser.newContext({ viewport: { width: 390, height: 900 }, javaScriptEnabled: false });
    const plain = await withoutScript.newPage();
    await signIn(plain, stack.baseUrl, owner);
    const field = await createKey(plain, 'Without script');
    expect(await field.inputValue()).toMatch(/^test_/);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    expect(await plain.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    await withoutScript.close();
  }, 120_000);
});
