import type { Principal } from '../../../shared/auth/principal';
import type { PaymentLinkRepository } from '../../../shared/db/payment-link-repository';
import {
  EXPIRED_STATUS_DETAIL,
  LIMIT_BELOW_PAID_DETAIL,
  MissingCustomerDetailsError,
  PAYMENT_LINK_EVENT,
  PAYMENT_LINK_EVENTS,
  PaymentLinkSchema,
  StaleLinkError,
  checkoutDenial,
  createPaymentLinkBody,
  expiredPaymentLink,
  isDueToExpire,
  linkEvent,
  newPaymentLink,
  paidPaymentLink,
  paymentLinkResource,
  remainingPayments,
  requireCollectedDetails,
  updatePaymentLinkBody,
  updatedPaymentLink,
  type CreatePaymentLinkBody,
  type DenialReason,
  type PaymentLink,
  type UpdatePaymentLinkBody,
  type VersionedLink,
} from '../../../shared/domain/payment-links';
import type { CheckoutRepository } from '../../../shared/db/checkout-repository';
import type { PaymentRepository } from '../../../shared/db/payment-repository';
import type { Payment, PaymentStatus } from '../../../shared/domain/payments';
import { BusinessRuleError, InvalidRequestError, NotFoundError } from '../../../shared/errors';
import { parseWith } from '../../../shared/http/validation';
import type { OutboxEvent } from '../../../shared/events';
import { CheckoutDeniedError, expireDueLinks, openCheckout, type CheckoutDeps } from '../../../shared/use-cases/checkout';
import { updatePaymentLink } from '../../../shared/use-cases/payment-links';
import { aLink, CREATED_AT, ruleError, thrownBy, urls, typesOf } from './fixtures';

/**
 * The payment link's rules (contract "Payment link", its state table and update endpoint;
 * product-decisions §4), each a pure function of the link and the request.
 */

const NOW = new Date('2026-11-20T12:00:00.000Z');
const EARLIER = '2026-11-20T11:59:59.999Z';
const LATER = '2026-11-20T12:00:00.001Z';

