import { ConflictError } from '../errors';
import { resourceEvent, type EventFamily, type OutboxEvent } from '../events';
import * as z from '../zod';
import type { Mode } from '../auth/principal';
import type { PublicUrls } from '../config';
import { AmountSchema, formatMinor } from '../money';
import { createdQueryFields, listQueryFields, objectListSchema, pageSchema } from '../pagination';
import { isId } from '../ids';
import { DatetimeSchema } from '../time';
import type { Decline, HostedPayment } from './acquirer';
import { emailAddressInput, phoneNumberInput, postalAddressInput } from './inputs';
import { jsonLink, LinkSchema } from './links';

export const PAYMENT_STATUSES = ['open', 'paid', 'failed', 'canceled', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A payment as stored: money in minor units. */
export interface Payment {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  paymentLinkId: string;
  status: PaymentStatus;
  amountMinor: number;
  currency: string;
  createdAt: string;
  /** While open: when the customer last opened its checkout (its creation, a reuse); idle too long, it expires. */
  lastActivityAt?: string;
  paidAt?: string;
  clientKey?: string;
  customer?: { email?: string; phone?: string };
  /** The index digest of `customer.email` (./customer-emails.ts), which the email filter finds the payment by; never shown. */
  customerEmailDigest?: string;
  billing?: { address?: string };
  webhookUrl?: string;
  /** Sum of this payment's refunds that are not failed or canceled; raised by conditional writes only. */
  refundedMinor?: number;
  /** Sum of this payment's chargebacks that are not won (money leaves once: at most its amount). */
  chargedBackMinor?: number;
  /** How many of its chargebacks are not won: while any is, the payment cannot be refunded. */
  unwonChargebacks?: number;
  /** Live only: the payment at the acquirer (product-decisions §12). */
  acquirer?: PaymentAtAcquirer;
}

/**
 * A paid live payment's capture: `requested` when the paid transaction commits, then as the
 * acquirer reports it. `failed` takes the payment's credit back from the balance until a
 * capture succeeds after all (docs/decisions.md 54).
 */
export type CaptureStatus = 'requested' | 'captured' | 'failed';

export interface PaymentAtAcquirer {
  /** The acceptor's merchant account at the acquirer, fixed when the payment opens. */
  merchantAccount: string;
  /** The acquirer's hosted payment page for this payment, while it is open. */
  session?: HostedPayment;
  /** The acquirer's reference of the authorisation that decided the payment (`acquirer_reference`). */
  reference?: string;
  capture?: CaptureStatus;
  /** The acquirer's reference of the capture: from its answer to the capture, or its first notification. */
  captureReference?: string;
  /** The instant (the acquirer's) of the notification that last moved the capture: older news changes nothing. */
  captureEventAt?: string;
  /**
   * The authorisation was cancelled at the acquirer before any capture (CANCELLATION): its
   * capture is `failed` for good, nothing can be captured any more (docs/decisions.md 78).
   */
  voided?: boolean;
  /** Why the acquirer refused the authorisation of a `failed` payment (`failure_reason`). */
  refusalReason?: string;
  /** What the customer is told of it (the thank-you page). */
  decline?: Decline;
}

/** What a notification changes of a paid live payment's capture (`capture` and the news' instant always; the others when it names them). */
export type CaptureChange = Required<Pick<PaymentAtAcquirer, 'capture' | 'captureEventAt'>> & Pick<PaymentAtAcquirer, 'captureReference' | 'voided'>;

/** The capture as the API shows it (§12): `requested` reads `pending`, a voided authorisation's capture `failed`. */
const CAPTURE_STATUS_OUT: Record<CaptureStatus, 'pending' | 'captured' | 'failed'> = { requested: 'pending', captured: 'captured', failed: 'failed' };

/** Where the customer reads a payment's outcome: the thank-you page (live: the acquirer's page sends the customer back there). */
export const thankYouUrl = (urls: PublicUrls, payment: Pick<Payment, 'id' | 'paymentLinkId'>) => `${urls.checkout}/${payment.paymentLinkId}/thank-you?payment_id=${payment.id}`;

/** The authorisation of a live payment, as the acquirer port names it; undefined before the acquirer named it. */
export function authorisationOf(payment: Payment): { paymentId: string; acquirerReference: string; merchantAccount: string } | undefined {
  const { acquirer } = payment;
  return acquirer?.reference ? { paymentId: payment.id, acquirerReference: acquirer.reference, merchantAccount: acquirer.merchantAccount } : undefined;
}

/**
 * `GET /v1/payments`: the standard list parameters and the filters of product-decisions §18
 * (`status`, `payment_link`, `customer_email`, the creation range).
 */
export const listPaymentsQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...listQueryFields,
      status: z.withMeta(z.optional(z.enum(PAYMENT_STATUSES)), { description: 'Only the payments in this status; not with `payment_link`.' }),
      payment_link: z.withMeta(z.optional(z.string().check(z.refine((value) => isId('paymentLink', value), 'must be a payment link id (pl_…)'))), {
        description: 'Only the payments of this payment link (`pl_…`); not with `status`.',
      }),
      customer_email: z.withMeta(z.optional(emailAddressInput), {
        description: "Only the payments whose customer gave this email, exact and case-insensitive (with `status` or `payment_link`, of both).",
      }),
      ...createdQueryFields,
    }),
    { id: 'ListPaymentsQuery' },
  ))();

