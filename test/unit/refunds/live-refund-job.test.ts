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
      // As the table does it: the reference of the first to record one (the notification or the job) stays.
      async recordAcquirerReference(id, reference) {
        if (!stored.get(id)!.acquirerReference) stored.set(id, { ...stored.get(id)!, acquirerReference: reference });
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
    return {
      run: () => runRefundJob(deps, NOW),
      status: () => stored.get(refund.id)!.status,
      reference: () => stored.get(refund.id)!.acquirerReference,
      sent,
      refund,
      confirmCapture: () => void (payment.acquirer!.capture = 'captured'),
      /** The acquirer's notification, processed: what settleLiveRefund writes. */
      settle: (status: 'refunded' | 'failed', acquirerReference: string) => void stored.set(refund.id, { ...stored.get(refund.id)!, status, acquirerReference }),
    };
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

  test('live refund: waits pending (still cancelable), unsent, while the payment\'s capture is not confirmed; the run after the confirmation moves it and sends it at once', async () => {
    // Prepare: the job runs between the payment's paid commit and its CAPTURE notification (issue 40 item 13)
    const job = world('requested', [taken]);
    // Act
    await job.run();
    const before = [job.status(), job.sent.length];
    job.confirmCapture();
    await job.run();
    // Assess
    expect(before).toEqual(['pending', 0]);
    expect([job.status(), job.sent.length, job.reference()]).toEqual(['processing', 1, 'REF0000000000001']);
  });

  test('live refund: the acquirer\'s notification settles it before the job records the acquirer\'s answer -> refunded, the reference kept, nothing sent again', async () => {
    // Prepare: Adyen notifies before its answer reaches the job (it may: the notification is sent as the refund is taken)
    const job = world('captured', [
      async () => {
        job.settle('refunded', 'REF0000000000001');
        return { acquirerReference: 'REF0000000000001' };
      },
    ]);
    // Act
    await job.run();
    await job.run();
    // Assess
    expect([job.status(), job.reference(), job.sent.length]).toEqual(['refunded', 'REF0000000000001', 1]);
  });

  test('live refund: the payment\'s capture failed -> failed without a call to the acquirer', async () => {
    const job = world('failed', []);
    await job.run();
    expect([job.status(), job.sent.length]).toEqual(['failed', 0]);
  });
});