describe('Function: updatedPaymentLink', () => {
  test.each<[string, Partial<PaymentLink>, UpdatePaymentLinkBody, string | undefined, string]>([
    ['update: empty body -> 422', {}, {}, undefined, 'The update body must contain at least one updatable field'],
    ['update: status active of an expired link -> 422 status', { status: 'expired' }, { status: 'active' }, 'status', EXPIRED_STATUS_DETAIL],
    ['update: status inactive of an expired link -> 422 status', { status: 'expired' }, { status: 'inactive' }, 'status', EXPIRED_STATUS_DETAIL],
    ['update: payments_limit below paid_count -> 422 payments_limit', { paidCount: 3 }, { payments_limit: 2 }, 'payments_limit', LIMIT_BELOW_PAID_DETAIL],
    ['update: payments_limit below paid_count of an inactive link -> 422', { status: 'inactive', paymentsLimit: 3, paidCount: 3 }, { payments_limit: 1 }, 'payments_limit', LIMIT_BELOW_PAID_DETAIL],
    ['update: the limit rule holds beside a valid status change', { paidCount: 5 }, { status: 'inactive', payments_limit: 4 }, 'payments_limit', LIMIT_BELOW_PAID_DETAIL],
  ])('%s', (_rule, stored, body, attribute, detail) => {
    // Prepare
    const link = aLink(stored);
    // Act
    const error = ruleError(() => updatedPaymentLink(link, body));
    // Assess
    expect(error.attribute).toBe(attribute);
    expect(error.detail).toBe(detail);
  });

  test.each<[string, Partial<PaymentLink>, UpdatePaymentLinkBody, Partial<PaymentLink>]>([
    ['update: payments_limit equal to paid_count is allowed; the status does not change by itself', { paidCount: 3 }, { payments_limit: 3 }, { paymentsLimit: 3, status: 'active' }],
    ['update: payments_limit above paid_count raises the cap', { paymentsLimit: 3, paidCount: 3, status: 'inactive' }, { payments_limit: 5 }, { paymentsLimit: 5, status: 'inactive' }],
    ['update: payments_limit null removes the cap, always allowed', { paymentsLimit: 3, paidCount: 3 }, { payments_limit: null }, { paymentsLimit: null }],
    ['update: status inactive -> inactive', {}, { status: 'inactive' }, { status: 'inactive' }],
    ['update: status active of an inactive link -> active', { status: 'inactive' }, { status: 'active' }, { status: 'active' }],
    ['update: reactivating a link at its limit leaves the limit to gate payments', { status: 'inactive', paymentsLimit: 2, paidCount: 2 }, { status: 'active' }, { status: 'active', paymentsLimit: 2, paidCount: 2 }],
    ['update: description string replaces the text', {}, { description: 'New text' }, { description: 'New text' }],
    ['update: description empty string blanks it', {}, { description: '' }, { description: '' }],
    ['update: description null keeps the existing text', {}, { description: null }, { description: 'Concert ticket' }],
    ['update: internal_reference string replaces it', {}, { internal_reference: 'ORDER-2' }, { internalReference: 'ORDER-2' }],
    ['update: internal_reference null clears it, and only it (redirect_url untouched)', {}, { internal_reference: null }, { internalReference: null, redirectUrl: 'https://shop.example/thanks' }],
    ['update: omitted fields are kept', {}, { description: 'x' }, { internalReference: 'ORDER-1', paymentsLimit: null, expiresAt: null, status: 'active' }],
    ['update: expires_at replaces the expiry, stored with milliseconds and Z', {}, { expires_at: '2026-12-01T12:00:00+01:00' }, { expiresAt: '2026-12-01T11:00:00.000Z' }],
    ['update: expires_at null clears the expiry', { expiresAt: '2026-12-01T11:00:00.000Z' }, { expires_at: null }, { expiresAt: null }],
    ['update: expires_at of an inactive link is stored (and stays masked)', { status: 'inactive' }, { expires_at: '2026-12-01T11:00:00.000Z' }, { status: 'inactive', expiresAt: '2026-12-01T11:00:00.000Z' }],
    ['update: expires_at cannot revive an expired link', { status: 'expired', expiredAt: CREATED_AT }, { expires_at: '2030-01-01T00:00:00.000Z' }, { status: 'expired', expiresAt: null, expiredAt: CREATED_AT }],
    ['update: an expired link still takes a new description', { status: 'expired' }, { description: 'Sold out' }, { status: 'expired', description: 'Sold out' }],
    ['update: an expired link still takes a new payments_limit', { status: 'expired', paidCount: 1 }, { payments_limit: 1 }, { status: 'expired', paymentsLimit: 1 }],
  ])('%s', (_rule, stored, body, expected) => {
    // Prepare
    const link = aLink(stored);
    const before = structuredClone(link);
    // Act
    const next = updatedPaymentLink(link, body);
    // Assess
    expect(next).toMatchObject(expected);
    expect(link).toEqual(before);
  });

  test('update: the counters and the immutable fields never change', () => {
    // Prepare
    const link = aLink({ paymentsLimit: 5, paidCount: 2, firstPaidAt: CREATED_AT, lastPaidAt: CREATED_AT, collectEmail: true });
    // Act
    const next = updatedPaymentLink(link, { status: 'inactive', description: 'x', payments_limit: 4, expires_at: null, internal_reference: null });
    // Assess
    const { status: _s, description: _d, paymentsLimit: _p, expiresAt: _e, internalReference: _i, ...unchanged } = link;
    expect(next).toMatchObject(unchanged);
  });
});

describe('Function: remainingPayments', () => {
  test.each<[string, number | null, number, number | null]>([
    ['null while payments_limit is null', null, 7, null],
    ['payments_limit - paid_count', 5, 2, 3],
    ['0 at the limit', 3, 3, 0],
    ['never below 0', 2, 3, 0],
  ])('remaining_payments: %s', (_rule, paymentsLimit, paidCount, expected) => {
    // Act
    const remaining = remainingPayments({ paymentsLimit, paidCount });
    // Assess
    expect(remaining).toBe(expected);
  });
});

