import type { Browser, Response } from 'playwright-core';
import { newId } from '../../../shared/ids';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** The checkout's pages as a customer meets them: words for people, and nothing missing in the browser. */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack?.stop());

const createLink = async () => (await api.post('/v1/payment_links', { amount: { value: '8.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;

/** The text a person reads: the page without its markup, style and head. */
const visibleText = (html: string) =>
  html
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('Checkout: a link that does not exist', () => {
  test.each([
    ['an unknown link', () => `/checkout/${newId('paymentLink')}`],
    ['a mistyped link', () => '/checkout/pl_01'],
    ['the thank-you page of no payment', () => `/checkout/${newId('paymentLink')}/thank-you?payment_id=pay_x`],
  ])('%s: a 404 page in the customer\'s words, not the API\'s', async (_what, path) => {
    // Act
    const response = await fetch(`${stack.baseUrl}${path()}`);

    // Assess
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const text = visibleText(await response.text());
    expect(text).toContain('This payment link does not work');
    expect(text).toContain('ask whoever sent it to you for a new one');
    expect(text).not.toMatch(/Not Found|resource|route|session/i);
  });
});

describe('Checkout: the favicon', () => {
  test('every checkout page names an inline icon, so the browser asks for no /favicon.ico', async () => {
    // Prepare
    const link = await createLink();

    // Act
    const pages = await Promise.all([`/checkout/${link.id}`, `/checkout/${newId('paymentLink')}`].map(async (path) => (await fetch(`${stack.baseUrl}${path}`)).text()));

    // Assess
    for (const html of pages) {
      const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)">/.exec(html)?.[1];
      expect(href).toMatch(/^data:image\/svg\+xml,/);
      expect(decodeURIComponent(href!.slice('data:image/svg+xml,'.length))).toMatch(/^<svg xmlns='http:\/\/www.w3.org\/2000\/svg'[\s\S]*<\/svg>$/);
    }
  });

  const describeBrowser = browserAvailable() ? describe : describe.skip;
  describeBrowser('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 60_000);
    afterAll(() => browser?.close());

    test('browser: the checkout\'s icon is an image the browser draws, and no request of the page fails', async () => {
      // Prepare
      const link = await createLink();
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on('response', (response: Response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });

      // Act
      await page.goto(`${stack.baseUrl}/checkout/${link.id}`, { waitUntil: 'networkidle' });

      // Assess
      const iconWidth = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const icon = new Image();
            icon.onload = () => resolve(icon.naturalWidth);
            icon.onerror = () => resolve(0);
            icon.src = document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? '';
          }),
      );
      expect(failed).toEqual([]);
      expect(iconWidth).toBeGreaterThan(0);
      await page.close();
    });
  });
});
