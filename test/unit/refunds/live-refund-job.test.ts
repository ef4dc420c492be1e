import type { RefundRepository } from '../../../shared/db/refund-repository';
import { AcquirerRefusedError, AcquirerUnavailableError, type PaymentAcquirer, type RefundRequest } from '../../../shared/domain/acquirer';
import type { CaptureStatus, Payment } from '../../../shared/domain/payments';
import { newRefund, type Refund } from '../../../shared/domain/refunds';
import { newId } from '../../../shared/ids';
import { runRefundJob, type RefundDeps } from '../../../shared/use-cases/refunds';

const urls = { base: 'http://x', checkout: 'http://x/c', dashboard: 'http://x/d', docs: 'http://x/docs' };
const NOW = new Date('2026-11-25T12:00:00.000Z');

/**
 * The process-refunds job in live mode (product-decisions §12), over in-memory fakes of its
 * ports: a covered refund is moved to `processing` and sent to the acquirer, the refund id its
 * idempotency key; the acquirer's notification settles it, never the job.
 */
describe('Use case: runRefundJob, live', () => {
  function world(capture: CaptureStatus, answers: (() => Promise<{ acquirerReference: string }>)[]) {
    const payment: Payment = {
      id: newId('payment'), orgId: 'org_x', mode: 'live', acceptorId: 'acceptor_x', paymentLinkId: newId('paymentLink'), status: 'paid',
      amountMinor: 2500, currency: 'EUR', createdAt: '2026-11-25T10:00:00.000Z',
      acquirer: { merchantAccount: 'ShopECOM', reference: 'AUTH000000000001', capture },
    };
    const refund: Refund = {
      ...newRefund({ id: newId('refund'), orgId: 'org_x', mode: 'live', acceptorId: 'acceptor_x', paymentId: payment.id, paymentLinkId: payment.paymentLinkId, amountMinor: 1000, currency: 'EUR', description: '', metadata: {}, createdAt: '2026-11-25T11:00:00.000Z' }),
      onHold: false,
    };
    const stored = new Map([[refund.id, refund]]);
    const sent: RefundRequest[] = [];
    const page = (status: Refund['status']) => async () => ({ refunds: [...stored.values()].filter((found) => found.status === status && !found.onHold), nextKey: undefined });
    const refunds: Partial<RefundRepository> = {
      processingDue: page('processing'),
      coveredDue: page('pending'),
      async move(move) {
        if (stored.get(move.refund.id)!.status !== move.from) return 'stale';
        stored.set(move.refund.id, move.refund);
        return 'moved';
      },
      async recordAcquirerReference(id, reference) {
        stored.set(id, { ...stored.get(id)!, acquirerReference: reference });
      },
    };
    const acquirer = {
      async refund(request: RefundRequest) {
        sent.push(request);
        return answers.shift()!();
      },
    } as Partial<PaymentAcquirer> as PaymentAcquirer;
    const deps = {
      refunds: refunds as RefundRepository,
      payments: { get: async () => payment },
      balances: { withHeldRefunds: async () => [], hasHeldRefunds: async () => false } as unknown as RefundDeps['balances'],
      now: () => NOW,
      configuredUrls: () => urls,
      cancelWindowSeconds: 300,
      acquirer: async () => acquirer,
    };
    return { run: () => runRefundJob(deps, NOW), status: () => stored.get(refund.id)!.status, sent, refund };
  }

  const taken = async () => ({ acquirerReference: 'REF0000000000001' });

  test('live refund: moved to processing and sent at once, keyed by its id; the job never completes it, however often it runs', async () => {
    // Prepare
    const job = world('captured', [taken]);
    // Act
    await job.run();
    await job.run();
    // Assess
    expect(job.status()).toBe('processing');
    expect(job.sent).toEqual([{ refundId: job.refund.id, payment: { paymentId: expect.any(String), acquirerReference: 'AUTH000000000001', merchantAccount: 'ShopECOM' }, amount: { minor: 1000, currency: 'EUR' } }]);
  });

  test('live refund: the acquirer unreachable -> it stays processing, and the next run sends it again with the same refund id', async () => {
    // Prepare
    const job = world('captured', [async () => Promise.reject(new AcquirerUnavailableError('timeout')), taken]);
    // Act
    await job.run();
    const afterFirst = job.status();
    await job.run();
    await job.run();
    // Assess
    expect(afterFirst).toBe('processing');
    expect(job.status()).toBe('processing');
    expect(job.sent.map((request) => request.refundId)).toEqual([job.refund.id, job.refund.id]);
  });

  test('live refund: refused by the acquirer -> failed, its reservation given back', async () => {
    const job = world('captured', [async () => Promise.reject(new AcquirerRefusedError('Invalid amount', '137'))]);
    await job.run();
    expect(job.status()).toBe('failed');
  });

  test('live refund: waits, unsent, while the payment\'s capture is not confirmed', async () => {
    const job = world('requested', [taken]);
    await job.run();
    expect([job.status(), job.sent.length]).toEqual(['processing', 0]);
  });

  test('live refund: the payment\'s capture failed -> failed without a call to the acquirer', async () => {
    const job = world('failed', []);
    await job.run();
    expect([job.status(), job.sent.length]).toEqual(['failed', 0]);
  });
});