describe('Function: paymentLinkResource', () => {
  test.each<[string, Partial<PaymentLink>, string | null]>([
    ['expires_at: shown while active', { status: 'active', expiresAt: '2026-12-01T00:00:00.000Z' }, '2026-12-01T00:00:00.000Z'],
    ['expires_at: masked (null) while inactive', { status: 'inactive', expiresAt: '2026-12-01T00:00:00.000Z' }, null],
    ['expires_at: null once expired', { status: 'expired', expiresAt: null, expiredAt: CREATED_AT }, null],
    ['expires_at: null when the link has no expiry', { status: 'active', expiresAt: null }, null],
  ])('%s', (_rule, stored, expected) => {
    // Act
    const resource = paymentLinkResource(aLink(stored), urls);
    // Assess
    expect(resource.expires_at).toBe(expected);
  });

  test('expires_at: kept while inactive, it reappears when the link is reactivated', () => {
    // Prepare
    const inactive = updatedPaymentLink(aLink({ expiresAt: '2026-12-01T00:00:00.000Z' }), { status: 'inactive' });
    // Act
    const reactivated = updatedPaymentLink(inactive, { status: 'active' });
    // Assess
    expect(paymentLinkResource(inactive, urls).expires_at).toBeNull();
    expect(paymentLinkResource(reactivated, urls).expires_at).toBe('2026-12-01T00:00:00.000Z');
  });

  test('expired_at is shown whatever the status', () => {
    // Act
    const resource = paymentLinkResource(aLink({ status: 'inactive', expiredAt: CREATED_AT }), urls);
    // Assess
    expect(resource.expired_at).toBe(CREATED_AT);
  });

  test.each<[string, number, string, number | string]>([
    ['amount: a JSON number in major units', 1999, 'EUR', 19.99],
    ['amount: whole units without fraction', 1000, 'EUR', 10],
    ['amount: one cent', 1, 'EUR', 0.01],
    ['amount: the currency in upper case', 500, 'USD', 'USD'],
  ])('%s', (_rule, amountMinor, currency, expected) => {
    // Act
    const { amount } = paymentLinkResource(aLink({ amountMinor, currency }), urls);
    // Assess
    expect(typeof expected === 'number' ? amount.value : amount.currency).toBe(expected);
  });

  test('the object: exactly the contract fields, links.checkout only (text/html), no write-only or internal field', () => {
    // Prepare
    const link = aLink({ paymentsLimit: 5, paidCount: 2, firstPaidAt: CREATED_AT, lastPaidAt: CREATED_AT, collectEmail: true });
    // Act
    const resource = paymentLinkResource(link, urls);
    // Assess
    expect(resource).toEqual({
      id: link.id,
      object: 'payment_link',
      status: 'active',
      amount: { value: 10, currency: 'EUR' },
      description: 'Concert ticket',
      internal_reference: 'ORDER-1',
      redirect_url: 'https://shop.example/thanks',
      payments_limit: 5,
      remaining_payments: 3,
      paid_count: 2,
      first_paid_at: CREATED_AT,
      last_paid_at: CREATED_AT,
      expires_at: null,
      expired_at: null,
      created_at: CREATED_AT,
      acceptor_id: link.acceptorId,
      org_id: link.orgId,
      links: { checkout: { href: `${urls.checkout}/${link.id}`, type: 'text/html' } },
    });
    expect(PaymentLinkSchema.safeParse(resource).success).toBe(true);
  });
});

describe('Function: checkoutDenial', () => {
  test.each<[string, Partial<PaymentLink>, DenialReason | undefined]>([
    ['open: an active unlimited link -> no denial', {}, undefined],
    ['open: an active link with payments left -> no denial', { paymentsLimit: 3, paidCount: 2 }, undefined],
    ['open: an expiry still ahead -> no denial', { expiresAt: LATER }, undefined],
    ['denied: active with remaining_payments 0 -> limit_reached', { paymentsLimit: 3, paidCount: 3 }, 'limit_reached'],
    ['denied: limit lowered to paid_count while active -> limit_reached', updatedPaymentLink(aLink({ paidCount: 2 }), { payments_limit: 2 }), 'limit_reached'],
    ['denied: status expired -> expired', { status: 'expired', expiredAt: CREATED_AT }, 'expired'],
    ['denied: active with an elapsed expires_at -> expired', { expiresAt: EARLIER }, 'expired'],
    ['denied: expires_at equal to now has elapsed -> expired', { expiresAt: NOW.toISOString() }, 'expired'],
    ['precedence: expired before limit_reached (status first)', { status: 'expired', paymentsLimit: 1, paidCount: 1 }, 'expired'],
    ['precedence: an elapsed expiry before limit_reached', { expiresAt: EARLIER, paymentsLimit: 1, paidCount: 1 }, 'expired'],
    ['denied: status inactive -> inactive', { status: 'inactive' }, 'inactive'],
    ['precedence: auto-inactivated by its limit -> inactive, not limit_reached', { status: 'inactive', paymentsLimit: 2, paidCount: 2 }, 'inactive'],
    ['decisions §4: an inactive link whose expires_at elapsed stays inactive', { status: 'inactive', expiresAt: EARLIER }, 'inactive'],
    ['decisions §4: reactivated after its expires_at elapsed -> expired', updatedPaymentLink(aLink({ status: 'inactive', expiresAt: EARLIER }), { status: 'active' }), 'expired'],
  ])('%s', (_rule, stored, expected) => {
    // Prepare
    const link = aLink(stored);
    // Act
    const denial = checkoutDenial(link, NOW);
    // Assess
    expect(denial).toBe(expected);
  });
});

describe('Function: isDueToExpire', () => {
  test.each<[string, Partial<PaymentLink>, boolean]>([
    ['due: active and expires_at elapsed', { expiresAt: EARLIER }, true],
    ['due: active and expires_at exactly now', { expiresAt: NOW.toISOString() }, true],
    ['not due: expires_at still ahead', { expiresAt: LATER }, false],
    ['not due: no expiry', { expiresAt: null }, false],
    ['not due: inactive (it stays inactive, decisions §4)', { status: 'inactive', expiresAt: EARLIER }, false],
    ['not due: already expired', { status: 'expired', expiresAt: null, expiredAt: CREATED_AT }, false],
  ])('%s', (_rule, stored, expected) => {
    // Act
    const due = isDueToExpire(aLink(stored), NOW);
    // Assess
    expect(due).toBe(expected);
  });
});

