import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

const hasBrowser = browserAvailable();
const describeBrowser = hasBrowser ? describe : describe.skip;

describeBrowser('checkout in headless Chromium', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let browser: Browser;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
    api = client(stack.baseUrl, merchant.test);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test('browser: open the checkout, enter the email, pay, see the thank-you page with the payment id', async () => {
    const link = (
      await api.post('/v1/payment_links', {
        amount: { value: '19.99', currency: 'EUR' },
        acceptor_id: merchant.acceptorId,
        description: 'Museum ticket',
        collect_email: true,
      })
    ).body;
    const page = await browser.newPage();
    const response = await page.goto(link.links.checkout.href);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Museum ticket' }).isVisible()).resolves.toBe(true);
    expect(await page.getByTestId('merchant').textContent()).toBe('Web shop');
    expect(await page.getByTestId('amount').textContent()).toBe('€19.99');
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/thank-you/);
    expect(await page.getByRole('heading').textContent()).toBe('Thank you for your payment');
    expect(await page.getByTestId('merchant').textContent()).toBe('Web shop');
    const paymentId = await page.getByTestId('payment-id').textContent();
    expect(paymentId).toMatch(/^pay_/);
    const payment = (await api.get(`/v1/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({ status: 'paid', customer: { email: 'ada@example.com' } });
    await page.close();
  });

  test('browser: after paying, the customer lands on the link redirect_url with the payment id', async () => {
    const link = (
      await api.post('/v1/payment_links', {
        amount: { value: '5.00', currency: 'EUR' },
        acceptor_id: merchant.acceptorId,
        redirect_url: `${stack.baseUrl}/v1/landing`,
      })
    ).body;
    const page = await browser.newPage();
    await page.goto(link.links.checkout.href);
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.url().startsWith(`${stack.baseUrl}/v1/landing`)),
      page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    expect(new URL(request.url()).searchParams.get('payment_id')).toMatch(/^pay_/);
    await page.close();
  });

  test('browser: with email, phone and address collected, the test outcomes other than Pay work in one click; Pay needs the fields', async () => {
    const link = (
      await api.post('/v1/payment_links', {
        amount: { value: '49.90', currency: 'EUR' },
        acceptor_id: merchant.acceptorId,
        collect_email: true,
        collect_phone: true,
        collect_address: true,
        redirect_url: 'https://shop.example/orders',
      })
    ).body;
    const page = await browser.newPage();
    for (const [button, status] of [['Fail payment', 'failed'], ['Cancel payment', 'canceled'], ['Expire payment', 'expired']]) {
      await page.goto(link.links.checkout.href);
      expect(await page.getByTestId('back').getAttribute('href')).toBe('https://shop.example/orders');
      await page.getByRole('button', { name: button }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('heading').textContent()).toBe(`Payment ${status}`);
    }
    await page.goto(link.links.checkout.href);
    // Pay with the fields empty: the browser keeps the customer on the form.
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    expect(await page.getByLabel('Email address').evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByLabel('Phone number').fill('+49 30 1234');
    await page.getByLabel('Billing address').fill('Unter den Linden 1, Berlin');
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.url().startsWith('https://shop.example/orders')),
      page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    const paymentId = new URL(request.url()).searchParams.get('payment_id')!;
    expect((await api.get(`/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'paid', customer: { email: 'ada@example.com', phone: '+49 30 1234' } });
    await page.close();
  });

  test('browser: a refused email (a browser that does not validate) re-renders the checkout with the message beside the field and the values kept; corrected, it pays', async () => {
    const link = (
      await api.post('/v1/payment_links', {
        amount: { value: '12.00', currency: 'EUR' },
        acceptor_id: merchant.acceptorId,
        collect_email: true,
        collect_phone: true,
        collect_address: true,
      })
    ).body;
    const page = await browser.newPage();
    await page.goto(link.links.checkout.href);
    await page.locator('form').evaluate((form) => ((form as HTMLFormElement).noValidate = true));
    await page.getByLabel('Email address').fill('ann@@example');
    await page.getByLabel('Phone number').fill('+49 30 1234');
    await page.getByLabel('Billing address').fill('Unter den Linden 1\n10117 Berlin');
    const [refused] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Pay', exact: true }).click()]);
    await page.waitForLoadState();
    expect(refused.status()).toBe(400);
    const email = page.getByLabel('Email address');
    expect(await email.inputValue()).toBe('ann@@example');
    expect(await page.getByLabel('Phone number').inputValue()).toBe('+49 30 1234');
    expect(await page.getByLabel('Billing address').inputValue()).toBe('Unter den Linden 1\n10117 Berlin');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator(`#${await email.getAttribute('aria-describedby')}`);
    expect(await message.textContent()).toMatch(/email address such as/);
    expect(await message.isVisible()).toBe(true);
    expect(await page.locator('#email + #email-error').count()).toBe(1);
    await email.fill('ann@example');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/thank-you/);
    const payment = (await api.get(`/v1/payments/${await page.getByTestId('payment-id').textContent()}`)).body;
    expect(payment).toMatchObject({ status: 'paid', customer: { email: 'ann@example', phone: '+49 30 1234' }, billing: { address: 'Unter den Linden 1\n10117 Berlin' } });
    await page.close();
  });

  test("browser: one rule for the email: the page's own validation and the server's answer agree on every candidate", async () => {
    const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, collect_email: true })).body;
    const candidates = [
      'ann@example',
      'ann@example.com',
      "o'brien+shop@mail.example.co.uk",
      'ann.@example.com',
      '  ann@example.com  ',
      `ann@${'a'.repeat(63)}.com`,
      'ann',
      'ann@@example',
      'ann@-example.com',
      'ann@example-.com',
      'ann@exa_mple.com',
      'ann@example..com',
      'ann@example.com.',
      '"ann"@example.com',
      'ann smith@example.com',
      `ann@${'a'.repeat(64)}.com`,
    ];
    const page = await browser.newPage();
    await page.goto(link.links.checkout.href);
    const email = page.getByLabel('Email address');
    const verdicts = [];
    for (const candidate of candidates) {
      await email.fill(candidate);
      const browserAccepts = await email.evaluate((input) => (input as HTMLInputElement).checkValidity());
      const server = await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'failed', email: candidate });
      verdicts.push({ candidate, browserAccepts, serverAccepts: server.status === 201 });
    }
    expect(verdicts.filter(({ browserAccepts, serverAccepts }) => browserAccepts !== serverAccepts)).toEqual([]);
    expect(verdicts.filter(({ serverAccepts }) => serverAccepts).map(({ candidate }) => candidate)).toEqual(candidates.slice(0, 6));
    await page.close();
  });

  test('browser: an inactive link shows the 409 page', async () => {
    const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
    await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive' });
    const page = await browser.newPage();
    const response = await page.goto(link.links.checkout.href);
    expect(response?.status()).toBe(409);
    expect(await page.getByRole('heading').textContent()).toBe('Payment not available');
    expect(await page.getByText('no longer active').isVisible()).toBe(true);
    await page.close();
  });
});
