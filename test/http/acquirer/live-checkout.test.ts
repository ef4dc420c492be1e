import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson } from '../../support/dashboard';
import type { NotificationItem } from '../../../bin/local/adyen/notifier';
import { pspReference } from '../../../bin/local/adyen/ledger';
import { LOCAL_MERCHANT_ACCOUNT } from '../../../bin/local/acquirer';
import { sleep } from '../../../shared/time';
import { acquirerWhen, continueToAcquirer, deliver, liveLink, livePayment, paidLivePayment, payOnHostedPage, paymentWhen, signedBatch, startLiveStack } from '../../support/live';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * Live payments through the acquirer (product-decisions §12), over real HTTP and in headless
 * Chromium on the real pages: the service's checkout, the local Adyen's hosted page, back to the
 * thank-you page, the outcome from the AUTHORISATION notification, then the capture or cancel.
 */
const describeBrowser = browserAvailable() ? describe : describe.skip;

describeBrowser('live checkout in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, merchant, live } = await startLiveStack());
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test('live paid: checkout -> Pay -> the hosted page -> back "processing" -> paid, acquirer_reference set, captured', async () => {
    // Prepare
    const link = await liveLink(live, merchant.acceptorId, { collect_email: true });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link.links.checkout.href);
    // The card is typed on the acquirer's page only: this one has no card field.
    expect(await page.locator('input[name="number"], input[autocomplete="cc-number"]').count()).toBe(0);
    await page.getByLabel('Email address').fill('ada@example.com');

    // Act
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(stack.acquirer.url));
    const paymentId = await payOnHostedPage(page, 'Ada Lovelace');

    // Assess
    await page.getByRole('heading', { name: 'Thank you for your payment' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('payment-id').textContent()).toBe(paymentId);
    const payment = await paymentWhen(live, paymentId, (found) => found.status === 'paid');
    expect(payment).toMatchObject({ status: 'paid', mode: 'live', customer: { email: 'ada@example.com' }, acquirer_reference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    const captured = await acquirerWhen(stack, payment.acquirer_reference, (state) => state.captured === 2500, 'the capture');
    expect(captured).toMatchObject({ status: 'authorised', captured: 2500, amount: { value: 2500, currency: 'EUR' } });
    const paidEvents = (await live.get('/v1/events?type=transactions.payment.paid')).body.data;
    // Paid before the capture is confirmed: the event shows it pending; the payment then shows it captured, with Adyen's reference of the capture.
    expect(paidEvents.find((event: any) => event.data.id === paymentId)?.data).toMatchObject({ acquirer_reference: payment.acquirer_reference, capture: { status: 'pending' } });
    const confirmed = await paymentWhen(live, paymentId, (found) => found.capture?.status === 'captured');
    expect(confirmed.capture).toEqual({ status: 'captured', acquirer_reference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    expect(confirmed.capture.acquirer_reference).not.toBe(payment.acquirer_reference);
    await context.close();
  });

  test.each<[string, string, string]>([
    ['DECLINED', 'Refused', 'Your bank declined the payment. You have not been charged.'],
    ['NOT_ENOUGH_BALANCE', 'Not enough balance', 'Your card does not have enough funds for this payment. You have not been charged.'],
    ['ISSUER_SUSPECTED_FRAUD', 'Issuer Suspected Fraud', 'Your bank declined the payment. You have not been charged.'],
  ])('live declined (holder name %s): failed with the acquirer\'s reason as failure_reason; the thank-you page tells the customer why in their words, offers another try and the way back to the shop', async (holderName, refusalReason, told) => {
    // Prepare
    const link = await liveLink(live, merchant.acceptorId, { redirect_url: 'https://shop.example/basket' });

    // Act
    const customer = await livePayment(browser, stack, link.links.checkout.href, holderName);

    // Assess
    await customer.page.getByRole('heading', { name: 'Payment declined' }).waitFor({ timeout: 30_000 });
    expect(await customer.page.getByTestId('decline-reason').textContent()).toBe(told);
    expect(await customer.page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(link.links.checkout.href);
    expect(await customer.page.getByRole('link', { name: /^Back to / }).getAttribute('href')).toBe('https://shop.example/basket');
    const payment = await paymentWhen(live, customer.paymentId, (found) => found.status !== 'open');
    expect(payment).toMatchObject({ status: 'failed', acquirer_reference: expect.any(String), failure_reason: refusalReason, capture: null });
    await customer.close();
  });

  test.each([1280, 390])('live declined: the thank-you page at %i px fits and axe-core finds no serious or critical WCAG 2.2 A/AA violation', async (width) => {
    // Prepare
    const link = await liveLink(live, merchant.acceptorId, { redirect_url: 'https://shop.example/basket' });
    const customer = await livePayment(browser, stack, link.links.checkout.href, 'NOT_ENOUGH_BALANCE');
    await customer.page.getByRole('heading', { name: 'Payment declined' }).waitFor({ timeout: 30_000 });
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    const page = await context.newPage();

    // Act
    await page.goto(customer.page.url());

    // Assess
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // For the person who checks the pages by eye: CHECKOUT_SCREENSHOTS=<folder> keeps each one.
    if (process.env.CHECKOUT_SCREENSHOTS) await page.screenshot({ path: join(process.env.CHECKOUT_SCREENSHOTS, `thank-you-declined-${width}.png`), fullPage: true });
    await context.close();
    await customer.close();
  });

  test.each([1280, 390])('the dashboard\'s pages of a live payment (paid and captured, refunded; declined) at %i px: its acquirer reference, capture and failure reason fit, and axe-core finds no serious or critical violation in them', async (width) => {
    // Prepare
    const paid = await paidLivePayment(stack, live, merchant.acceptorId);
    const refund = (await live.post(`/v1/payments/${paid.id}/refunds`, { amount: { value: '1.00', currency: 'eur' } })).body;
    const declinedLink = await liveLink(live, merchant.acceptorId);
    const declined = await livePayment(browser, stack, declinedLink.links.checkout.href, 'CVC_DECLINED');
    await paymentWhen(live, declined.paymentId, (found) => found.status === 'failed');
    await declined.close();
    const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const owner = await createPerson(stack, merchant.orgId, 'owner');
    await page.goto(`${stack.baseUrl}/dashboard`);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Switch to live mode' }).click();
    await page.locator('.mode.live').waitFor();

    for (const [path, shows] of [
      [`/dashboard/payments/${paid.id}`, ['acquirer_reference', 'capture']],
      [`/dashboard/refunds/${refund.id}`, ['acquirer_reference']],
      [`/dashboard/payments/${declined.paymentId}`, ['acquirer_reference', 'failure_reason']],
    ] as const) {
      // Act
      await page.goto(`${stack.baseUrl}${path}`);

      // Assess
      for (const field of shows) expect(await page.locator(`[data-field="${field}"]`).count()).toBe(1);
      if (process.env.CHECKOUT_SCREENSHOTS) await page.screenshot({ path: join(process.env.CHECKOUT_SCREENSHOTS, `${path.split('/').slice(2, 3)[0]}-${path.endsWith(declined.paymentId) ? 'declined' : 'live'}-${width}.png`), fullPage: true });
      expect({ path, sideways: await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth) }).toEqual({ path, sideways: 0 });
      // The fields (the navigation and the rest are every dashboard page's, checked with them).
      expect({ path, problems: await seriousAxeViolations(page, 'main dl') }).toEqual({ path, problems: [] });
    }
    expect(await page.locator('[data-field="failure_reason"]').textContent()).toBe('CVC Declined');
    await context.close();
    // Two payments, a person (a password hashed for the sign-in) and three pages in a browser.
  }, 90_000);

  test('live thank-you page: an open payment\'s page waits for the outcome, then says "processing" in a polite live region with a Check again button, never a timed reload', async () => {
    // Prepare
    const link = await liveLink(live, merchant.acceptorId);
    const context = await browser.newContext();
    const page = await context.newPage();
    await continueToAcquirer(page, stack, link.links.checkout.href);
    const paymentId = (await live.get(`/v1/payment_links/${link.id}/payments`)).body.data[0].id;

    // Act
    const answer = await page.goto(`${stack.baseUrl}/checkout/${link.id}/thank-you?payment_id=${paymentId}`);

    // Assess
    expect(answer?.status()).toBe(200);
    expect(await page.getByRole('heading').textContent()).toBe('Processing your payment');
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    expect(await page.getByRole('status').getByTestId('processing').isVisible()).toBe(true);
    expect(await page.getByRole('status').getAttribute('aria-live')).toBe('polite');
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.waitForURL(`${stack.baseUrl}/checkout/${link.id}/thank-you?payment_id=${paymentId}`);
    expect(await page.getByRole('heading').textContent()).toBe('Processing your payment');
    expect((await live.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'open', acquirer_reference: null });
    await context.close();
  });

  test('live thank-you page: an outcome the acquirer notifies while the page waits is the page\'s answer', async () => {
    // Prepare
    const link = await liveLink(live, merchant.acceptorId);
    const opened = await fetch(link.links.checkout.href, { headers: { accept: 'text/html' } });
    const paymentId = /name="payment_id" value="([^"]+)"/.exec(await opened.text())![1];
    const authorisation: NotificationItem = {
      eventCode: 'AUTHORISATION',
      pspReference: pspReference(),
      merchantAccountCode: LOCAL_MERCHANT_ACCOUNT,
      merchantReference: paymentId,
      eventDate: `${new Date().toISOString().slice(0, 19)}+00:00`,
      success: 'true',
      amount: { value: 2500, currency: 'EUR' },
    };

    // Act: the customer is back on the thank-you page before the acquirer's notification comes.
    const answer = fetch(`${stack.baseUrl}/checkout/${link.id}/thank-you?payment_id=${paymentId}`);
    await sleep(300);
    expect((await deliver(stack, signedBatch(stack, [authorisation]))).status).toBe(200);

    // Assess
    const html = await (await answer).text();
    expect(html).toContain('Thank you for your payment');
    expect((await live.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'paid', acquirer_reference: authorisation.pspReference });
  });

  test('live race: two customers pay the last slot of a limit-1 link -> one paid and captured, the other canceled and its authorisation cancelled', async () => {
    // Prepare: both customers are on the acquirer's page before either pays.
    const link = await liveLink(live, merchant.acceptorId, { payments_limit: 1 });
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    const pages = await Promise.all(contexts.map((context) => context.newPage()));
    for (const page of pages) await continueToAcquirer(page, stack, link.links.checkout.href);

    // Act
    const paymentIds = await Promise.all(pages.map((page, index) => payOnHostedPage(page, `Customer ${index}`)));

    // Assess
    const payments = await Promise.all(paymentIds.map((id) => paymentWhen(live, id, (found) => found.status !== 'open')));
    expect(payments.map((payment) => payment.status).sort()).toEqual(['canceled', 'paid']);
    const paid = payments.find((payment) => payment.status === 'paid')!;
    const lost = payments.find((payment) => payment.status === 'canceled')!;
    await acquirerWhen(stack, paid.acquirer_reference, (state) => state.captured === 2500, 'the winner captured');
    await acquirerWhen(stack, lost.acquirer_reference, (state) => state.status === 'cancelled' && state.captured === 0, 'the loser cancelled');
    expect((await live.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ status: 'inactive', payments_limit: 1, remaining_payments: 0 });
    await Promise.all(contexts.map((context) => context.close()));
  });
});
