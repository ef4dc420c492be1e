import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, signedInPage, type Person } from '../../support/dashboard';
import { client } from '../../support/http';
import { checkoutsWithEmails } from '../../support/payments';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const describeBrowser = browserAvailable() ? describe : describe.skip;

// Every page is a function of its own: in artifact mode each is a cold bundle the first time.
jest.setTimeout(120_000);

/**
 * The dashboard's filters and search of product-decisions §18 in headless Chromium: a payment
 * found by its customer's email from the search bar, payments filtered by status and dates, the
 * filters kept by the pager; every list's filter form at 1280 and 390 px, free of serious
 * accessibility violations.
 */
describeBrowser('dashboard filters in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let browser: Browser;
  /** Ann's payments, newest first; every paid payment, newest first. */
  const ann: string[] = [];
  const paid: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    owner = await createPerson(stack, merchant.orgId, 'owner');
    const made = await checkoutsWithEmails(client(stack.baseUrl, merchant.test), merchant.acceptorId, [
      ['paid', 'ann@example.com'],
      ['failed', 'bob@example.com'],
      ['paid', 'bob@example.com'],
      ['failed', 'Ann@Example.com'],
      ['paid', 'carol@example.com'],
    ]);
    for (const payment of made) {
      if (payment.email.toLowerCase() === 'ann@example.com') ann.unshift(payment.id);
      if (payment.outcome === 'paid') paid.unshift(payment.id);
    }
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const signedIn = (width = 1280) => signedInPage(browser, stack.baseUrl, owner, width);

  const shownIds = async (page: Page) =>
    (await page.getByRole('table').locator('tbody th[scope="row"]').allTextContents()).map((text) => text.trim());

  test("browser: the search bar finds a customer's payments by their email, whatever its case", async () => {
    const page = await signedIn();
    await page.getByLabel('Search by id or customer email').fill('ANN@example.com');
    await page.getByLabel('Search by id or customer email').press('Enter');
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    expect(await shownIds(page)).toEqual(ann);
    expect(await page.getByLabel('Customer email', { exact: true }).inputValue()).toBe('ANN@example.com');
    await page.close();
  });

  test('browser: payments filtered by status and dates, the filters kept from page to page', async () => {
    const page = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/payments?limit=2`);
    await page.getByLabel('Status').selectOption('paid');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Created from').fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=paid/);
    // The form sends the list's parameters: limit is not one of its fields, so the page size is the dashboard's.
    expect(await shownIds(page)).toEqual(paid);
    await page.getByLabel('Created from').fill('2099-01-01');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Nothing matches these filters.').waitFor();
    await page.goto(`${stack.baseUrl}/dashboard/payments?status=paid&limit=2`);
    expect(await shownIds(page)).toEqual(paid.slice(0, 2));
    await page.getByRole('link', { name: /Older/ }).click();
    expect(await shownIds(page)).toEqual(paid.slice(2));
    expect(page.url()).toContain('status=paid');
    await page.close();
  });

  test('browser: a bad filter is the API\'s refusal, its status and reason', async () => {
    const page = await signedIn();
    const answer = await page.goto(`${stack.baseUrl}/dashboard/payments?created[gte]=2026-02-01&created[lt]=2026-01-01`);
    expect(answer?.status()).toBe(422);
    expect(await page.getByText('created[lt] must be later than created[gte]').count()).toBeGreaterThan(0);
    await page.close();
  });

  test.each([1280, 390])('browser: at %i px every filtered list fits and axe-core finds no serious violation', async (width) => {
    const page = await signedIn(width);
    for (const path of [
      '/dashboard/payments?status=paid&customer_email=ann%40example.com',
      '/dashboard/refunds?status=pending',
      '/dashboard/chargebacks?created[gte]=2026-01-01',
      '/dashboard/balance-transactions?type=payment',
    ]) {
      await page.goto(`${stack.baseUrl}${path}`);
      expect(await page.locator('form.filter').count()).toBe(1);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ path, sideways, violations: (await seriousAxeViolations(page)).map((violation) => violation.id) }).toEqual({ path, sideways: 0, violations: [] });
      // Kept for the person who checks the pages by eye.
      await page.screenshot({ path: `/tmp/screenshot-filters-${path.split('?')[0].slice(1).replace(/\//g, '-')}-${width}.png`, fullPage: true });
    }
    await page.close();
  });
});
