import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, seedAccount, type Person, type SeededAccount } from '../../support/dashboard';
import { client } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const hasBrowser = browserAvailable();
/** The label of the box a refund needs ticked. */
const CONFIRM_REFUND = /Send this refund to the customer/;
/** The labels of the boxes a chargeback's answers need ticked. */
const CONFIRM_ACCEPT = /Accept this chargeback/;
const CONFIRM_DISPUTE = /Dispute this chargeback with this evidence/;
const PDF = Buffer.from('%PDF-1.4\n% evidence\n%%EOF\n');
const describeBrowser = hasBrowser ? describe : describe.skip;

describeBrowser('dashboard in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let owner: Person;
  let seeded: SeededAccount;
  let browser: Browser;
  /** A disputed chargeback, its evidence as long as a merchant may write it. */
  let disputedId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    owner = await createPerson(stack, merchant.orgId, 'owner');
    seeded = await seedAccount(stack, merchant);
    disputedId = (await openChargeback()).id;
    const evidence = { product_description: `A brass desk lamp. ${'Delivered and signed for. '.repeat(80)}`, shipping_tracking_number: 'JJD00998877665544332211' };
    await client(stack.baseUrl, merchant.test).post(`/v1/chargebacks/${disputedId}/dispute`, { evidence });
    browser = await launchBrowser();
  }, 60_000);

  /** A new open chargeback of the merchant, due in 7 days. */
  async function openChargeback(): Promise<{ id: string }> {
    const payment = await seedPaidPayment(stack, merchant, { amount: '30.00' });
    return (await client(stack.baseUrl, merchant.test).post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, {})).body;
  }
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test('browser: sign in with email and password, see the link with its counters, the on-hold refund and the open chargeback deadline, sign out', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Email or password is incorrect.');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(owner.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');

    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByText('Test mode').isVisible()).toBe(true);

    const links = page.getByRole('table', { name: /newest payment links/ });
    const link = links.getByRole('row', { name: new RegExp(seeded.linkId) });
    const cells = await link.getByRole('cell').allTextContents();
    expect(cells).toEqual(['Concert ticket', '€19.99', 'active', '2', '3', '1', expect.stringMatching(/UTC$/)]);
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

  /** A page signed in as the merchant's owner, collecting console messages and failed or refused requests. */
  async function signedIn(width = 1280, timezoneId?: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 900 }, timezoneId });
    const problems: string[] = [];
    page.on('console', (message) => {
      // An error page answers with its status, which Chromium reports; anything else is a problem.
      if (!/Failed to load resource: the server responded with a status of (4\d\d)/.test(message.text())) problems.push(message.text());
    });
    // A navigation the browser dropped for a newer one (a form posted twice by a double click) is not a problem.
    page.on('requestfailed', (request) => {
      if (!(request.isNavigationRequest() && request.failure()?.errorText === 'net::ERR_ABORTED')) problems.push(`failed ${request.url()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(`${stack.baseUrl}/dashboard`) && !request.url().startsWith('data:')) problems.push(`requested ${request.url()}`);
    });
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    return { page, problems };
  }

  const api = () => client(stack.baseUrl, merchant.test);

  test('browser: create a payment link: the amount error inline next to the field, then the new link\'s page; a decimal comma, a currency chosen, the expiry typed in UTC whatever the browser\'s time zone', async () => {
    // A browser 14 hours ahead of UTC: what is typed under "Expires (UTC)" is what is sent.
    const { page, problems } = await signedIn(1280, 'Pacific/Kiritimati');
    await page.getByRole('link', { name: 'Payment links', exact: true }).click();
    await page.getByRole('link', { name: 'Create a payment link' }).click();
    await page.getByLabel('Amount', { exact: true }).fill('0');
    await page.getByLabel('Currency').selectOption('CHF');
    await page.getByLabel('Description').fill('Pottery workshop');
    await page.getByLabel('Payment limit').fill('4');
    const expiry = page.getByRole('group', { name: 'Expires (UTC)' });
    await expiry.getByLabel('Date').fill('2099-03-01');
    await expiry.getByLabel('Time (UTC)').fill('18:00');
    await page.getByLabel('Email address').check();
    await page.getByRole('button', { name: 'Create payment link' }).click();
    const amount = page.getByLabel('Amount', { exact: true });
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#create-link-amount-value-error').textContent()).toBe('amount.value must be positive');
    expect(await page.getByLabel('Description').inputValue()).toBe('Pottery workshop');
    expect(await page.getByLabel('Currency').inputValue()).toBe('CHF');
    await amount.fill('45,50');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await page.getByRole('heading', { name: /^Payment link pl_/ }).waitFor();
    const id = page.url().split('/').pop()!;
    expect((await api().get(`/v1/payment_links/${id}`)).body).toMatchObject({
      amount: { value: 45.5, currency: 'CHF' },
      description: 'Pottery workshop',
      payments_limit: 4,
      expires_at: '2099-03-01T18:00:00.000Z',
    });
    expect(await page.locator('dd[data-field="remaining_payments"]').textContent()).toBe('4');
    expect(problems).toEqual([]);
    await page.close();
  });

  test("browser: a link's own page from the overview, without opening its checkout; edit it, deactivate and reactivate it", async () => {
    const { page, problems } = await signedIn();
    const before = (await api().get(`/v1/payment_links/${seeded.linkId}/payments`)).body.data.length;
    await page.getByRole('table', { name: /newest payment links/ }).getByRole('link', { name: seeded.linkId }).click();
    await page.getByRole('heading', { name: `Payment link ${seeded.linkId}` }).waitFor();
    expect((await api().get(`/v1/payment_links/${seeded.linkId}/payments`)).body.data.length).toBe(before);
    expect(await page.getByRole('table', { name: "The link's payments, newest first." }).getByRole('row').count()).toBe(1 + seeded.paymentIds.length);
    expect(await page.getByRole('table', { name: /Events about this link/ }).getByText('transactions.payment_link.created').count()).toBe(1);

    await page.getByLabel('Payment limit').fill('1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.locator('#edit-link-payments_limit-error').textContent()).toBe('payments_limit cannot be set below the count of payments already completed');
    await page.getByLabel('Payment limit').fill('6');
    await page.getByLabel('Description', { exact: true }).fill('Concert ticket, balcony');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('dd[data-field="payments_limit"]', { hasText: '6' }).waitFor();
    expect(await page.locator('dd[data-field="remaining_payments"]').textContent()).toBe('4');

    await page.getByRole('button', { name: 'Deactivate' }).click();
    expect(await page.locator('#link-status-confirm-error').textContent()).toBe('Tick the box to confirm the deactivation');
    expect((await api().get(`/v1/payment_links/${seeded.linkId}`)).body.status).toBe('active');
    await page.getByLabel('Stop taking payments through this link').check();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    expect((await api().get(`/v1/payment_links/${seeded.linkId}`)).body).toMatchObject({ status: 'inactive', description: 'Concert ticket, balcony' });
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Deactivate' }).waitFor();
    expect((await api().get(`/v1/payment_links/${seeded.linkId}`)).body.status).toBe('active');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: refund a payment: an amount over the rest is refused inline (a reload forgets it), then a partial refund, then the full rest', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '40.00' });
    const { page, problems } = await signedIn();
    await page.getByRole('searchbox', { name: 'Search by id' }).fill(payment.id);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: `Payment ${payment.id}` }).waitFor();
    await page.getByLabel('Amount (EUR)').fill('40.01');
    await page.getByLabel(CONFIRM_REFUND).check();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await page.locator('#refund-amount-value-error').textContent()).toBe('amount.value exceeds the refundable rest of 40.00 eur');
    // Post/redirect/get: the refusal shows at the payment's own address, and a reload neither posts again nor shows it.
    expect(page.url()).toBe(`${stack.baseUrl}/dashboard/payments/${payment.id}`);
    await page.reload();
    expect(await page.locator('#refund-amount-value-error').count()).toBe(0);
    await page.getByLabel('Amount (EUR)').fill('15.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await page.locator('#refund-confirm-error').textContent()).toBe('Tick the box to confirm the refund');
    await page.getByLabel(CONFIRM_REFUND).check();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('heading', { name: /^Refund rf_/ }).waitFor();
    expect(await page.locator('dd', { hasText: '€' }).first().textContent()).toBe('€15.00');
    await page.getByRole('link', { name: payment.id }).click();
    expect(await page.locator('dd[data-field="refundable"]').textContent()).toBe('€25.00');
    await page.getByLabel(CONFIRM_REFUND).check();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('heading', { name: /^Refund rf_/ }).waitFor();
    const refunds = (await api().get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id);
    expect(refunds.map((refund: { amount: { value: string } }) => refund.amount.value)).toEqual(['25.00', '15.00']);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: a double click on Refund creates one refund and lands on its page', async () => {
    // Prepare
    const payment = await seedPaidPayment(stack, merchant, { amount: '40.00' });
    const { page, problems } = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/payments/${payment.id}`);
    await page.getByLabel('Amount (EUR)').fill('5.00');
    await page.getByLabel(CONFIRM_REFUND).check();
    // Act
    await page.getByRole('button', { name: 'Refund', exact: true }).dblclick();
    await page.getByRole('heading', { name: /^Refund rf_/ }).waitFor();
    // Assess: the page shows the answer of the last post, which came once the first one had answered.
    const refunds = (await api().get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id);
    expect(refunds).toHaveLength(1);
    expect(page.url()).toBe(`${stack.baseUrl}/dashboard/refunds/${refunds[0].id}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: accept a chargeback: without the box ticked it comes back beside the box, then ticked it is accepted and the forms are gone', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const { page, problems } = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/chargebacks/${chargeback.id}`);
    // Act
    await page.getByRole('button', { name: 'Accept chargeback' }).click();
    // Assess
    expect(await page.locator('#accept-chargeback-confirm-error').textContent()).toBe('Tick the box to confirm that you accept the chargeback');
    expect((await api().get(`/v1/chargebacks/${chargeback.id}`)).body.status).toBe('open');
    await page.getByLabel(CONFIRM_ACCEPT).check();
    await page.getByRole('button', { name: 'Accept chargeback' }).click();
    await page.locator('dd[data-field="status"]', { hasText: 'accepted' }).waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}/dashboard/chargebacks/${chargeback.id}`);
    expect(await page.getByRole('button', { name: /chargeback$/ }).count()).toBe(0);
    expect((await api().get(`/v1/chargebacks/${chargeback.id}`)).body.status).toBe('accepted');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: dispute a chargeback with texts and a PDF the page uploads to the store; a refusal keeps a long text; then disputed with the evidence', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const { page, problems } = await signedIn();
    const opened = await page.goto(`${stack.baseUrl}/dashboard/chargebacks/${chargeback.id}`);
    const uploadOrigin = /connect-src 'self' (\S+)/.exec(opened!.headers()['content-security-policy'])![1];
    const story = `Ordered on 1 March, delivered on 3 March. ${'The customer wrote to thank us. '.repeat(60)}`;
    await page.getByLabel('Communication with the customer').fill(story);
    await page.getByLabel('Shipping tracking number').fill('JJD0099887766');
    // Act
    await page.getByLabel('Documents').setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByText('receipt.pdf is uploaded.').waitFor();
    await page.getByRole('button', { name: 'Dispute chargeback' }).click();
    expect(await page.locator('#dispute-chargeback-confirm-error').textContent()).toBe('Tick the box to confirm that you dispute the chargeback with this evidence');
    expect(await page.getByLabel('Communication with the customer').inputValue()).toBe(story);
    const documentId = (await page.locator('#dispute-chargeback-documents li').getAttribute('data-id'))!;
    await page.getByLabel(CONFIRM_DISPUTE).check();
    await page.getByRole('button', { name: 'Dispute chargeback' }).click();
    await page.locator('dd[data-field="status"]', { hasText: 'disputed' }).waitFor();
    // Assess
    expect((await api().get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({
      status: 'disputed',
      dispute: { evidence: { customer_communication: story.trim(), shipping_tracking_number: 'JJD0099887766', documents: [documentId] } },
    });
    expect(documentId).toMatch(/^doc_/);
    expect(await page.locator('dd[data-field="evidence.documents"]').textContent()).toBe(documentId);
    // The upload is the one request outside the dashboard, to the origin the page's policy names.
    expect(problems.filter((problem) => !problem.startsWith(`requested ${uploadOrigin}/`))).toEqual([]);
    await page.close();
  });

  test('browser: lists page with Older and Newer; a search for an unknown id says so', async () => {
    for (let i = 0; i < 3; i++) await api().post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    const ids = (await api().get('/v1/payment_links?limit=100')).body.data.map((link: { id: string }) => link.id);
    const { page, problems } = await signedIn();
    await page.goto(`${stack.baseUrl}/dashboard/payment-links?limit=2`);
    const shown = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
    expect(await shown()).toEqual(ids.slice(0, 2));
    await page.getByRole('link', { name: 'Older' }).click();
    expect(await shown()).toEqual(ids.slice(2, 4));
    await page.getByRole('link', { name: 'Newer' }).click();
    expect(await shown()).toEqual(ids.slice(0, 2));
    expect(await page.getByRole('link', { name: 'Newer' }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search by id' }).fill('pl_01jd2x3y4z5a6b7c8d9e0f1g2h');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Nothing with the id pl_01jd2x3y4z5a6b7c8d9e0f1g2h in this organization and mode.');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: the paid-volume chart is inline SVG with a bar per day; the favicon needs no request; no CSP refusal', async () => {
    const { page, problems } = await signedIn();
    const chart = page.getByRole('img', { name: /^Paid volume per day in EUR/ });
    expect(await chart.locator('rect').count()).toBe(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(Number(await chart.locator(`rect[data-date="${today}"]`).getAttribute('height'))).toBeGreaterThan(0);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    expect(problems).toEqual([]);
    await page.close();
  });

  test('browser: the search box\'s hint is whole in its box at 1280, 390 and 320 px', async () => {
    for (const width of [1280, 390, 320]) {
      // Prepare
      const { page } = await signedIn(width);

      // Act
      const fit = await page.getByRole('searchbox', { name: 'Search by id' }).evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontSize} ${style.fontFamily}`;
        return { hint: input.placeholder, width: context.measureText(input.placeholder).width, room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
      });

      // Assess
      expect(fit.hint).not.toBe('');
      expect({ width, fits: fit.width <= fit.room }).toEqual({ width, fits: true });
      await page.close();
    }
  });

  test.each([1280, 390])('browser: at %i px every dashboard page fits: no page scrolls sideways, ids, amounts, dates, badges and buttons stay on one line', async (width) => {
    const { page, problems } = await signedIn(width);
    const pages = [
      '/dashboard',
      '/dashboard/payment-links',
      '/dashboard/payment-links/new',
      `/dashboard/payment-links/${seeded.linkId}`,
      '/dashboard/payments',
      `/dashboard/payments/${seeded.paymentIds[1]}`,
      '/dashboard/refunds',
      `/dashboard/refunds/${seeded.heldRefundId}`,
      '/dashboard/chargebacks',
      `/dashboard/chargebacks/${seeded.openChargebacks[1].id}`,
      `/dashboard/chargebacks/${seeded.acceptedChargebackId}`,
      `/dashboard/chargebacks/${disputedId}`,
      '/dashboard/events',
      '/dashboard/balance-transactions',
      '/dashboard/search?id=rf_01jd2x3y4z5a6b7c8d9e0f1g2h',
      '/dashboard/security',
    ];
    for (const path of pages) {
      await page.goto(`${stack.baseUrl}${path}`);
      const layout = await page.evaluate(() => {
        const root = document.documentElement;
        const broken = Array.from(document.querySelectorAll('main code, main time, main .badge, main button, main .button, main td.num, nav a'))
          // A long URL (the checkout's) may break; nothing else may.
          .filter((element) => !element.closest('.url'))
          .filter((element) => element.getClientRects().length > 1 || element.scrollWidth > Math.ceil(element.getBoundingClientRect().width) + 1)
          .map((element) => element.outerHTML.slice(0, 80));
        const outside = Array.from(document.querySelectorAll('body *'))
          .filter((element) => !element.closest('thead, .visually-hidden'))
          .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
          .map((element) => element.outerHTML.slice(0, 80));
        return { sideways: root.scrollWidth - root.clientWidth, broken, outside: outside.slice(0, 3) };
      });
      // For the person who checks the pages by eye: DASHBOARD_SCREENSHOTS=<folder> keeps each one (a failing one too).
      const folder = process.env.DASHBOARD_SCREENSHOTS;
      if (folder) await page.screenshot({ path: join(folder, `${path.slice(1).replace(/[/?=]/g, '-')}-${width}.png`), fullPage: true });
      expect({ path, ...layout }).toEqual({ path, sideways: 0, broken: [], outside: [] });
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
