import { BusinessRuleError } from '../../../shared/errors';
import {
  REFUND_MOVES,
  REFUND_STATUSES,
  newRefund,
  overcapCeilingMinor,
  planRefundAmount,
  transitionRefund,
  isDueForProcessing,
  type Refund,
  type RefundStatus,
} from '../../../shared/domain/refunds';

const payment = (amountMinor: number, refundedMinor = 0) => ({ status: 'paid', amountMinor, currency: 'EUR', refundedMinor });

function ruleError(run: () => unknown): BusinessRuleError {
  try {
    run();
  } catch (error) {
    if (error instanceof BusinessRuleError) return error;
    throw error;
  }
  throw new Error('expected a BusinessRuleError');
}

describe('overcap ceiling: min(amount x (1 + overcap_pct), amount + 15.00), rounded down to the cent', () => {
  test.each([
    [1000, '0.20', 1200],
    [1000, '0', 1000],
    [10000, '0.50', 11500],
    [7500, '0.20', 9000],
    [7501, '0.20', 9001], // 90.012 -> 90.01
    [7504, '0.20', 9004], // 90.048 -> 90.04, never rounded up
    [333, '0.333333', 443], // 3.33 x 1.333333 = 4.43999889 -> 4.43
    [100, '9999.999999', 1600],
  ])('payment %i with %s -> %i', (amountMinor, pct, expected) => {
    expect(overcapCeilingMinor(amountMinor, pct)).toBe(expected);
  });
});

describe('planRefundAmount', () => {
  test('omitted amount -> the rest; with nothing left -> 422 amount.value', () => {
    expect(planRefundAmount(payment(1000, 300), {})).toEqual({ amountMinor: 700, limitMinor: 1000 });
    expect(ruleError(() => planRefundAmount(payment(1000, 1000), {})).attribute).toBe('amount.value');
    expect(ruleError(() => planRefundAmount(payment(1000, 1100), { allowOvercaptured: true })).attribute).toBe('amount.value');
  });

  test('the rest is the limit without allow_overcaptured; the ceiling with it', () => {
    expect(planRefundAmount(payment(1000, 300), { amountMinor: 700 })).toEqual({ amountMinor: 700, limitMinor: 1000 });
    expect(ruleError(() => planRefundAmount(payment(1000, 300), { amountMinor: 701 })).attribute).toBe('amount.value');
    expect(planRefundAmount(payment(1000, 300), { amountMinor: 900, allowOvercaptured: true })).toEqual({ amountMinor: 900, limitMinor: 1200 });
    expect(ruleError(() => planRefundAmount(payment(1000, 300), { amountMinor: 901, allowOvercaptured: true })).attribute).toBe('amount.value');
  });

  test('a payment that is not paid -> payment_id; not EUR -> amount.currency', () => {
    expect(ruleError(() => planRefundAmount({ ...payment(1000), status: 'open' }, {})).attribute).toBe('payment_id');
    expect(ruleError(() => planRefundAmount({ ...payment(1000), currency: 'USD' }, {})).attribute).toBe('amount.currency');
    expect(ruleError(() => planRefundAmount(payment(1000), { amountMinor: 100, currency: 'gbp' })).attribute).toBe('amount.currency');
  });
});

describe('transitionRefund: the lifecycle table', () => {
  const refund = (status: RefundStatus, onHold = false): Refund => ({
    ...newRefund({
      id: 'rf_x',
      orgId: 'org_x',
      mode: 'test',
      acceptorId: 'acceptor_x',
      paymentId: 'pay_x',
      paymentLinkId: 'pl_x',
      amountMinor: 500,
      currency: 'EUR',
      description: '',
      metadata: {},
      createdAt: '2026-11-21T00:00:00.000Z',
    }),
    status,
    onHold,
  });

  test('exactly pending->processing, pending->canceled, processing->refunded, processing->failed are allowed, and covering a held pending refund', () => {
    const allowed: string[] = [];
    for (const from of REFUND_STATUSES) {
      for (const onHold of from === 'pending' ? [false, true] : [false]) {
        for (const to of REFUND_STATUSES) {
          try {
            transitionRefund(refund(from, onHold), to, '2026-11-21T00:00:01.000Z');
            allowed.push(`${from}${onHold ? '(held)' : ''}->${to}`);
          } catch (error) {
            expect(error).toBeInstanceOf(BusinessRuleError);
            expect((error as BusinessRuleError).attribute).toBe('status');
          }
        }
      }
    }
    expect(allowed.sort()).toEqual([
      'pending(held)->canceled',
      'pending(held)->pending',
      'pending(held)->processing',
      'pending->canceled',
      'pending->processing',
      'processing->failed',
      'processing->refunded',
    ]);
    expect(Object.values(REFUND_MOVES).flat()).toHaveLength(5);
  });

  test('effects: covering reserves, a covered refund keeps its reservation until failed or canceled give it back', () => {
    expect(transitionRefund(refund('pending', true), 'pending', 't')).toMatchObject({ balanceDeltaMinor: -500, heldDelta: -1, refundedDeltaMinor: 0 });
    expect(transitionRefund(refund('pending', true), 'pending', 't').refund).toMatchObject({ status: 'pending', onHold: false, updatedAt: 't' });
    expect(transitionRefund(refund('pending'), 'processing', 't')).toMatchObject({ balanceDeltaMinor: 0, heldDelta: 0, refundedDeltaMinor: 0 });
    expect(transitionRefund(refund('pending', true), 'processing', 't')).toMatchObject({ balanceDeltaMinor: -500, heldDelta: -1, refundedDeltaMinor: 0 });
    expect(transitionRefund(refund('processing'), 'failed', 't')).toMatchObject({ balanceDeltaMinor: 500, heldDelta: 0, refundedDeltaMinor: -500 });
    expect(transitionRefund(refund('pending'), 'canceled', 't')).toMatchObject({ balanceDeltaMinor: 500, heldDelta: 0, refundedDeltaMinor: -500 });
    expect(transitionRefund(refund('pending', true), 'canceled', 't')).toMatchObject({ balanceDeltaMinor: 0, heldDelta: -1, refundedDeltaMinor: -500 });
    expect(transitionRefund(refund('processing'), 'refunded', 't')).toMatchObject({ balanceDeltaMinor: 0, heldDelta: 0, refundedDeltaMinor: 0 });
    expect(transitionRefund(refund('pending', true), 'processing', 't').refund).toMatchObject({ status: 'processing', onHold: false, updatedAt: 't' });
  });

  test('the job processes a covered pending refund once it is older than the cancel window', () => {
    const created = Date.parse('2026-11-21T00:00:00.000Z');
    expect(isDueForProcessing(refund('pending'), new Date(created + 299_999), 300)).toBe(false);
    expect(isDueForProcessing(refund('pending'), new Date(created + 300_000), 300)).toBe(true);
    expect(isDueForProcessing(refund('pending', true), new Date(created + 900_000), 300)).toBe(false);
    expect(isDueForProcessing(refund('processing'), new Date(created + 900_000), 300)).toBe(false);
  });
});
