import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** Test helpers act only inside the caller's organization and test mode, with their resource's scope (decisions §10). */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack?.stop());

const dueLink = (owner: Merchant) => ({ amount: { value: '5.00', currency: 'EUR' }, acceptor_id: owner.acceptorId, expires_at: '2021-06-01T00:00:00Z' });

describe('Test helpers: scopes', () => {
  test.each([
    ['/v1/test_helpers/payment_links/pl_01jd2x3y4z5a6b7c8d9e0f1g2h/checkout', 'payment_link:read'],
    ['/v1/test_helpers/payments/pay_01jd2x3y4z5a6b7c8d9e0f1g2h/chargebacks', 'payment:read'],
    ['/v1/test_helpers/chargebacks/cb_01jd2x3y4z5a6b7c8d9e0f1g2h/transitions', 'payment:read'],
    ['/v1/test_helpers/refunds/rf_01jd2x3y4z5a6b7c8d9e0f1g2h/transitions', 'refund:read'],
    ['/v1/test_helpers/balance_adjustments', 'refund:read'],
  ] as const)('POST %s without its resource scope (only %s) -> 403', async (path, scope) => {
    const token = await merchant.key({ scopes: [scope] });
    expectEnvelope(await client(stack.baseUrl, token).post(path, {}), 403);
  });

  test('the jobs helper takes any test key of the organization', async () => {
    const token = await merchant.key({ scopes: ['payment:read'] });
    expect((await client(stack.baseUrl, token).post('/v1/test_helpers/jobs/process-refunds')).status).toBe(200);
  });
});

describe('Test helpers: the jobs helper stays in the caller organization and test mode', () => {
  test("running expire-payment-links expires and counts only the caller's test links", async () => {
    const other = await createMerchant(stack);
    const otherTest = client(stack.baseUrl, other.test);
    const otherLive = client(stack.baseUrl, other.live);
    const mineLive = client(stack.baseUrl, merchant.live);
    const foreign = (await otherTest.post('/v1/payment_links', dueLink(other))).body;
    const foreignLive = (await otherLive.post('/v1/payment_links', dueLink(other))).body;
    const ownLive = (await mineLive.post('/v1/payment_links', dueLink(merchant))).body;
    const own = (await api.post('/v1/payment_links', dueLink(merchant))).body;

    const run = await api.post('/v1/test_helpers/jobs/expire-payment-links');
    expect(run.body).toEqual({ object: 'job_run', name: 'expire-payment-links', processed: 1 });
    expect((await api.get(`/v1/payment_links/${own.id}`)).body.status).toBe('expired');
    expect((await otherTest.get(`/v1/payment_links/${foreign.id}`)).body.status).toBe('active');
    expect((await otherLive.get(`/v1/payment_links/${foreignLive.id}`)).body.status).toBe('active');
    expect((await mineLive.get(`/v1/payment_links/${ownLive.id}`)).body.status).toBe('active');
  });
});
