import type { CheckoutRepository } from '../../../shared/db/checkout-repository';
import type { PaymentLinkRepository } from '../../../shared/db/payment-link-repository';
import type { PaymentRepository } from '../../../shared/db/payment-repository';
import type { BalanceRef } from '../../../shared/domain/balance';
import { PAYMENT_LINK_EVENT, StaleLinkError, paidPaymentLink, type PaymentLink, type VersionedLink } from '../../../shared/domain/payment-links';
import {
  PAYMENT_EVENT,
  PAYMENT_STATUSES,
  PaymentListItemSchema,
  PaymentNotOpenError,
  PaymentSchema,
  linkPaymentPage,
  paymentListItem,
  paymentPage,
  paymentEvent,
  paymentResource,
  type CustomerDetails,
  type Payment,
  type PaymentStatus,
} from '../../../shared/domain/payments';
import { BusinessRuleError, ConflictError } from '../../../shared/errors';
import type { OutboxEvent } from '../../../shared/events';
import { endCustomerCheckout, type CheckoutDeps } from '../../../shared/use-cases/checkout';
import { aLink, aPayment, CREATED_AT, urls, typesOf } from './fixtures';

/**
 * Payments (contract "Payment shape inside the link's payment sub-list"; product-decisions §4,
 * §5): the two output shapes, and the status moves of the checkout's end, run against an
 * in-memory checkout store whose paid write holds the same condition as the table's.
 */

const NOW = new Date('2026-11-20T12:00:00.000Z');

describe('Function: paymentListItem', () => {
  test.each<[string, Partial<Payment>, Record<string, unknown>]>([
    ['list item: an open payment has paid_at null', { status: 'open', paidAt: undefined }, { status: 'open', paid_at: null }],
    ['list item: a failed payment has paid_at null', { status: 'failed', paidAt: undefined }, { status: 'failed', paid_at: null }],
    ['list item: a paid payment shows paid_at', { status: 'paid' }, { status: 'paid', paid_at: '2026-11-20T10:01:00.000Z' }],
    ['list item: amount.value a string with two fraction digits', { amountMinor: 1050 }, { amount: { value: '10.50', currency: 'EUR' } }],
    ['list item: a whole amount keeps its .00', { amountMinor: 4900 }, { amount: { value: '49.00', currency: 'EUR' } }],
  ])('%s', (_rule, stored, expected) => {
    // Act
    const item = paymentListItem(aPayment(stored));
    // Assess
    expect(item).toMatchObject(expected);
    expect(PaymentListItemSchema.safeParse(item).success).toBe(true);
  });

  test('list item: exactly the contract fields, with payment_link_id', () => {
    // Prepare
    const payment = aPayment({ clientKey: 'ck', refundedMinor: 100, customer: { email: 'a@b.example' }, webhookUrl: 'https://x.example/' });
    // Act
    const item = paymentListItem(payment);
    // Assess
    expect(item).toEqual({
      object: 'payment',
      id: payment.id,
      status: 'paid',
      amount: { value: '10.00', currency: 'EUR' },
      created_at: CREATED_AT,
      paid_at: '2026-11-20T10:01:00.000Z',
      payment_link_id: payment.paymentLinkId,
    });
  });
});

