import type { RefundRepository } from '../../../shared/db/refund-repository';
import type { Payment } from '../../../shared/domain/payments';
import { newId } from '../../../shared/ids';
import { refundUseCases } from '../../../shared/use-cases/refunds';

/**
 * Once a refund is committed, a failure of what follows (releasing the balance's hold queue)
 * does not fail the request: a retry with the same Idempotency-Key would create a second refund.
 */
describe('Use case: refunds.create', () => {
  test('a held refund is answered even when releasing the hold queue afterwards fails', async () => {
    const payment: Payment = {
      id: newId('payment'), orgId: 'org_x', mode: 'test', acceptorId: 'acceptor_x', paymentLinkId: newId('paymentLink'),
      status: 'paid', amountMinor: 1000, currency: 'EUR', createdAt: new Date().toISOString(),
    };
    const outcomes = ['not-covered', 'created'];
    const refunds = {
      create: async () => outcomes.shift(),
      holdQueue: async () => Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' })),
    } as unknown as RefundRepository;
    const useCases = refundUseCases({
      refunds,
      payments: { get: async () => payment },
      balances: { clearHoldMarker: async () => undefined } as never,
      now: () => new Date(),
      cancelWindowSeconds: 300,
      configuredUrls: () => ({ base: 'http://x', checkout: 'http://x/c', dashboard: 'http://x/d', docs: 'http://x/docs' }),
      checkWebhookUrl: async () => undefined,
    });
    const principal = { keyId: 'key_x', orgId: 'org_x', mode: 'test' as const, scopes: [] };
    const refund = await useCases.create(principal, payment.id, {}, { base: 'http://x', checkout: 'http://x/c', dashboard: 'http://x/d', docs: 'http://x/docs' });
    expect(refund).toMatchObject({ status: 'pending', onHold: true, amountMinor: 1000 });
  });
});