describe('Function: expiredPaymentLink', () => {
  test('expiry: status expired, expired_at set to the moment, expires_at cleared; counters and the rest kept', () => {
    // Prepare
    const link = aLink({ expiresAt: EARLIER, paymentsLimit: 3, paidCount: 1, firstPaidAt: CREATED_AT, lastPaidAt: CREATED_AT });
    // Act
    const expired = expiredPaymentLink(link, NOW);
    // Assess
    expect(expired).toEqual({ ...link, status: 'expired', expiresAt: null, expiredAt: NOW.toISOString() });
    expect(paymentLinkResource(expired, urls)).toMatchObject({ status: 'expired', expires_at: null, expired_at: NOW.toISOString(), remaining_payments: 2 });
    expect(checkoutDenial(expired, NOW)).toBe('expired');
  });
});

describe('Function: paidPaymentLink', () => {
  const PAID_AT = '2026-11-20T12:00:00.000Z';

  test.each<[string, Partial<PaymentLink>, Partial<PaymentLink>, number | null]>([
    ['paid: the first payment sets first_paid_at and last_paid_at', {}, { paidCount: 1, firstPaidAt: PAID_AT, lastPaidAt: PAID_AT, status: 'active' }, null],
    ['paid: a later payment keeps first_paid_at, moves last_paid_at', { paidCount: 4, firstPaidAt: CREATED_AT, lastPaidAt: CREATED_AT }, { paidCount: 5, firstPaidAt: CREATED_AT, lastPaidAt: PAID_AT }, null],
    ['paid: an unlimited link never inactivates', { paidCount: 999 }, { paidCount: 1000, status: 'active' }, null],
    ['paid: below the limit the link stays active, remaining_payments down by one', { paymentsLimit: 3, paidCount: 1 }, { paidCount: 2, status: 'active' }, 1],
    ['paid: the payment that reaches the limit inactivates the link', { paymentsLimit: 3, paidCount: 2 }, { paidCount: 3, status: 'inactive' }, 0],
    ['paid: with payments_limit 1 the first payment inactivates the link', { paymentsLimit: 1 }, { paidCount: 1, status: 'inactive', firstPaidAt: PAID_AT }, 0],
  ])('%s', (_rule, stored, expected, remaining) => {
    // Prepare
    const link = aLink(stored);
    // Act
    const next = paidPaymentLink(link, PAID_AT);
    // Assess
    expect(next).toMatchObject(expected);
    expect(remainingPayments(next)).toBe(remaining);
    expect(link).toEqual(aLink(stored));
  });

  test('paid: an auto-inactivated link is denied as inactive, and its expires_at is masked', () => {
    // Prepare
    const link = aLink({ paymentsLimit: 1, expiresAt: LATER });
    // Act
    const next = paidPaymentLink(link, PAID_AT);
    // Assess
    expect(checkoutDenial(next, NOW)).toBe('inactive');
    expect(paymentLinkResource(next, urls)).toMatchObject({ status: 'inactive', remaining_payments: 0, expires_at: null });
  });
});

describe('Function: newPaymentLink', () => {
  const create = (body: Partial<CreatePaymentLinkBody>) =>
    newPaymentLink({ id: 'pl_x', orgId: 'org_x', mode: 'live', acceptorId: 'acceptor_x', body: { amount: { value: '19.99', currency: 'eur' }, ...body }, now: NOW });

  test('create: starts active with paid_count 0; what is not given is null (or false)', () => {
    // Act
    const link = create({});
    // Assess
    expect(link).toEqual(
      aLink({ id: 'pl_x', orgId: 'org_x', mode: 'live', acceptorId: 'acceptor_x', amountMinor: 1999, description: null, internalReference: null, redirectUrl: null, createdAt: NOW.toISOString() }),
    );
  });

  test.each<[string, Partial<CreatePaymentLinkBody>, Partial<PaymentLink>]>([
    ['create: the amount in minor units, a single fraction digit read as tenths', { amount: { value: '5.5', currency: 'EUR' } }, { amountMinor: 550 }],
    ['create: a whole amount', { amount: { value: '12', currency: 'EUR' } }, { amountMinor: 1200 }],
    ['create: the currency stored upper case', { amount: { value: '1.00', currency: 'usd' } }, { currency: 'USD' }],
    ['create: expires_at without fractional seconds is stored with milliseconds and Z', { expires_at: '2026-12-01T10:00:00+02:00' }, { expiresAt: '2026-12-01T08:00:00.000Z' }],
    ['create: expires_at null means no expiry', { expires_at: null }, { expiresAt: null }],
    ['create: payments_limit null means unlimited', { payments_limit: null }, { paymentsLimit: null }],
    ['create: every optional field taken as given', { description: 'd', internal_reference: 'r', redirect_url: 'https://x.example/', payments_limit: 2, collect_email: true, collect_address: true, collect_phone: true }, { description: 'd', internalReference: 'r', redirectUrl: 'https://x.example/', paymentsLimit: 2, collectEmail: true, collectAddress: true, collectPhone: true }],
  ])('%s', (_rule, body, expected) => {
    // Act
    const link = create(body);
    // Assess
    expect(link).toMatchObject(expected);
  });
});

