import type { RefundRepository } from '../../../shared/db/refund-repository';
import type { Payment } from '../../../shared/domain/payments';
import { newId } from '../../../shared/ids';
import { refundUseCases, type RefundDeps } from '../../../shared/use-cases/refunds';

const urls = { base: 'http://x', checkout: 'http://x/c', dashboard: 'http://x/d', docs: 'http://x/docs' };

/** The refund use cases over fakes of the ports a test names. */
const useCasesWith = (ports: { refunds: Partial<RefundRepository>; payments?: RefundDeps['payments']; balances: Partial<RefundDeps['balances']> }) =>
  refundUseCases({
    refunds: ports.refunds as RefundRepository,
    payments: ports.payments ?? { get: async () => undefined },
    balances: ports.balances as RefundDeps['balances'],
    now: () => new Date(),
    cancelWindowSeconds: 300,
    configuredUrls: () => urls,
    checkWebhookUrl: async () => undefined,
  });

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
    const holdQueue = jest.fn(async () => Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' })));
    const useCases = useCasesWith({
      refunds: { create: async () => outcomes.shift() as never, holdQueue },
      payments: { get: async () => payment },
      balances: { hasHeldRefunds: async () => true, clearHoldMarker: async () => undefined },
    });
    const principal = { actor: { type: 'api_key' as const, id: 'key_x' }, orgId: 'org_x', mode: 'test' as const, scopes: [] };
    const refund = await useCases.create(principal, payment.id, {}, urls);
    expect(refund).toMatchObject({ status: 'pending', onHold: true, amountMinor: 1000 });
    expect(holdQueue).toHaveBeenCalled(); // the release was tried, and failed
  });
});

describe('Use case: refunds.releaseAfterCommit', () => {
  test.each([
    ['no refund on hold: one read of the balance, no Query of the hold queue, no write on the balance', false, ['hasHeldRefunds']],
    ['refunds on hold: the hold queue is queried (empty here, so the marker is removed)', true, ['hasHeldRefunds', 'holdQueue', 'clearHoldMarker']],
  ])('a credit with %s', async (_, held, expected) => {
    const calls: string[] = [];
    const useCases = useCasesWith({
      refunds: { holdQueue: async () => (calls.push('holdQueue'), []) },
      balances: {
        hasHeldRefunds: async () => (calls.push('hasHeldRefunds'), held),
        clearHoldMarker: async () => void calls.push('clearHoldMarker'),
      },
    });
    expect(await useCases.releaseAfterCommit({ orgId: 'org_x', mode: 'test', currency: 'EUR' }, urls)).toBe(0);
    expect(calls).toEqual(expected);
  });
});
