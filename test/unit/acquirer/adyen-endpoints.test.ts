import { adyenClient, type AdyenApiSettings } from '../../../shared/acquirer/adyen-client';
import { adyenDisputes } from '../../../shared/acquirer/adyen-disputes';
import { adyenPayments } from '../../../shared/acquirer/adyen-payments';
import { runWithDeadline } from '../../../shared/deadline';
import { AcquirerUnavailableError } from '../../../shared/domain/acquirer';

/**
 * Without the local Adyen's `endpoint`, the adapter's transport sends to the library's own
 * endpoints (Checkout v71, Dispute Service v30), test or live. No network here: `fetch` is
 * replaced by a recorder that answers as Adyen would.
 */
describe('Adyen adapter in AWS: the library\'s own endpoints', () => {
  let requests: { url: string; headers: Record<string, string> }[];

  beforeEach(() => {
    requests = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      requests.push({ url: String(url), headers: init?.headers as Record<string, string> });
      const body = String(url).includes('DisputeService')
        ? { disputeServiceResult: { success: true } }
        : { id: 'CS1', url: 'https://checkoutshopper-live.adyen.com/x', expiresAt: '2026-11-25T12:00:00+00:00', pspReference: 'QFQTPCQ8HXSKGK82' };
      return new Response(JSON.stringify(body), { status: 201 });
    });
  });
  afterEach(() => jest.restoreAllMocks());

  async function callEverything(settings: AdyenApiSettings) {
    const client = adyenClient(settings);
    const payment = { paymentId: 'pay_1', acquirerReference: 'QFQTPCQ8HXSKGK82', merchantAccount: 'ShopECOM' };
    await adyenPayments(client).startHostedPayment({ paymentId: 'pay_1', amount: { minor: 100, currency: 'EUR' }, merchantAccount: 'ShopECOM', returnUrl: 'https://example.com/thanks', expiresAt: '2026-11-25T12:00:00Z' });
    await adyenPayments(client).refund({ refundId: 're_1', payment, amount: { minor: 100, currency: 'EUR' } });
    await adyenDisputes(client).accept({ disputeReference: 'DZ4DPSHB4WD2WN82', merchantAccount: 'ShopECOM' });
  }

  test('test environment: checkout-test.adyen.com/v71 and ca-test.adyen.com, with the API key and the idempotency key', async () => {
    await callEverything({ apiKey: 'AQE_test', environment: 'test' });
    expect(requests.map((request) => request.url)).toEqual([
      'https://checkout-test.adyen.com/v71/sessions',
      'https://checkout-test.adyen.com/v71/payments/QFQTPCQ8HXSKGK82/refunds',
      'https://ca-test.adyen.com/ca/services/DisputeService/v30/acceptDispute',
    ]);
    expect(requests[1].headers).toMatchObject({ 'X-API-Key': 'AQE_test', 'Idempotency-Key': 're_1', 'Content-Type': 'application/json' });
    expect(requests[1].headers['User-Agent']).toMatch(/^payment-operations adyen-node-api-library\/31\.0\.0$/);
  });

  test('live environment: the company\'s live URL prefix for Checkout, ca-live.adyen.com for disputes', async () => {
    await callEverything({ apiKey: 'AQE_live', environment: 'live', liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo' });
    expect(requests.map((request) => request.url)).toEqual([
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v71/sessions',
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v71/payments/QFQTPCQ8HXSKGK82/refunds',
      'https://ca-live.adyen.com/ca/services/DisputeService/v30/acceptDispute',
    ]);
  });

  test('within a request, a call that could not end 2 s before the invocation must answer is not sent: AcquirerUnavailableError (503), nothing asked of Adyen', async () => {
    // Prepare
    const disputes = adyenDisputes(adyenClient({ apiKey: 'AQE_test', environment: 'test' }));
    // Act
    const outcome = runWithDeadline(Date.now() + 1_500, () => disputes.accept({ disputeReference: 'DZ4DPSHB4WD2WN82', merchantAccount: 'ShopECOM' }));
    // Assess
    await expect(outcome).rejects.toMatchObject({ constructor: AcquirerUnavailableError, failure: 'no time left in the invocation' });
    expect(requests).toEqual([]);
  });

  test('live without its URL prefix fails when the adapter is built, before any request', () => {
    expect(() => adyenPayments(adyenClient({ apiKey: 'AQE_live', environment: 'live' }))).toThrow('Live endpoint URL prefix must be provided');
    expect(requests).toEqual([]);
  });
});
