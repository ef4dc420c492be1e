import fc from 'fast-check';
import { customerDetailEdges, datetimeAndMoneyEdges } from '../../support/edge-values';
import type { HttpResult } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * Property: whatever a client sends, the answer is never a 500 and every error is the envelope.
 * Random JSON bodies (and field values of the right names) go to every POST of the API, random
 * query strings to the lists, random path ids to the retrieves.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
let linkId: string;
let paymentId: string;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  linkId = (await api.post('/v1/payment_links', { amount: { value: '9.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
  paymentId = (await api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, {})).body.id;
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '1000.00', currency: 'eur' } });
});
afterAll(() => stack.stop());

function expectHandled(result: HttpResult, what: string) {
  expect({ what, status: result.status }).not.toEqual({ what, status: 500 });
  if (result.status >= 400) {
    expect(result.body).toMatchObject({ status: result.status, type: expect.any(String), detail: expect.any(String) });
  }
}

const fieldNames = ['amount', 'value', 'currency', 'description', 'acceptor_id', 'payments_limit', 'expires_at', 'redirect_url',
  'internal_reference', 'collect_email', 'status', 'outcome', 'client_key', 'webhook_url', 'metadata', 'allow_overcaptured',
  'overcap_pct', 'reason', 'deadline_at', 'subscription_id', 'email', 'phone', 'address'];

/** Arbitrary JSON, and strings at and past the bounds and rules of LIMITS (customer details, datetimes, currencies). */
const plausibleValue = (maxDepth: number) => fc.oneof(fc.jsonValue({ maxDepth }), customerDetailEdges, datetimeAndMoneyEdges);

/** Objects with the API's own field names and plausible values, nested one level. */
const plausibleBody = fc.dictionary(
  fc.constantFrom(...fieldNames),
  fc.oneof(plausibleValue(2), fc.dictionary(fc.constantFrom(...fieldNames), plausibleValue(1), { maxKeys: 3 })),
  { maxKeys: 5 },
);

const posts = () => [
  '/v1/payment_links',
  `/v1/payment_links/${linkId}`,
  `/v1/payments/${paymentId}/refunds`,
  `/v1/test_helpers/payment_links/${linkId}/checkout`,
  `/v1/test_helpers/payments/${paymentId}/chargebacks`,
  '/v1/test_helpers/balance_adjustments',
];

test('fuzz: random bodies to every POST never give a 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...posts()), fc.oneof(plausibleBody, fc.jsonValue({ maxDepth: 3 })), async (path, body) => {
      expectHandled(await api.call('POST', path, JSON.stringify(body), { 'content-type': 'application/json' }), `POST ${path} ${JSON.stringify(body)}`);
    }),
    { numRuns: 150 },
  );
});

test('fuzz: raw (non-JSON) bodies never give a 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...posts()), fc.string({ maxLength: 60 }), async (path, text) => {
      expectHandled(await api.call('POST', path, text, { 'content-type': 'application/json' }), `POST ${path} ${text}`);
    }),
    { numRuns: 60 },
  );
});

test('fuzz: random query strings to every list and random ids to every retrieve never give a 500', async () => {
  const lists = ['/v1/payment_links', '/v1/payments', '/v1/refunds', '/v1/chargebacks', '/v1/events', `/v1/payment_links/${linkId}/payments`];
  const query = fc.dictionary(
    fc.constantFrom('limit', 'starting_after', 'ending_before', 'status', 'type', 'other'),
    fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom('pl_', 'pay_01', '', '0', '101', '1.5')),
    { maxKeys: 3 },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...lists), query, async (path, params) => {
      const search = new URLSearchParams(params).toString();
      expectHandled(await api.get(`${path}?${search}`), `GET ${path}?${search}`);
    }),
    { numRuns: 150 },
  );
  const retrieves = ['/v1/payment_links/', '/v1/payments/', '/v1/refunds/', '/v1/chargebacks/', '/v1/events/', '/v1/settlements/'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...retrieves), fc.string({ minLength: 1, maxLength: 40 }), async (prefix, id) => {
      const result = await api.get(`${prefix}${encodeURIComponent(id)}`);
      expectHandled(result, `GET ${prefix}${id}`);
    }),
    { numRuns: 100 },
  );
});
