import type { AcquirerNotification } from '../../../shared/domain/acquirer';
import { captureChange, disputeAmount, isOlderNews, refundChange, type LivePayment } from '../../../shared/domain/acquirer-news';
import type { PaymentAtAcquirer } from '../../../shared/domain/payments';
import { newRefund, type Refund } from '../../../shared/domain/refunds';
import { aPayment } from './fixtures';

/**
 * What a notification of the acquirer may move (product-decisions §12, revised 2026-11-28): only
 * what it names (merchant account, references, exact amount), and for one capture, refund or
 * dispute never older news than the news that last moved it.
 */
const T0 = '2026-11-28T10:00:00.000Z';
const T1 = '2026-11-28T10:00:10.000Z';
const T2 = '2026-11-28T10:00:20.000Z';
const ACCOUNT = 'ShopECOM';
const AUTHORISATION = 'AUTH000000000001';
const CAPTURE = 'CAPT000000000001';

const paid = (acquirer: Partial<PaymentAtAcquirer> = {}): LivePayment =>
  aPayment({ mode: 'live', amountMinor: 2500, acquirer: { merchantAccount: ACCOUNT, reference: AUTHORISATION, capture: 'requested', ...acquirer } }) as LivePayment;

type Of<K extends AcquirerNotification['kind']> = Extract<AcquirerNotification, { kind: K }>;

const capture = (kind: 'payment.captured' | 'payment.capture_failed', changes: Partial<Of<'payment.captured'>> = {}) =>
  ({
    kind,
    id: 'n',
    occurredAt: T1,
    merchantAccount: ACCOUNT,
    amount: { minor: 2500, currency: 'EUR' },
    paymentId: 'pay_x',
    acquirerReference: AUTHORISATION,
    modificationReference: CAPTURE,
    ...(kind === 'payment.capture_failed' ? { reason: 'Capture Failed' } : {}),
    ...changes,
  }) as Of<'payment.captured' | 'payment.capture_failed'>;

describe('Domain: isOlderNews', () => {
  test.each<[string, string, number, { at?: string; rank: number }, boolean]>([
    ['nothing moved the subject yet: any news applies', T0, 1, { rank: 0 }, false],
    ['an earlier instant is older', T0, 2, { at: T1, rank: 1 }, true],
    ['a later instant is newer, whatever the state', T2, 1, { at: T1, rank: 2 }, false],
    ['the same instant (Adyen counts seconds): a state that comes before the last one is older', T1, 1, { at: T1, rank: 2 }, true],
    ['the same instant: a state that comes after the last one is newer', T1, 2, { at: T1, rank: 1 }, false],
  ])('%s', (_rule, at, rank, last, older) => {
    expect(isOlderNews(at, rank, last)).toBe(older);
  });
});

describe('Domain: captureChange', () => {
  test.each<[string, Partial<PaymentAtAcquirer>, ReturnType<typeof capture>, unknown]>([
    ['CAPTURE of a pending capture: captured, its reference and instant kept', {}, capture('payment.captured'), { capture: 'captured', captureReference: CAPTURE, captureEventAt: T1 }],
    ['CAPTURE_FAILED after its CAPTURE: failed', { capture: 'captured', captureReference: CAPTURE, captureEventAt: T1 }, capture('payment.capture_failed', { occurredAt: T2 }), { capture: 'failed', captureReference: CAPTURE, captureEventAt: T2 }],
    ['CAPTURE older than the CAPTURE_FAILED that moved it last: older news', { capture: 'failed', captureReference: CAPTURE, captureEventAt: T2 }, capture('payment.captured'), { noChange: 'older' }],
    ['CAPTURE of the same second as its CAPTURE_FAILED: older news (a failure follows its capture)', { capture: 'failed', captureReference: CAPTURE, captureEventAt: T1 }, capture('payment.captured'), { noChange: 'older' }],
    ['a second CAPTURE_FAILED of a failed capture: duplicate', { capture: 'failed', captureReference: CAPTURE, captureEventAt: T1 }, capture('payment.capture_failed', { occurredAt: T2 }), { noChange: 'duplicate' }],
    [
      'a capture of another reference after a failure (retried in the back office): captured, that capture kept',
      { capture: 'failed', captureReference: CAPTURE, captureEventAt: T1 },
      capture('payment.captured', { modificationReference: 'CAPT000000000002' }),
      { capture: 'captured', captureReference: 'CAPT000000000002', captureEventAt: T1 },
    ],
    ['a capture of another reference while one is pending or captured: unmatched reference', { captureReference: CAPTURE }, capture('payment.captured', { modificationReference: 'CAPT000000000002' }), { unmatched: 'reference' }],
    ['another authorisation: unmatched reference', {}, capture('payment.captured', { acquirerReference: 'AUTH000000000002' }), { unmatched: 'reference' }],
    ['a CAPTURE of 1.00 on a 25.00 payment: unmatched amount', {}, capture('payment.captured', { amount: { minor: 100, currency: 'EUR' } }), { unmatched: 'amount' }],
    ['an amount the service cannot hold: unmatched amount', {}, capture('payment.captured', { amount: null }), { unmatched: 'amount' }],
    ['another currency: unmatched amount', {}, capture('payment.captured', { amount: { minor: 2500, currency: 'GBP' } }), { unmatched: 'amount' }],
    ['a voided authorisation: unmatched state', { capture: 'failed', voided: true, captureEventAt: T0 }, capture('payment.captured'), { unmatched: 'state' }],
    ['no capture was asked (not paid): unmatched state', { capture: undefined }, capture('payment.captured'), { unmatched: 'state' }],
  ])('%s', (_rule, acquirer, notification, expected) => {
    expect(captureChange(paid(acquirer), notification)).toMatchObject(expected as object);
  });
});

