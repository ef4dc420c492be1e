import { apiOperations, routes } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { client, expectEnvelope } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** What a client sends is bounded (product-decisions §1): over a limit is a 4xx envelope, never a 500. */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack?.stop());

const link = (extra: Record<string, unknown> = {}) => ({ amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...extra });

describe('Limits: request bodies', () => {
  test('a body over 1 MB is a 413 envelope before authentication, on every route', async () => {
    const oversized = JSON.stringify({ description: 'x'.repeat(LIMITS.requestBodyBytes) });
    const posts = routes.filter((route) => route.method === 'POST');
    expect(posts.length).toBeGreaterThan(10);
    for (const route of posts) {
      const path = route.path.replace(/\{\w+\}/g, 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h');
      expect([route.path, (await client(stack.baseUrl).post(path, oversized)).status]).toEqual([route.path, 413]);
      expectEnvelope(await api.post(path, oversized), 413);
    }
    const documented = (await api.get('/v1/openapi.json')).body.paths;
    for (const operation of apiOperations.filter((candidate) => candidate.method === 'POST')) {
      expect([operation.path, Object.keys(documented[operation.path].post.responses)]).toEqual([operation.path, expect.arrayContaining(['413'])]);
    }
  });

  test('a body of just under 1 MB is read and judged by its schema (400 for a too long description)', async () => {
    const body = JSON.stringify(link({ description: 'x'.repeat(LIMITS.requestBodyBytes - 200) }));
    expectEnvelope(await api.post('/v1/payment_links', body), 400, 'description');
  });
});

describe('Limits: URLs', () => {
  test('redirect_url over 2,048 characters is a 400, at 2,048 it is accepted', async () => {
    const url = (length: number) => `https://shop.example/${'a'.repeat(length - 'https://shop.example/'.length)}`;
    expectEnvelope(await api.post('/v1/payment_links', link({ redirect_url: url(LIMITS.urlLength + 1) })), 400, 'redirect_url');
    expectEnvelope(await api.post('/v1/payment_links', link({ redirect_url: url(450_000) })), 400, 'redirect_url');
    expect((await api.post('/v1/payment_links', link({ redirect_url: url(LIMITS.urlLength) }))).status).toBe(201);
  });

  test('a refund webhook_url over 2,048 characters is a 400', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '20.00' });
    const webhookUrl = `https://hooks.example/${'a'.repeat(LIMITS.urlLength)}`;
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: webhookUrl }), 400, 'webhook_url');
  });
});

describe('Limits: metadata keys', () => {
  test.each(['__proto__', 'constructor', 'prototype'])('metadata key %s is a 422 and writes nothing', async (key) => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '20.00' });
    const answer = await api.post(`/v1/payments/${payment.id}/refunds`, `{"metadata":{"${key}":"x"}}`);
    expectEnvelope(answer, 422, 'metadata');
    expect((await api.get('/v1/refunds?limit=100')).body.data.filter((refund: { payment_id: string }) => refund.payment_id === payment.id)).toEqual([]);
  });
});

describe('Limits: amounts', () => {
  test('an amount of 999,999,999.99 is accepted; one cent more is a 422 `too large`', async () => {
    expect((await api.post('/v1/payment_links', link({ amount: { value: '999999999.99', currency: 'EUR' } }))).status).toBe(201);
    expectEnvelope(await api.post('/v1/payment_links', link({ amount: { value: '1000000000.00', currency: 'EUR' } })), 422, 'amount.value');
    expectEnvelope(await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '-1000000000.00', currency: 'eur' } }), 422, 'amount.value');
  });
});

describe('Limits: pages frame nothing', () => {
  test('checkout, thank-you, docs and dashboard pages send X-Frame-Options, frame-ancestors and (private ones) no-store', async () => {
    const created = (await api.post('/v1/payment_links', link())).body;
    const pages = [`/checkout/${created.id}`, '/checkout/pl_01jd2x3y4z5a6b7c8d9e0f1g2h', '/docs', '/docs/errors', '/dashboard'];
    for (const path of pages) {
      const { headers } = await client(stack.baseUrl).get(path);
      expect({ path, frame: headers.get('x-frame-options'), csp: headers.get('content-security-policy') }).toEqual({
        path,
        frame: 'DENY',
        csp: expect.stringContaining("frame-ancestors 'none'"),
      });
    }
    for (const path of [`/checkout/${created.id}`, '/dashboard']) {
      expect((await client(stack.baseUrl).get(path)).headers.get('cache-control')).toBe('no-store');
    }
  });
});