describe('Function: paymentResource', () => {
  test('payment object (decisions §5): the list item plus the refunded and charged-back amounts, acceptor_id, org_id, mode, acquirer_reference, capture, failure_reason and links.api; nothing internal', () => {
    // Prepare
    const acquirer = {
      merchantAccount: 'ShopECOM',
      session: { id: 'CS1', url: 'https://pay.example/CS1', expiresAt: CREATED_AT },
      reference: '8815850542287543',
      capture: 'captured' as const,
      captureReference: '8825850542287999',
      captureEventAt: CREATED_AT,
    };
    const payment = aPayment({ mode: 'live', clientKey: 'ck', refundedMinor: 250, chargedBackMinor: 100, unwonChargebacks: 1, webhookUrl: 'https://x.example/', acquirer });
    // Act
    const resource = paymentResource(payment, urls);
    // Assess
    expect(resource).toEqual({
      ...paymentListItem(payment),
      amount_refunded: { value: '2.50', currency: 'EUR' },
      amount_chargedback: { value: '1.00', currency: 'EUR' },
      acceptor_id: payment.acceptorId,
      org_id: payment.orgId,
      mode: 'live',
      acquirer_reference: '8815850542287543',
      capture: { status: 'captured', acquirer_reference: '8825850542287999' },
      failure_reason: null,
      links: { api: { href: `${urls.base}/v1/payments/${payment.id}`, type: 'application/json' } },
    });
    expect(PaymentSchema.safeParse(resource).success).toBe(true);
  });

  test.each<[string, Partial<Payment>, Record<string, unknown>]>([
    ['payment object: acquirer_reference null in test mode', {}, { acquirer_reference: null }],
    ['payment object: acquirer_reference null until the acquirer names it', { mode: 'live', acquirer: { merchantAccount: 'ShopECOM' } }, { acquirer_reference: null }],
    ['payment object: capture and failure_reason null in test mode', {}, { capture: null, failure_reason: null }],
    ['payment object: capture null before the capture is asked (an open live payment)', { mode: 'live', status: 'open', acquirer: { merchantAccount: 'ShopECOM' } }, { capture: null }],
    [
      'payment object: capture pending once asked, its reference null until the acquirer names it',
      { mode: 'live', acquirer: { merchantAccount: 'ShopECOM', reference: '8815850542287543', capture: 'requested' } },
      { capture: { status: 'pending', acquirer_reference: null } },
    ],
    [
      'payment object: a voided authorisation\'s capture is failed',
      { mode: 'live', acquirer: { merchantAccount: 'ShopECOM', reference: '8815850542287543', capture: 'failed', voided: true, captureEventAt: CREATED_AT } },
      { capture: { status: 'failed', acquirer_reference: null } },
    ],
    [
      'payment object: failure_reason is the acquirer\'s refusal reason of a failed live payment',
      { mode: 'live', status: 'failed', paidAt: undefined, acquirer: { merchantAccount: 'ShopECOM', reference: '8815850542287543', refusalReason: 'Not enough balance' } },
      { status: 'failed', failure_reason: 'Not enough balance', capture: null },
    ],
    ['payment object: no refund and no chargeback yet: both amounts zero', {}, { amount_refunded: { value: '0.00', currency: 'EUR' }, amount_chargedback: { value: '0.00', currency: 'EUR' } }],
    ['payment object: customer shown when captured', { customer: { email: 'a@b.example', phone: '+31 6' } }, { customer: { email: 'a@b.example', phone: '+31 6' } }],
    ['payment object: billing shown when captured', { billing: { address: 'Main St 1' } }, { billing: { address: 'Main St 1' } }],
  ])('%s', (_rule, stored, expected) => {
    // Act
    const resource = paymentResource(aPayment(stored), urls);
    // Assess
    expect(resource).toMatchObject(expected);
    expect(PaymentSchema.safeParse(resource).success).toBe(true);
  });

  test('payment object: no customer or billing member when nothing was captured', () => {
    // Act
    const resource = paymentResource(aPayment(), urls);
    // Assess
    expect(resource).not.toHaveProperty('customer');
    expect(resource).not.toHaveProperty('billing');
  });
});

describe('Function: paymentPage and linkPaymentPage', () => {
  test.each<[string, boolean]>([
    ['pages: has_more false', false],
    ['pages: has_more true', true],
  ])('%s: GET /v1/payments is {has_more, data} of payment objects; a link\'s sub-list is {object: "list", data, has_more} of list items', (_rule, hasMore) => {
    // Prepare
    const items = [aPayment({ id: 'pay_b' }), aPayment({ id: 'pay_a' })];
    // Act
    const page = paymentPage({ items, hasMore }, urls);
    const linkPage = linkPaymentPage({ items, hasMore });
    // Assess
    expect(page).toEqual({ has_more: hasMore, data: items.map((payment) => paymentResource(payment, urls)) });
    expect(linkPage).toEqual({ object: 'list', data: items.map(paymentListItem), has_more: hasMore });
  });
});