describe('Domain: refundChange', () => {
  const REFUND = 'REFD000000000001';
  const refund = (changes: Partial<Refund> = {}): Refund => ({
    ...newRefund({ id: 'rf_x', orgId: 'org_x', mode: 'live', acceptorId: 'acceptor_x', paymentId: 'pay_x', paymentLinkId: 'pl_x', amountMinor: 400, currency: 'EUR', description: '', metadata: {}, createdAt: T0 }),
    status: 'processing',
    onHold: false,
    acquirerReference: REFUND,
    ...changes,
  });
  const news = (kind: 'refund.refunded' | 'refund.failed', changes: Partial<Of<'refund.refunded'>> = {}) =>
    ({ kind, id: 'n', occurredAt: T1, merchantAccount: ACCOUNT, amount: { minor: 400, currency: 'EUR' }, refundId: 'rf_x', acquirerReference: REFUND, paymentAcquirerReference: AUTHORISATION, reason: '', ...changes }) as Of<'refund.refunded' | 'refund.failed'>;

  test.each<[string, Partial<Refund>, ReturnType<typeof news>, unknown]>([
    ['REFUND of a processing refund: refunded', {}, news('refund.refunded'), { to: 'refunded' }],
    ['REFUND before the refund\'s own answer was recorded (no reference yet): refunded', { acquirerReference: undefined }, news('refund.refunded'), { to: 'refunded' }],
    ['REFUND_FAILED after its REFUND: failed', { status: 'refunded', acquirerEventAt: T1 }, news('refund.failed', { occurredAt: T2 }), { to: 'failed' }],
    ['REFUND_FAILED older than the REFUND that moved it last: older news', { status: 'refunded', acquirerEventAt: T2 }, news('refund.failed'), { noChange: 'older' }],
    ['REFUND after the failure: older news (a failure is final)', { status: 'failed', acquirerEventAt: T0 }, news('refund.refunded', { occurredAt: T2 }), { noChange: 'older' }],
    ['another merchant account: unmatched account', {}, news('refund.failed', { merchantAccount: 'Other' }), { unmatched: 'account' }],
    ['another payment\'s authorisation: unmatched reference', {}, news('refund.refunded', { paymentAcquirerReference: 'AUTH000000000002' }), { unmatched: 'reference' }],
    ['another refund at the acquirer: unmatched reference', {}, news('refund.refunded', { acquirerReference: 'REFD000000000002' }), { unmatched: 'reference' }],
    ['0.01 for a 4.00 refund: unmatched amount', {}, news('refund.refunded', { amount: { minor: 1, currency: 'EUR' } }), { unmatched: 'amount' }],
    ['a refund never sent (pending): unmatched state', { status: 'pending', acquirerReference: undefined }, news('refund.refunded'), { unmatched: 'state' }],
  ])('%s', (_rule, stored, notification, expected) => {
    expect(refundChange(refund(stored), paid({ capture: 'captured' }), notification)).toMatchObject(expected as object);
  });
});

describe('Domain: disputeAmount', () => {
  const dispute = (changes: Partial<Of<'dispute.opened'>> = {}) =>
    ({
      kind: 'dispute.opened',
      id: 'n',
      occurredAt: T1,
      merchantAccount: ACCOUNT,
      amount: { minor: 1500, currency: 'EUR' },
      disputeReference: 'DISP000000000001',
      paymentId: 'pay_x',
      paymentAcquirerReference: AUTHORISATION,
      caseId: AUTHORISATION,
      reason: { code: '10.4', description: 'Fraud' },
      deadlineAt: null,
      ...changes,
    }) as Of<'dispute.opened'>;

  test.each<[string, ReturnType<typeof dispute>, boolean, unknown]>([
    ['a dispute of the payment\'s authorisation: its amount', dispute(), true, { minor: 1500, currency: 'EUR' }],
    ['0.00: unmatched amount', dispute({ amount: { minor: 0, currency: 'EUR' } }), true, { unmatched: 'amount' }],
    ['-5.00: unmatched amount', dispute({ amount: { minor: -500, currency: 'EUR' } }), true, { unmatched: 'amount' }],
    ['another payment\'s authorisation: unmatched reference', dispute({ paymentAcquirerReference: 'AUTH000000000002' }), false, { unmatched: 'reference' }],
    ['an opening that names no payment authorisation: unmatched reference', dispute({ paymentAcquirerReference: null }), true, { unmatched: 'reference' }],
    ['a ruling that names none: its amount (the chargeback binds it)', dispute({ paymentAcquirerReference: null }), false, { minor: 1500, currency: 'EUR' }],
  ])('%s', (_rule, notification, requireReference, expected) => {
    expect(disputeAmount(paid({ capture: 'captured' }), notification, requireReference)).toMatchObject(expected as object);
  });
});
