import type { PublicUrls } from '../../../shared/config';
import type { Chargeback } from '../../../shared/domain/chargebacks';
import type { PaymentLink } from '../../../shared/domain/payment-links';
import type { Payment } from '../../../shared/domain/payments';
import { BusinessRuleError } from '../../../shared/errors';
import type { OutboxEvent } from '../../../shared/events';

/**
 * What the domain's unit tests build on: fixed public URLs, one valid object of each kind (a
 * test overrides only the fields its rule reads) and a way to look at a thrown rule error.
 * Every time is fixed: nothing here reads the clock.
 */

export const urls: PublicUrls = {
  base: 'https://api.example',
  checkout: 'https://pay.example/checkout',
  dashboard: 'https://manage.example/dashboard',
  docs: 'https://docs.example',
};

export const CREATED_AT = '2026-11-20T10:00:00.000Z';

/** Whose every fixture is: one organization's acceptor, in test mode. */
const OWNER = { orgId: 'org_01jd2x3y4z5a6b7c8d9e0f1g2h', mode: 'test', acceptorId: 'acceptor_01jd2x3y4z5a6b7c8d9e0f1g2h' } as const;
const LINK_ID = 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h';
const PAYMENT_ID = 'pay_01jd2x3y4z5a6b7c8d9e0f1g2h';

/** An active, unlimited EUR 10.00 link without payments, expiry or collected details. */
export function aLink(overrides: Partial<PaymentLink> = {}): PaymentLink {
  return {
    id: LINK_ID,
    ...OWNER,
    status: 'active',
    amountMinor: 1000,
    currency: 'EUR',
    description: 'Concert ticket',
    internalReference: 'ORDER-1',
    redirectUrl: 'https://shop.example/thanks',
    paymentsLimit: null,
    paidCount: 0,
    firstPaidAt: null,
    lastPaidAt: null,
    expiresAt: null,
    expiredAt: null,
    createdAt: CREATED_AT,
    collectEmail: false,
    collectAddress: false,
    collectPhone: false,
    ...overrides,
  };
}

/** A paid EUR 10.00 payment of `aLink()`, without refunds or chargebacks. */
export function aPayment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: PAYMENT_ID,
    ...OWNER,
    paymentLinkId: LINK_ID,
    status: 'paid',
    amountMinor: 1000,
    currency: 'EUR',
    createdAt: CREATED_AT,
    paidAt: '2026-11-20T10:01:00.000Z',
    ...overrides,
  };
}

/** An open EUR 10.00 chargeback of `aPayment()`, due a week after it was opened. */
export function aChargeback(overrides: Partial<Chargeback> = {}): Chargeback {
  return {
    id: 'cb_01jd2x3y4z5a6b7c8d9e0f1g2h',
    ...OWNER,
    paymentId: PAYMENT_ID,
    status: 'open',
    reason: { code: '4837', description: 'No cardholder authorization' },
    amountMinor: 1000,
    currency: 'EUR',
    deadlineAt: '2026-11-27T10:00:00.000Z',
    acquirer: { name: 'Test Acquirer', reference: '12345678901234567890123', case_id: 'CB0123456789' },
    consumerAccountNumber: '4**************1',
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

/** The BusinessRuleError (422) that `run` throws; any other outcome fails the test. */
export function ruleError(run: () => unknown): BusinessRuleError {
  try {
    run();
  } catch (error) {
    if (error instanceof BusinessRuleError) return error;
    throw error;
  }
  throw new Error('expected a BusinessRuleError (422), but nothing was thrown');
}

/** What `run` throws, of any class (undefined when it returns). */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The types of the events written, in order. */
export const typesOf = (events: OutboxEvent[]) => events.map((event) => event.envelope.type);