describe('Function: paymentEvent', () => {
  test('events: transactions.payment.paid carries the payment object, in its organization and mode', () => {
    // Prepare
    const payment = aPayment({ mode: 'live' });
    // Act
    const event = paymentEvent(PAYMENT_EVENT.paid, payment, urls);
    // Assess
    expect(event.orgId).toBe(payment.orgId);
    expect(event.envelope).toMatchObject({ type: PAYMENT_EVENT.paid, mode: 'live', data: paymentResource(payment, urls) });
  });
});

/**
 * The checkout's writes, in memory. The paid write holds the table's condition: the link still
 * active and unexpired, its limit as read and (when limited) its paid count as read, and the
 * payment still open; the other outcomes only need the payment open.
 */
function checkoutStore(link: PaymentLink, payments: Payment[], concurrent?: (current: VersionedLink) => VersionedLink) {
  const links = new Map<string, VersionedLink>([[link.id, { ...link, version: 1 }]]);
  const stored = new Map(payments.map((payment) => [payment.id, payment]));
  const events: OutboxEvent[] = [];
  const credited: BalanceRef[] = [];
  let interleaved = concurrent;
  const requireOpen = (payment: Payment) => {
    if (stored.get(payment.id)?.status !== 'open') throw new PaymentNotOpenError();
  };
  const checkout = {
    preparePaid: (read: VersionedLink, next: PaymentLink, paid: Payment, written: OutboxEvent[]) => ({ read, next, paid, written }),
    async recordPaid({ read, next, paid, written }: { read: VersionedLink; next: PaymentLink; paid: Payment; written: OutboxEvent[] }) {
      // Another payer's commit lands first, once.
      if (interleaved) links.set(read.id, interleaved(links.get(read.id)!));
      interleaved = undefined;
      const current = links.get(read.id)!;
      const payable =
        current.status === 'active' &&
        (current.expiresAt === null || current.expiresAt > paid.paidAt!) &&
        current.paymentsLimit === read.paymentsLimit &&
        (read.paymentsLimit === null || current.paidCount === read.paidCount);
      if (!payable) throw new StaleLinkError(current);
      requireOpen(paid);
      links.set(read.id, { ...next, version: current.version + 1 });
      stored.set(paid.id, paid);
      events.push(...written);
      // The paid transition carries the payment's credit, pending in the ledger.
      credited.push({ orgId: paid.orgId, mode: paid.mode, currency: paid.currency });
    },
    async updateOpenPayment(next: Payment, written: OutboxEvent[]) {
      requireOpen(next);
      stored.set(next.id, next);
      events.push(...written);
    },
  };
  const deps = {
    links: { get: async (id: string) => links.get(id) } as unknown as PaymentLinkRepository,
    payments: { get: async (id: string) => stored.get(id) } as unknown as PaymentRepository,
    checkout: checkout as unknown as CheckoutRepository,
    customerEmails: { digest: async (email: string) => `digest(${email})` },
    urls,
    now: () => NOW,
  } as CheckoutDeps;
  return { deps, events, credited, link: () => links.get(link.id)!, payment: (id: string) => stored.get(id)! };
}

/** The customer's outcome on an open payment, as the checkout's submit ends it: with the link and the payment as it read them. */
const complete = (store: ReturnType<typeof checkoutStore>, paymentId: string, outcome: PaymentStatus, details: CustomerDetails = {}) =>
  endCustomerCheckout(store.deps, { link: store.link(), payment: store.payment(paymentId) }, outcome, details, Infinity);

const openPayment = (id = 'pay_open') => aPayment({ id, status: 'open', paidAt: undefined });