describe('Schema: createPaymentLinkBody and updatePaymentLinkBody (400 for the shape, 422 for a rule)', () => {
  const amount = { value: '10.00', currency: 'EUR' };
  test.each<[string, 'create' | 'update', unknown, typeof InvalidRequestError | typeof BusinessRuleError, string]>([
    ['create: amount missing -> 422 amount.value', 'create', {}, BusinessRuleError, 'amount.value'],
    ['create: amount.value not positive -> 422 amount.value', 'create', { amount: { value: '0.00', currency: 'EUR' } }, BusinessRuleError, 'amount.value'],
    ['create: amount.value off the pattern -> 400', 'create', { amount: { value: '1.234', currency: 'EUR' } }, InvalidRequestError, 'amount.value'],
    ['create: amount.value as a number -> 400', 'create', { amount: { value: 10, currency: 'EUR' } }, InvalidRequestError, 'amount.value'],
    ['create: payments_limit 0 -> 422 payments_limit', 'create', { amount, payments_limit: 0 }, BusinessRuleError, 'payments_limit'],
    ['create: payments_limit not an integer -> 400', 'create', { amount, payments_limit: 1.5 }, InvalidRequestError, 'payments_limit'],
    ['create: description over 500 characters -> 400', 'create', { amount, description: 'x'.repeat(501) }, InvalidRequestError, 'description'],
    ['create: internal_reference over 255 characters -> 400', 'create', { amount, internal_reference: 'x'.repeat(256) }, InvalidRequestError, 'internal_reference'],
    ['create: expires_at not a datetime -> 400', 'create', { amount, expires_at: 'tomorrow' }, InvalidRequestError, 'expires_at'],
    ['create: redirect_url not a URL -> 400', 'create', { amount, redirect_url: 'thanks' }, InvalidRequestError, 'redirect_url'],
    ['create: webhook_url (unknown field) -> 400', 'create', { amount, webhook_url: 'https://x.example/' }, InvalidRequestError, 'webhook_url'],
    ['update: status expired -> 400 status', 'update', { status: 'expired' }, InvalidRequestError, 'status'],
    ['update: payments_limit 0 -> 422 payments_limit', 'update', { payments_limit: 0 }, BusinessRuleError, 'payments_limit'],
    ['update: amount is immutable -> 400', 'update', { amount }, InvalidRequestError, 'amount'],
    ['update: acceptor_id is immutable -> 400', 'update', { acceptor_id: 'acceptor_x' }, InvalidRequestError, 'acceptor_id'],
    ['update: redirect_url is immutable -> 400', 'update', { redirect_url: 'https://x.example/' }, InvalidRequestError, 'redirect_url'],
    ['update: collect_email is immutable -> 400', 'update', { collect_email: true }, InvalidRequestError, 'collect_email'],
  ])('%s', (_rule, operation, body, errorClass, attribute) => {
    // Prepare
    const schema = operation === 'create' ? createPaymentLinkBody : updatePaymentLinkBody;
    // Act
    const error = thrownBy(() => parseWith(schema, body, 'body'));
    // Assess
    expect(error).toBeInstanceOf(errorClass);
    expect((error as BusinessRuleError).attribute).toBe(attribute);
  });

  test.each<[string, 'create' | 'update', unknown]>([
    ['create: payments_limit null and expires_at null are accepted', 'create', { amount, payments_limit: null, expires_at: null }],
    ['create: an expires_at without fractional seconds is accepted', 'create', { amount, expires_at: '2026-12-01T10:00:00Z' }],
    ['update: an empty body passes the schema (the rule answers 422)', 'update', {}],
    ['update: null for description, payments_limit, expires_at and internal_reference', 'update', { description: null, payments_limit: null, expires_at: null, internal_reference: null }],
  ])('%s', (_rule, operation, body) => {
    // Prepare
    const schema = operation === 'create' ? createPaymentLinkBody : updatePaymentLinkBody;
    // Act
    const parsed = parseWith(schema, body, 'body');
    // Assess
    expect(parsed).toEqual(body);
  });
});

