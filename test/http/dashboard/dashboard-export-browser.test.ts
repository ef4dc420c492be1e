import type { Browser } from 'playwright-core';
import { expectPageAtBothWidths } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, signedInPage, type Person } from '../../support/dashboard';
import { client } from '../../support/http';
import { checkoutsWithEmails } from '../../support/payments';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const describeBrowser = browserAvailable() ? describe : describe.skip;

// Every page is a function of its own: in artifact mode each is a cold bundle the first time.
jest.setTimeout(180_000);


/**
 * Export in headless Chromium (product-decisions §18): the filtered payments exported from their
 * list, the report's page refreshed until it offers the file, and the CSV opened: the rows the
 * list showed. Every page it touches at 1280 and 390 px, free of serious accessibility violations.
 */
describeBrowser('dashboard export in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let browser: Browser;
  /** Every payment, newest first. */
  const payments: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    owner = await createPerson(stack, merchant.orgId, 'owner');
    const made = await checkoutsWithEmails(client(stack.baseUrl, merchant.test), merchant.acceptorId, [
      ['paid', 'ann@example.com'],
      ['failed', 'bob@example.com'],
      ['paid', 'carol@example.com'],
    ]);
    payments.push(...made.map((payment) => payment.id).reverse());
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const signedIn = (width = 1280) => signedInPage(browser, stack.baseUrl, owner, width);

  test('browser: the filtered payments exported, the report page refreshed until it offers the file, and the CSV holds the rows the list showed', async () => {
    const page = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/payments`);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Created from').fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/created%5Bgte%5D=|created\[gte\]=/);
    const shown = (await page.getByRole('table').locator('tbody th[scope="row"]').allTextContents()).map((text) => text.trim());
    expect(shown).toEqual(payments);
    await expectPageAtBothWidths(page, 'payments-with-export');

    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('heading', { name: /^Report rpt_/, level: 1 }).waitFor();
    await expectPageAtBothWidths(page, 'report');
    const download = page.getByRole('link', { name: 'Download CSV' });
    for (let tries = 0; !(await download.count()); tries++) {
      expect(tries).toBeLessThan(150);
      await page.waitForTimeout(200);
      await page.getByRole('link', { name: 'Refresh' }).click();
    }
    await expectPageAtBothWidths(page, 'report-succeeded');
    const file = await page.request.get((await download.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = (await file.text()).trim().split('\r\n').map((line) => line.split(','));
    expect(header.slice(0, 3)).toEqual(['object', 'id', 'status']);
    expect(rows.map((row) => row[1])).toEqual(shown);
    await page.close();
  });

  test('browser: a list narrowed by a filter a report cannot take says so instead of offering Export', async () => {
    const page = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/payments?status=paid`);
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    await page.getByText('Export takes a date range of all payments: clear the status filter to export.').waitFor();
    await expectPageAtBothWidths(page, 'payments-narrowed');
    await page.close();
  });

  test.each([
    ['refunds', '/dashboard/refunds'],
    ['chargebacks', '/dashboard/chargebacks'],
    ['balance', '/dashboard/balance-transactions'],
  ])('browser: the %s list offers Export, at both widths without a serious violation', async (name, path) => {
    const page = await signedIn();
    await page.goto(`${stack.baseUrl}${path}`);
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await expectPageAtBothWidths(page, name);
    await page.close();
  });
});