describe('Use case: completePayment (status moves)', () => {
  test.each([
    ['failed', []],
    ['canceled', []],
    ['expired', [PAYMENT_EVENT.expired]],
  ] as const)('move: open -> %s; the link is not counted, nothing is credited, announced: %j', async (outcome, announced) => {
    // Prepare
    const store = checkoutStore(aLink({ paymentsLimit: 2 }), [openPayment()]);
    // Act
    const result = await complete(store, 'pay_open', outcome);
    // Assess
    expect(result).toMatchObject({ status: outcome });
    expect(result.paidAt).toBeUndefined();
    expect(store.payment('pay_open').status).toBe(outcome);
    expect(store.link()).toMatchObject({ paidCount: 0, status: 'active' });
    expect(store.events.map((event) => event.envelope.type)).toEqual(announced);
    expect(store.credited).toEqual([]);
  });

  test('move: open -> open leaves the payment as it is and writes nothing', async () => {
    // Prepare
    const store = checkoutStore(aLink(), [openPayment()]);
    // Act
    const result = await complete(store, 'pay_open', 'open');
    // Assess
    expect(result).toEqual(openPayment());
    expect(store.events).toEqual([]);
  });

  test.each(PAYMENT_STATUSES.filter((status) => status !== 'open').flatMap((from) => PAYMENT_STATUSES.map((to) => [from, to] as [PaymentStatus, PaymentStatus])))(
    'move: a payment already %s cannot become %s -> 409',
    async (from, to) => {
      // Prepare
      const store = checkoutStore(aLink(), [aPayment({ id: 'pay_done', status: from })]);
      // Act
      const error = await complete(store, 'pay_done', to).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ detail: `This payment is already ${from}` });
      expect(store.payment('pay_done').status).toBe(from);
    },
  );

  test.each<[string, Partial<PaymentLink>, Partial<PaymentLink>, string[], number | null]>([
    ['paid: on an unlimited link -> counted; transactions.payment.paid only', {}, { paidCount: 1, status: 'active' }, [PAYMENT_EVENT.paid], null],
    ['paid: on a limited link with payments left -> remaining_payments.decremented', { paymentsLimit: 3, paidCount: 1 }, { paidCount: 2, status: 'active' }, [PAYMENT_EVENT.paid, PAYMENT_LINK_EVENT.remainingDecremented], 1],
    ['paid: the last slot -> the link auto-inactivated in the same write', { paymentsLimit: 3, paidCount: 2 }, { paidCount: 3, status: 'inactive' }, [PAYMENT_EVENT.paid, PAYMENT_LINK_EVENT.remainingDecremented, PAYMENT_LINK_EVENT.autoInactivated], 0],
  ])('%s', async (_rule, stored, expected, types, remaining) => {
    // Prepare
    const store = checkoutStore(aLink(stored), [openPayment()]);
    // Act
    const paid = await complete(store, 'pay_open', 'paid');
    // Assess
    expect(paid).toMatchObject({ status: 'paid', paidAt: NOW.toISOString() });
    expect(store.link()).toMatchObject({ ...expected, lastPaidAt: NOW.toISOString() });
    expect(typesOf(store.events)).toEqual(types);
    expect(store.events[0].envelope.data).toEqual(paymentResource(paid, urls));
    for (const event of store.events.slice(1)) expect(event.envelope.data).toMatchObject({ payment_id: 'pay_open', remaining_payments: remaining });
    expect(store.credited).toEqual([{ orgId: paid.orgId, mode: paid.mode, currency: 'EUR' }]);
  });

  test('paid: auto_inactivated names the limit, the paid count that reached it and reason limit_reached', async () => {
    // Prepare
    const store = checkoutStore(aLink({ paymentsLimit: 2, paidCount: 1 }), [openPayment()]);
    // Act
    await complete(store, 'pay_open', 'paid');
    // Assess
    const inactivated = store.events.find((event) => event.envelope.type === PAYMENT_LINK_EVENT.autoInactivated)!;
    expect(inactivated.envelope.data).toMatchObject({ status: 'inactive', payments_limit: 2, remaining_payments: 0, paid_count_at_inactivation: 2, reason: 'limit_reached', payment_id: 'pay_open' });
  });

  test.each<[string, Partial<PaymentLink>]>([
    ['paid on a link no longer payable: inactive -> the payment ends canceled, never counted', { status: 'inactive' }],
    ['paid on a link no longer payable: expired -> canceled', { status: 'expired', expiredAt: CREATED_AT }],
    ['paid on a link no longer payable: expires_at elapsed -> canceled', { expiresAt: '2026-11-20T11:00:00.000Z' }],
    ['paid on a link no longer payable: limit reached -> canceled', { paymentsLimit: 2, paidCount: 2 }],
  ])('%s', async (_rule, stored) => {
    // Prepare
    const store = checkoutStore(aLink(stored), [openPayment()]);
    // Act
    const result = await complete(store, 'pay_open', 'paid');
    // Assess
    expect(result.status).toBe('canceled');
    expect(store.payment('pay_open').status).toBe('canceled');
    expect(store.link().paidCount).toBe(aLink(stored).paidCount);
    expect(store.events).toEqual([]);
    expect(store.credited).toEqual([]);
  });

  test('paid: never oversold: two payers for the last slot at once -> one paid, the other canceled', async () => {
    // Prepare
    const store = checkoutStore(aLink({ paymentsLimit: 1 }), [openPayment('pay_1'), openPayment('pay_2')]);
    // Act
    const results = await Promise.all([complete(store, 'pay_1', 'paid'), complete(store, 'pay_2', 'paid')]);
    // Assess
    expect(results.map((payment) => payment.status).sort()).toEqual(['canceled', 'paid']);
    expect(store.link()).toMatchObject({ paidCount: 1, status: 'inactive' });
    expect(typesOf(store.events).filter((type) => type === PAYMENT_EVENT.paid)).toHaveLength(1);
  });

  test('paid: a payment counted meanwhile is seen: the write is computed again, its events carry the exact remaining_payments', async () => {
    // Prepare
    const store = checkoutStore(aLink({ paymentsLimit: 3, paidCount: 1 }), [openPayment()], (current) => ({
      ...paidPaymentLink(current, CREATED_AT),
      version: current.version + 1,
    }));
    // Act
    const paid = await complete(store, 'pay_open', 'paid');
    // Assess
    expect(paid.status).toBe('paid');
    expect(store.link()).toMatchObject({ paidCount: 3, status: 'inactive', firstPaidAt: CREATED_AT });
    expect(typesOf(store.events)).toEqual([PAYMENT_EVENT.paid, PAYMENT_LINK_EVENT.remainingDecremented, PAYMENT_LINK_EVENT.autoInactivated]);
    expect(store.events[1].envelope.data).toMatchObject({ remaining_payments: 0, paid_count: 3 });
  });

  test('paid: a link that collects the email without one -> 422 email, nothing written', async () => {
    // Prepare
    const store = checkoutStore(aLink({ collectEmail: true }), [openPayment()]);
    // Act
    const error = await complete(store, 'pay_open', 'paid').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(error).toMatchObject({ attribute: 'email' });
    expect(store.payment('pay_open').status).toBe('open');
    expect(store.link().paidCount).toBe(0);
  });

  test('paid: the collected details are captured as customer.email, customer.phone and billing.address, the email with its index digest', async () => {
    // Prepare
    const store = checkoutStore(aLink({ collectEmail: true, collectPhone: true, collectAddress: true }), [openPayment()]);
    // Act
    const paid = await complete(store, 'pay_open', 'paid', { email: 'a@b.example', phone: '+31 6', address: 'Main St 1' });
    // Assess
    expect(paymentResource(paid, urls)).toMatchObject({ customer: { email: 'a@b.example', phone: '+31 6' }, billing: { address: 'Main St 1' } });
    expect(paid.customerEmailDigest).toBe('digest(a@b.example)');
    expect(JSON.stringify(paymentResource(paid, urls))).not.toContain('digest(');
    expect(store.payment('pay_open')).toEqual(paid);
  });
});