describe('Function: requireCollectedDetails', () => {
  test.each<[string, Partial<PaymentLink>, { email?: string; phone?: string; address?: string }, string | undefined, string | undefined]>([
    ['collect: nothing collected, nothing needed', {}, {}, undefined, undefined],
    ['collect: every collected detail given', { collectEmail: true, collectPhone: true, collectAddress: true }, { email: 'a@b.example', phone: '+31 6', address: 'Main St 1' }, undefined, undefined],
    ['collect: a missing email -> 422 email', { collectEmail: true }, { phone: '+31 6' }, 'email', "Enter the customer's email address to pay"],
    ['collect: a missing phone -> 422 phone', { collectPhone: true }, {}, 'phone', "Enter the customer's phone number to pay"],
    ['collect: a missing address -> 422 address', { collectAddress: true }, { address: '' }, 'address', "Enter the customer's billing address to pay"],
    ['collect: all missing -> every label named, the first field as attribute', { collectEmail: true, collectPhone: true, collectAddress: true }, {}, 'email', "Enter the customer's email address, phone number, billing address to pay"],
  ])('%s', (_rule, stored, details, attribute, detail) => {
    // Act
    const error = thrownBy(() => requireCollectedDetails(aLink(stored), details));
    // Assess
    if (attribute === undefined) {
      expect(error).toBeUndefined();
    } else {
      expect(error).toBeInstanceOf(MissingCustomerDetailsError);
      expect(error).toMatchObject({ attribute, detail });
    }
  });
});

describe('Function: linkEvent', () => {
  const inactiveAtLimit = paidPaymentLink(aLink({ paymentsLimit: 2, paidCount: 1 }), '2026-11-20T12:00:00.000Z');
  const members: Record<string, Record<string, unknown>> = {
    [PAYMENT_LINK_EVENT.paymentCreated]: { payment_id: 'pay_x' },
    [PAYMENT_LINK_EVENT.paymentReused]: { payment_id: 'pay_x' },
    [PAYMENT_LINK_EVENT.remainingDecremented]: { payment_id: 'pay_x', remaining_payments: 0 },
    [PAYMENT_LINK_EVENT.autoInactivated]: { payment_id: 'pay_x', paid_count_at_inactivation: 2, reason: 'limit_reached' },
    [PAYMENT_LINK_EVENT.checkoutDenied]: { reason: 'inactive' },
  };

  test.each(Object.keys(PAYMENT_LINK_EVENTS))('events: %s carries the payment_link object plus its own members, as its schema declares', (type) => {
    // Prepare
    const link = type === PAYMENT_LINK_EVENT.autoInactivated || type === PAYMENT_LINK_EVENT.remainingDecremented ? inactiveAtLimit : aLink();
    // Act
    const event = (linkEvent as (...args: unknown[]) => OutboxEvent)(urls, type, link, ...(members[type] ? [members[type]] : []));
    // Assess
    expect(event.envelope).toMatchObject({ object: 'event', type, mode: link.mode });
    expect(event.orgId).toBe(link.orgId);
    expect(event.envelope.data).toEqual({ ...paymentLinkResource(link, urls), ...members[type] });
    const parsed = PAYMENT_LINK_EVENTS[type as keyof typeof PAYMENT_LINK_EVENTS].data.safeParse(event.envelope.data);
    expect(parsed.error?.issues).toBeUndefined();
  });
});

/**
 * The link store in memory, with the table's rule for a whole-link write: `save` succeeds only
 * at the version read (StaleLinkError with the link as it is otherwise). `concurrent` is another
 * writer whose commit lands just before the first save. Every event written is kept in order.
 */
function linkStore(stored: VersionedLink[], concurrent?: (current: VersionedLink) => VersionedLink) {
  const byId = new Map(stored.map((link) => [link.id, link]));
  const events: OutboxEvent[] = [];
  const saves: { link: PaymentLink; version: number }[] = [];
  const payments = new Map<string, Payment>();
  const sessions = new Map<string, string>();
  let interleaved = concurrent;
  const links = {
    get: async (id: string) => byId.get(id),
    async save(next: PaymentLink, read: VersionedLink, written: OutboxEvent[]) {
      const { version } = read;
      if (interleaved) byId.set(next.id, interleaved(byId.get(next.id)!));
      interleaved = undefined;
      const current = byId.get(next.id)!;
      if (current.version !== version) throw new StaleLinkError(current);
      const saved = { ...next, version: version + 1 };
      byId.set(next.id, saved);
      saves.push({ link: next, version });
      events.push(...written);
      return saved;
    },
    recordEvent: async (written: OutboxEvent) => void events.push(written),
    dueForExpiry: async (now: Date) => ({
      links: [...byId.values()].filter((link) => link.status === 'active' && link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime()),
      nextKey: undefined,
    }),
  };
  const checkout = {
    sessionPayment: async (linkId: string, clientKey: string) => sessions.get(`${linkId}#${clientKey}`),
    async openPayment(payment: Payment, clientKey: string, written: OutboxEvent[]) {
      payments.set(payment.id, payment);
      sessions.set(`${payment.paymentLinkId}#${clientKey}`, payment.id);
      events.push(...written);
    },
    async updateOpenPayment(payment: Payment, written: OutboxEvent[]) {
      payments.set(payment.id, payment);
      events.push(...written);
    },
  };
  const deps = {
    links: links as unknown as PaymentLinkRepository,
    payments: { get: async (id: string) => payments.get(id) } as unknown as PaymentRepository,
    checkout: checkout as unknown as CheckoutRepository,
    urls,
    now: () => NOW,
  } as CheckoutDeps;
  return { deps, events, saves, payments, link: (id = aLink().id) => byId.get(id)! };
}

