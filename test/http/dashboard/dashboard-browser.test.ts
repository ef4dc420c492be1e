import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { seedAccount, type SeededAccount } from '../../support/dashboard';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const hasBrowser = browserAvailable();
const describeBrowser = hasBrowser ? describe : describe.skip;

describeBrowser('dashboard in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let seeded: SeededAccount;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    seeded = await seedAccount(stack, merchant);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test('browser: sign in with a key, see the link with its counters, the on-hold refund and the open chargeback deadline, sign out', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('API key').fill('test_not-a-real-key-at-all-but-long-enough');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Missing or invalid API key');

    await page.getByLabel('API key').fill(merchant.test);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Test mode').isVisible()).toBe(true);

    const links = page.getByRole('table', { name: /newest payment links/ });
    const link = links.getByRole('row', { name: new RegExp(seeded.linkId) });
    const cells = await link.getByRole('cell').allTextContents();
    expect(cells).toEqual(['Concert ticket', '19.99 EUR', 'active', '2', '3', '1', expect.stringMatching(/UTC$/)]);
    expect(await links.getByRole('columnheader').allTextContents()).toEqual(['Link', 'Description', 'Amount', 'Status', 'Paid', 'Limit', 'Remaining', 'Created']);

    const refunds = page.getByRole('table', { name: /newest refunds/ });
    const held = refunds.getByRole('row', { name: new RegExp(seeded.heldRefundId) });
    expect(await held.getByText('On hold', { exact: true }).isVisible()).toBe(true);
    expect(await refunds.getByRole('row', { name: new RegExp(seeded.processingRefundId) }).getByText('On hold').count()).toBe(0);

    const [sooner, later] = seeded.openChargebacks;
    const chargebacks = page.getByRole('table', { name: /Open chargebacks, soonest deadline first/ });
    const rows = await chargebacks.getByRole('row').allTextContents();
    expect(rows.slice(1).map((text) => (text.includes(sooner.id) ? 'sooner' : text.includes(later.id) ? 'later' : text))).toEqual(['sooner', 'later']);
    const deadline = chargebacks.getByRole('row', { name: new RegExp(sooner.id) }).locator('time').nth(0);
    expect(await deadline.getAttribute('datetime')).toBe(sooner.deadlineAt);
    expect(await deadline.textContent()).toBe(`${sooner.deadlineAt.slice(0, 16).replace('T', ' ')} UTC`);

    const deliveries = page.getByRole('table', { name: /delivery attempts/ });
    const failed = deliveries.getByRole('row', { name: /hooks\.example\/broken/ });
    expect(await failed.getByText('Failed', { exact: true }).isVisible()).toBe(true);
    expect(await failed.getAttribute('class')).toBe('failed');

    await held.getByRole('link', { name: seeded.heldRefundId }).click();
    await page.getByRole('heading', { name: `Refund ${seeded.heldRefundId}` }).waitFor();
    expect(await page.getByText('On hold', { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    const again = await page.goto(`${stack.baseUrl}/dashboard/refunds/${seeded.heldRefundId}`);
    expect(again?.status()).toBe(401);
    await page.close();
  });
});
