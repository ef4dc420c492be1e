import { client, expectEnvelope } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * Methods: a page read with GET answers HEAD too; a route's path asked with a method it does not
 * take is a 405 naming the ones it does (`Allow`); a path no route has is a 404. All as the error
 * envelope, from the service's own functions (API Gateway's `$default` route in AWS).
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
let linkId: string;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  linkId = (await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
});
afterAll(() => stack?.stop());

const request = (method: string, path: string) => fetch(`${stack.baseUrl}${path}`, { method, redirect: 'manual' });

describe('HEAD on pages', () => {
  test.each(['/checkout/{link}', '/checkout/pl_unknown', '/dashboard', '/docs', '/docs/errors', '/docs/assets/swagger-ui.css'])(
    'HEAD %s: the status and headers of GET, no body',
    async (template) => {
      // Prepare
      const path = template.replace('{link}', linkId);

      // Act
      const [get, head] = [await request('GET', path), await request('HEAD', path)];

      // Assess
      expect({ status: head.status, type: head.headers.get('content-type'), body: await head.text() }).toEqual({
        status: get.status,
        type: get.headers.get('content-type'),
        body: '',
      });
      expect(head.headers.get('x-frame-options')).toBe('DENY');
    },
  );
});

describe('405 Method Not Allowed', () => {
  test.each([
    ['DELETE', '/v1/payment_links', 'GET, POST'],
    ['PUT', '/v1/payment_links/{link}', 'GET, POST'],
    ['POST', '/v1/payments', 'GET'],
    ['POST', '/docs', 'GET, HEAD'],
    ['PATCH', '/checkout/{link}', 'GET, HEAD, POST'],
    ['GET', '/dashboard/session', 'POST'],
    ['PUT', '/v1/webhook_endpoints/whk_00000000000000000000000000', 'GET, POST, DELETE'],
    ['DELETE', '/v1/webhook_endpoints', 'GET, POST'],
  ])('%s %s -> 405 envelope, Allow: %s', async (method, template, allow) => {
    // Act
    const result = await client(stack.baseUrl).call(method, template.replace('{link}', linkId));

    // Assess
    expectEnvelope(result, 405);
    expect(result.body.type).toBe('Method Not Allowed');
    expect(result.headers.get('allow')).toBe(allow);
  });

  test('HEAD on an API path -> 405 with Allow (the API answers GET, not HEAD)', async () => {
    const result = await request('HEAD', '/v1/payment_links');
    expect([result.status, result.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });
});

describe('404 for a path no route has', () => {
  test('an unknown path is the envelope, worded as a test-only route asked with a live key', async () => {
    // Act
    const unknown = await client(stack.baseUrl).get('/v1/no_such_things');
    const testOnly = await client(stack.baseUrl, merchant.live).post('/v1/test_helpers/balance_adjustments', { amount: { value: '1.00', currency: 'EUR' } });

    // Assess
    expectEnvelope(unknown, 404);
    expect(unknown.body).toEqual(testOnly.body);
  });
});