describe('Use case: updatePaymentLink (in-memory link store)', () => {
  const principal: Principal = { actor: { type: 'api_key' as const, id: 'key_x' }, orgId: aLink().orgId, mode: 'test', scopes: ['payment_link:update'] };

  test('update: written at the version read, with properties.changed carrying the link as updated', async () => {
    // Prepare
    const store = linkStore([{ ...aLink(), version: 4 }]);
    // Act
    const resource = await updatePaymentLink(store.deps, principal, aLink().id, { status: 'inactive' });
    // Assess
    expect(resource.status).toBe('inactive');
    expect(store.saves.map((save) => save.version)).toEqual([4]);
    expect(store.events.map((event) => [event.envelope.type, event.envelope.data.status])).toEqual([[PAYMENT_LINK_EVENT.propertiesChanged, 'inactive']]);
    expect(store.link().version).toBe(5);
  });

  test('update: a payment committed between read and write is seen: the limit now below paid_count -> 422, nothing written', async () => {
    // Prepare
    const store = linkStore([{ ...aLink({ paymentsLimit: 5, paidCount: 2 }), version: 1 }], (current) => ({ ...paidPaymentLink(current, NOW.toISOString()), version: current.version + 1 }));
    // Act
    const error = await updatePaymentLink(store.deps, principal, aLink().id, { payments_limit: 2 }).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(error).toMatchObject({ attribute: 'payments_limit', detail: LIMIT_BELOW_PAID_DETAIL });
    expect(store.saves).toHaveLength(0);
    expect(store.link()).toMatchObject({ paidCount: 3, paymentsLimit: 5 });
  });

  test('update: a concurrent change is not overwritten: the update is applied again to the link as it is now', async () => {
    // Prepare
    const store = linkStore([{ ...aLink(), version: 1 }], (current) => ({ ...current, description: 'Changed meanwhile', version: current.version + 1 }));
    // Act
    await updatePaymentLink(store.deps, principal, aLink().id, { internal_reference: null });
    // Assess
    expect(store.link()).toMatchObject({ description: 'Changed meanwhile', internalReference: null, version: 3 });
    expect(store.saves.map((save) => save.version)).toEqual([2]);
  });

  test('update: a link of another organization or mode -> 404', async () => {
    // Prepare
    const store = linkStore([{ ...aLink({ mode: 'live' }), version: 1 }]);
    // Act
    const error = await updatePaymentLink(store.deps, principal, aLink().id, { status: 'inactive' }).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
    expect(store.saves).toHaveLength(0);
  });
});

