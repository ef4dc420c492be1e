import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { startTestStack, type TestStack } from '../../support/stack';

/** The developer pages at {docs_url}: served by the stack itself, without an API key. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

const swaggerUiFile = (file: string) => readFileSync(join(__dirname, '..', '..', '..', 'node_modules', 'swagger-ui-dist', file));

test('docs: the reference page loads Swagger UI from this stack (no CDN) and points it at /v1/openapi.json', async () => {
  const response = await fetch(`${stack.baseUrl}/docs`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await response.text();
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
  expect(sources.length).toBeGreaterThan(0);
  for (const source of sources) expect(source.startsWith(stack.baseUrl)).toBe(true);
  expect(html).toContain(`"url":"${stack.baseUrl}/v1/openapi.json"`);
  expect(html).toContain('"validatorUrl":null');
});

test('docs: Swagger UI assets come from swagger-ui-dist, gzipped when accepted, cacheable', async () => {
  const plain = await fetch(`${stack.baseUrl}/docs/assets/swagger-ui.css`, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(plain.headers.get('cache-control')).toMatch(/max-age=\d+/);
  expect(Buffer.from(await plain.arrayBuffer()).equals(swaggerUiFile('swagger-ui.css'))).toBe(true);

  // Node's fetch decodes gzip by itself: read the raw bytes through node:http instead.
  const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
    request(`${stack.baseUrl}/docs/assets/swagger-ui-bundle.js`, { headers: { 'accept-encoding': 'gzip, br' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
  expect(raw.encoding).toBe('gzip');
  expect(gunzipSync(raw.body).equals(swaggerUiFile('swagger-ui-bundle.js'))).toBe(true);

  const icon = await fetch(`${stack.baseUrl}/docs/assets/favicon-32x32.png`);
  expect(icon.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await icon.arrayBuffer()).equals(swaggerUiFile('favicon-32x32.png'))).toBe(true);
});

test('docs: an asset outside the served list is a 404, whatever the name', async () => {
  for (const file of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui.js.map']) {
    expect((await fetch(`${stack.baseUrl}/docs/assets/${file}`)).status).toBe(404);
  }
});

test('docs: the error reference explains every error status, the envelope and the 400 vs 422 split', async () => {
  const response = await fetch(`${stack.baseUrl}/docs/errors`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await response.text();
  for (const status of [400, 401, 403, 404, 405, 409, 422, 500, 503]) expect(html).toContain(`id="status-${status}"`);
  for (const field of ['status', 'type', 'detail', 'attribute', 'links.documentation']) expect(html).toContain(`<code>${field}</code>`);
  expect(html).toContain('400 or 422: shape or business rule');
  expect(html).toContain('Retry-After');
});

const describeBrowser = browserAvailable() ? describe : describe.skip;

describeBrowser('docs in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  test('browser: the API reference shows the API title and the payment-link operations, with no request leaving the stack', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.baseUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    const response = await page.goto(`${stack.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: /Payment Operations API/ }).first().waitFor();
    await page.getByText('/v1/payment_links', { exact: true }).first().waitFor();
    expect(await page.getByText('Create a payment link').first().isVisible()).toBe(true);
    expect(await page.getByText('/v1/settlements/{code}/records').first().isVisible()).toBe(true);
    expect(foreign).toEqual([]);
    await page.close();
  });

  test.each(['/docs', '/docs/errors'])('browser: %s fits a 390 px wide phone without scrolling sideways', async (path) => {
    // Prepare
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });

    // Act
    await page.goto(`${stack.baseUrl}${path}`, { waitUntil: 'networkidle' });
    if (path === '/docs') await page.getByText('/v1/payment_links', { exact: true }).first().waitFor();

    // Assess
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
  });

  test('browser: the error reference explains 422 and the 400 vs 422 split', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.baseUrl}/docs/errors`);
    expect(await page.getByRole('heading', { name: '422 Unprocessable Entity' }).isVisible()).toBe(true);
    expect(await page.locator('#status-422').textContent()).toContain('well formed but breaks a business rule');
    expect(await page.getByRole('heading', { name: '400 or 422: shape or business rule' }).isVisible()).toBe(true);
    await page.close();
  });
});