/**
 * What a link may collect from the customer (`collect_email`, `collect_phone`, `collect_address`):
 * the checkout page's fields and the helper's, one rule with the page's markup (./inputs.ts).
 */
export const customerDetailsInput = /* @__PURE__ */ (() => ({
  email: z.withMeta(z.optional(emailAddressInput), {
    description: 'The customer\'s email, HTML\'s "valid e-mail address" (the rule of `input type=email`); required to pay when the link collects it.',
  }),
  phone: z.withMeta(z.optional(phoneNumberInput), { description: "The customer's phone number; required to pay when the link collects it." }),
  address: z.withMeta(z.optional(postalAddressInput), { description: "The customer's billing address; required to pay when the link collects it." }),
}))();
export type CustomerDetails = { email?: string; phone?: string; address?: string };

/** Body of the test helper `POST /v1/test_helpers/payment_links/:id/checkout`. */
export const testCheckoutBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      outcome: z.withMeta(z.optional(z.enum(PAYMENT_STATUSES)), { description: 'The payment outcome; default `paid`.' }),
      client_key: z.withMeta(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), {
        description: 'The customer: an open payment of the same client key is reused.',
      }),
      ...customerDetailsInput,
    }),
    { id: 'TestHelperCheckoutRequest' },
  ))();

/** The minimal payment shape of a payment link's payment sub-list (output). */
export const PaymentListItemSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('payment'),
      id: z.withMeta(z.string(), { description: 'Prefix `pay_`.', example: 'pay_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
      status: z.enum(PAYMENT_STATUSES),
      amount: AmountSchema,
      created_at: DatetimeSchema,
      paid_at: z.nullable(DatetimeSchema),
      payment_link_id: z.withMeta(z.string(), { description: 'Prefix `pl_`.' }),
    }),
    { id: 'PaymentLinkPayment', description: 'A payment as a payment link lists it.' },
  ))();

/** The payment object of `GET /v1/payments/:id` (product-decisions §5), output. */
export const PaymentSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...PaymentListItemSchema.shape,
      amount_refunded: z.withMeta(AmountSchema, {
        description:
          'The sum of its refunds that are not `failed` or `canceled` (pending, processing and refunded ones: what leaves or has left), in the currency of `amount`. ' +
          '`amount` less this is what can still be refunded without `allow_overcaptured`.',
      }),
      amount_chargedback: z.withMeta(AmountSchema, { description: 'The sum of its chargebacks that are not `won`, in the currency of `amount`.' }),
      acceptor_id: z.string(),
      org_id: z.string(),
      mode: z.enum(['test', 'live']),
      customer: z.optional(z.strictObject({ email: z.optional(z.string()), phone: z.optional(z.string()) })),
      billing: z.optional(z.strictObject({ address: z.optional(z.string()) })),
      acquirer_reference: z.withMeta(z.nullable(z.string()), {
        description: "Live mode: the acquirer's reference of the payment (Adyen's pspReference); null in test mode and until the acquirer names it.",
        example: '8815850542287543',
      }),
      capture: z.withMeta(
        z.nullable(
          z.strictObject({
            status: z.withMeta(z.enum(['pending', 'captured', 'failed']), {
              description:
                '`pending` from the payment\'s `paid` until the acquirer reports the capture, then `captured`, or `failed` (the credit is taken back from the balance and the payment cannot be refunded until a capture succeeds after all; also when the authorisation was cancelled at the acquirer before any capture).',
            }),
            acquirer_reference: z.withMeta(z.nullable(z.string()), {
              description: "The acquirer's reference of the capture (Adyen's pspReference of the capture, as in its reports); null until the acquirer names it.",
              example: '8825850542287999',
            }),
          }),
        ),
        { description: 'Live mode: the capture of the payment at the acquirer, to match its reports; null in test mode and before the capture is asked (the payment is not paid).' },
      ),
      failure_reason: z.withMeta(z.nullable(z.string()), {
        description: "Live mode: why the acquirer refused a `failed` payment, in its words (Adyen's refusal reason, e.g. `Not enough balance`); null otherwise.",
        example: 'Not enough balance',
      }),
      links: z.strictObject({ api: LinkSchema }),
    }),
    { id: 'Payment', description: 'A payment.' },
  ))();