describe('Use case: openCheckout (in-memory link and checkout stores)', () => {
  const newCustomer = { clientKey: 'ck_1', returning: false };

  test('checkout: an elapsed expires_at found at checkout expires the link, with expired and checkout.denied (expired) in the same write -> 409 expired', async () => {
    // Prepare
    const store = linkStore([{ ...aLink({ expiresAt: EARLIER }), version: 1 }]);
    // Act
    const error = await openCheckout(store.deps, aLink().id, newCustomer).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(CheckoutDeniedError);
    expect(error).toMatchObject({ reason: 'expired' });
    expect(store.link()).toMatchObject({ status: 'expired', expiresAt: null, expiredAt: NOW.toISOString(), version: 2 });
    expect(store.events.map((event) => [event.envelope.type, event.envelope.data.reason])).toEqual([
      [PAYMENT_LINK_EVENT.expired, undefined],
      [PAYMENT_LINK_EVENT.checkoutDenied, 'expired'],
    ]);
    expect(store.payments.size).toBe(0);
  });

  test.each<[string, Partial<PaymentLink>, DenialReason]>([
    ['checkout: an expired link -> 409 expired, checkout.denied recorded', { status: 'expired', expiredAt: CREATED_AT }, 'expired'],
    ['checkout: an inactive link -> 409 inactive, checkout.denied recorded', { status: 'inactive' }, 'inactive'],
    ['checkout: an active link without remaining payments -> 409 limit_reached, checkout.denied recorded', { paymentsLimit: 1, paidCount: 1 }, 'limit_reached'],
  ])('%s', async (_rule, stored, reason) => {
    // Prepare
    const store = linkStore([{ ...aLink(stored), version: 1 }]);
    // Act
    const error = await openCheckout(store.deps, aLink().id, newCustomer).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(CheckoutDeniedError);
    expect(error).toMatchObject({ reason });
    expect(store.events.map((event) => [event.envelope.type, event.envelope.data.reason])).toEqual([[PAYMENT_LINK_EVENT.checkoutDenied, reason]]);
    expect(store.saves).toHaveLength(0);
    expect(store.payments.size).toBe(0);
  });

  test('checkout: an unknown link -> 404', async () => {
    // Prepare
    const store = linkStore([]);
    // Act
    const error = await openCheckout(store.deps, aLink().id, newCustomer).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
  });

  test('checkout: a payable link -> checkout.requested and payment.created; an open payment at the link\'s amount', async () => {
    // Prepare
    const store = linkStore([{ ...aLink({ amountMinor: 4990 }), version: 1 }]);
    // Act
    const opened = await openCheckout(store.deps, aLink().id, newCustomer);
    // Assess
    expect(opened.reused).toBe(false);
    expect(opened.payment).toMatchObject({ status: 'open', amountMinor: 4990, currency: 'EUR', paymentLinkId: aLink().id, orgId: aLink().orgId, mode: 'test', clientKey: 'ck_1', createdAt: NOW.toISOString() });
    expect(typesOf(store.events)).toEqual([PAYMENT_LINK_EVENT.checkoutRequested, PAYMENT_LINK_EVENT.paymentCreated]);
    expect(store.events[1].envelope.data.payment_id).toBe(opened.payment.id);
  });

  test.each<[string, PaymentStatus, boolean]>([
    ['checkout: a returning customer whose payment is still open -> payment.reused', 'open', true],
    ['checkout: a returning customer whose payment has ended -> a new payment', 'failed', false],
  ])('%s', async (_rule, status, reused) => {
    // Prepare
    const store = linkStore([{ ...aLink(), version: 1 }]);
    const first = (await openCheckout(store.deps, aLink().id, newCustomer)).payment;
    store.payments.set(first.id, { ...first, status });
    store.events.length = 0;
    // Act
    const again = await openCheckout(store.deps, aLink().id, { clientKey: 'ck_1', returning: true });
    // Assess
    expect(again.reused).toBe(reused);
    expect(again.payment.id === first.id).toBe(reused);
    expect(typesOf(store.events)).toEqual([PAYMENT_LINK_EVENT.checkoutRequested, reused ? PAYMENT_LINK_EVENT.paymentReused : PAYMENT_LINK_EVENT.paymentCreated]);
  });
});

describe('Use case: expireDueLinks (the minute job)', () => {
  test('job: every active link past its expires_at expires with its event; others, and other scopes, are left; the count is what expired', async () => {
    // Prepare
    const due = { ...aLink({ id: 'pl_due', expiresAt: EARLIER }), version: 1 };
    const dueNow = { ...aLink({ id: 'pl_due_now', expiresAt: NOW.toISOString() }), version: 1 };
    const ahead = { ...aLink({ id: 'pl_ahead', expiresAt: LATER }), version: 1 };
    const inactive = { ...aLink({ id: 'pl_inactive', status: 'inactive', expiresAt: EARLIER }), version: 1 };
    const otherOrganization = { ...aLink({ id: 'pl_other', orgId: 'org_other', expiresAt: EARLIER }), version: 1 };
    const store = linkStore([due, dueNow, ahead, inactive, otherOrganization]);
    // Act
    const processed = await expireDueLinks(store.deps, NOW, { orgId: aLink().orgId, mode: 'test' });
    // Assess
    expect(processed).toBe(2);
    expect(['pl_due', 'pl_due_now', 'pl_ahead', 'pl_inactive', 'pl_other'].map((id) => store.link(id).status)).toEqual(['expired', 'expired', 'active', 'inactive', 'active']);
    expect(store.events.map((event) => [event.envelope.type, event.envelope.data.id])).toEqual([
      [PAYMENT_LINK_EVENT.expired, 'pl_due'],
      [PAYMENT_LINK_EVENT.expired, 'pl_due_now'],
    ]);
  });

  test('job: a link whose expiry was moved ahead meanwhile is checked again and left active', async () => {
    // Prepare
    const store = linkStore([{ ...aLink({ expiresAt: EARLIER }), version: 1 }], (current) => ({ ...current, expiresAt: LATER, version: current.version + 1 }));
    // Act
    const processed = await expireDueLinks(store.deps, NOW);
    // Assess
    expect(processed).toBe(0);
    expect(store.link()).toMatchObject({ status: 'active', expiresAt: LATER });
    expect(store.events).toEqual([]);
  });
});