export const PaymentLinkPaymentListSchema = /* @__PURE__ */ (() =>
  objectListSchema(
    PaymentListItemSchema,
    'PaymentLinkPaymentList',
    "A page of a payment link's payments, newest first.",
  ))();
export const PaymentListSchema = /* @__PURE__ */ (() => pageSchema(PaymentSchema, 'PaymentList', 'A page of payments, newest first.'))();

export type PaymentListItem = z.infer<typeof PaymentListItemSchema>;
export type PaymentResource = z.infer<typeof PaymentSchema>;

/** The minimal payment shape of a payment link's payment sub-list. */
export function paymentListItem(payment: Payment): PaymentListItem {
  return {
    object: 'payment',
    id: payment.id,
    status: payment.status,
    amount: { value: formatMinor(payment.amountMinor), currency: payment.currency },
    created_at: payment.createdAt,
    paid_at: payment.paidAt ?? null,
    payment_link_id: payment.paymentLinkId,
  };
}

/** The payment object of `GET /v1/payments/:id` (product-decisions §5). */
export function paymentResource(payment: Payment, urls: PublicUrls): PaymentResource {
  return {
    ...paymentListItem(payment),
    amount_refunded: { value: formatMinor(payment.refundedMinor ?? 0), currency: payment.currency },
    amount_chargedback: { value: formatMinor(payment.chargedBackMinor ?? 0), currency: payment.currency },
    acceptor_id: payment.acceptorId,
    org_id: payment.orgId,
    mode: payment.mode,
    ...(payment.customer ? { customer: payment.customer } : {}),
    ...(payment.billing ? { billing: payment.billing } : {}),
    acquirer_reference: payment.acquirer?.reference ?? null,
    capture: captureOf(payment),
    failure_reason: payment.status === 'failed' ? (payment.acquirer?.refusalReason ?? null) : null,
    links: { api: jsonLink(`${urls.base}/v1/payments/${payment.id}`) },
  };
}

/** A live payment's capture as the API and the dashboard show it (§12): null in test mode and before the capture is asked. */
export function captureOf(payment: Payment): PaymentResource['capture'] {
  const acquirer = payment.acquirer;
  return acquirer?.capture ? { status: CAPTURE_STATUS_OUT[acquirer.capture], acquirer_reference: acquirer.captureReference ?? null } : null;
}

/** `GET /v1/payments`: `{has_more, data}` of payment objects. */
export function paymentPage(page: { items: Payment[]; hasMore: boolean }, urls: PublicUrls): z.infer<typeof PaymentListSchema> {
  return { has_more: page.hasMore, data: page.items.map((payment) => paymentResource(payment, urls)) };
}

/** `GET /v1/payment_links/:id/payments`: `{object: "list", data, has_more}` of the minimal shape. */
export function linkPaymentPage(page: { items: Payment[]; hasMore: boolean }): z.infer<typeof PaymentLinkPaymentListSchema> {
  return { object: 'list', data: page.items.map(paymentListItem), has_more: page.hasMore };
}

/** An `open` payment with no activity for this long becomes `expired` (product-decisions §4). */
export const OPEN_PAYMENT_IDLE_MS = 30 * 60_000;

/** When the payment's customer last opened its checkout. */
export const lastActivityOf = (payment: Payment) => payment.lastActivityAt ?? payment.createdAt;

export const PAYMENT_EVENT = { paid: 'transactions.payment.paid', expired: 'transactions.payment.expired' } as const;

/**
 * The payment events: the paid transition (the trigger of the link's limit events) and the
 * expiry, whoever decides it; the other outcomes (failed, canceled) are not announced.
 */
export const PAYMENT_EVENTS = /* @__PURE__ */ (() =>
  ({
    [PAYMENT_EVENT.paid]: { data: PaymentSchema, description: 'A payment was paid; its link\'s limit events are committed with it.' },
    [PAYMENT_EVENT.expired]: {
      data: PaymentSchema,
      description: 'An open payment expired: no activity for 30 minutes (the minute job), or the customer chose that outcome on the test-mode checkout.',
    },
  }) as const satisfies EventFamily)();

/** The event of a payment that reached `paid` or `expired`: the payment object. */
export function paymentEvent(type: (typeof PAYMENT_EVENT)[keyof typeof PAYMENT_EVENT], payment: Payment, urls: PublicUrls): OutboxEvent {
  return resourceEvent(type, payment, paymentResource(payment, urls));
}

/** The payment reached another outcome first (two tabs, a retried submit). */
export class PaymentNotOpenError extends ConflictError {
  constructor() {
    super('This payment is no longer open');
  }
}
