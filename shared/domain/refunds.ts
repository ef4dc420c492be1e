import * as z from '../zod';
import type { Mode } from '../auth/principal';
import type { PublicUrls } from '../config';
import { BusinessRuleError } from '../errors';
import { resourceEvent, statusFamily, type OutboxEvent } from '../events';
import { AmountSchema, formatMinor, moneyOut } from '../money';
import { LIMITS } from '../limits';
import { amountInput, boundedText, businessRule, codePointLength, currencyCode, httpUrlInput, positiveAmountValue, rejectReservedKeys, signedAmountValue } from './inputs';
import { pageSchema, statusListQuery } from '../pagination';
import { DatetimeSchema } from '../time';
import { htmlLink, jsonLink, LinkSchema } from './links';

/**
 * Refunds (contract "Refund", product-decisions §6). Pure rules only: the amount rules, the
 * lifecycle as one transition function, the output object and the request shapes. Storage
 * and the balance live in shared/db; orchestration in shared/use-cases/refunds.ts.
 */

export const REFUND_STATUSES = ['pending', 'processing', 'refunded', 'failed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** `GET /v1/refunds`: the list parameters, `status` and the creation range (product-decisions §18). */
export const listRefundsQuery = /* @__PURE__ */ (() => statusListQuery(REFUND_STATUSES, 'ListRefundsQuery'))();

/** Refunds support only the currency eur (stored upper case, returned lower case). */
export const REFUND_CURRENCY = 'EUR';
/** With `allow_overcaptured`, all refunds together stay at most this much above the payment. */
export const OVERCAP_ABSOLUTE_MINOR = 1500;
export const DEFAULT_OVERCAP_PCT = '0.20';


/** A refund as stored: money in minor units. */
export interface Refund {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  paymentId: string;
  /** The original payment's link: its checkout page is the refund's `links.checkout`. */
  paymentLinkId: string;
  status: RefundStatus;
  /** True while the refund waits, `pending`, for the balance to cover it. */
  onHold: boolean;
  amountMinor: number;
  currency: string;
  description: string;
  webhookUrl?: string;
  metadata: Record<string, string>;
  /** Live: the acquirer's reference of the refund, once the acquirer took it (until then the job sends it again). */
  acquirerReference?: string;
  /** Live: the instant (the acquirer's) of the notification that last moved it: older news changes nothing. */
  acquirerEventAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** What the amount rules need to know about the payment being refunded. */
export interface RefundablePayment {
  status: string;
  amountMinor: number;
  currency: string;
  /** Sum of the payment's refunds that are not failed or canceled (kept on the payment item). */
  refundedMinor?: number;
  /** Chargebacks of the payment that are not won: while any is, nothing can be refunded. */
  unwonChargebacks?: number;
  /** Live: a payment whose capture failed took no money, so there is nothing to give back. */
  acquirer?: { capture?: string };
}

// ---------------------------------------------------------------------------------------------
// Request shapes, each built in a pure function (as the output schemas below): a function that
// only moves or shows refunds (the release after a credit, a dashboard page) leaves them and
// the zod kinds they use out (docs/decisions.md 28).


/** A decimal fraction such as `0.20`; integer part up to 4 digits, up to 6 fraction digits. */
export const OVERCAP_PCT_PATTERN = /^[0-9]{1,4}(\.[0-9]{1,6})?$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

export const refundAmountInput = /* @__PURE__ */ (() =>
  z.withMeta(
    amountInput({
      value: z.withMeta(positiveAmountValue, { example: '5.00' }),
      currency: z.withMeta(
        currencyCode.check(
          z.refine(
            ...businessRule<string>(
              (value) => !CURRENCY_CODE.test(value) || value.toUpperCase() === REFUND_CURRENCY,
              'Refunds support only the currency eur',
            ),
          ),
        ),
        { example: 'eur' },
      ),
    }),
    { id: 'RefundAmountInput' },
  ))();

/**
 * A refund's `metadata` (product-decisions §1): each bound a business rule (422), stated in the
 * schema too (`maxProperties`, the keys' and values' lengths in characters, which are code
 * points as JSON Schema counts them); the 40 KB total and the reserved keys in its description.
 */
const metadataInput = /* @__PURE__ */ (() =>
  z.withMeta(
    z
      .pipe(
        z.transform(rejectReservedKeys),
        z.withMeta(
          z.record(
            z.withMeta(z.string(), { minLength: 1, maxLength: LIMITS.metadata.keyLength }),
            z.withMeta(z.string(), { maxLength: LIMITS.metadata.valueLength }),
          ),
          { maxProperties: LIMITS.metadata.keys },
        ),
      )
      .check(
        z.refine(
          ...businessRule<Record<string, string>>(
            (value) => Object.keys(value).length <= LIMITS.metadata.keys,
            `metadata holds at most ${LIMITS.metadata.keys} keys`,
          ),
        ),
        z.refine(
          ...businessRule<Record<string, string>>(
            (value) => Object.keys(value).every((key) => key.length >= 1 && codePointLength(key) <= LIMITS.metadata.keyLength),
            `metadata keys are 1 to ${LIMITS.metadata.keyLength} characters long`,
          ),
        ),
        z.refine(
          ...businessRule<Record<string, string>>(
            (value) => Object.values(value).every((entry) => codePointLength(entry) <= LIMITS.metadata.valueLength),
            `metadata values are at most ${LIMITS.metadata.valueLength} characters long`,
          ),
        ),
        z.refine(
          ...businessRule<Record<string, string>>(
            (value) => Buffer.byteLength(JSON.stringify(value)) <= LIMITS.metadata.bytes,
            `metadata is at most ${LIMITS.metadata.bytes} bytes as JSON`,
          ),
        ),
      ),
    {
      description:
        `At most ${LIMITS.metadata.keys} keys of 1 to ${LIMITS.metadata.keyLength} characters with string values of at most ${LIMITS.metadata.valueLength}, ` +
        `at most ${LIMITS.metadata.bytes} bytes as UTF-8 JSON in all; the keys ${LIMITS.reservedMetadataKeys.map((key) => `\`${key}\``).join(', ')} are reserved. ` +
        'Breaking any of these is a 422.',
    },
  ))();

/** Body of POST /v1/payments/:id/refunds; every field is optional, unknown fields are 400. */
export const refundCreateBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      amount: z.optional(refundAmountInput),
      description: z.optional(boundedText('description', 0, LIMITS.descriptionLength)),
      webhook_url: z.optional(httpUrlInput),
      metadata: z.optional(metadataInput),
      allow_overcaptured: z.optional(z.boolean()),
      overcap_pct: z.optional(z.string().check(z.regex(OVERCAP_PCT_PATTERN, 'overcap_pct must be a decimal fraction such as 0.20'))),
    }),
    { id: 'RefundCreateRequest' },
  ))();
export type RefundCreateBody = z.infer<typeof refundCreateBody>;

/** Body of the test helper POST /v1/test_helpers/refunds/:id/transitions. */
export const refundTransitionBody = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ status: z.enum(['processing', 'refunded', 'failed', 'canceled']) }), {
    id: 'RefundTransitionRequest',
  }))();

/** Body of the test helper POST /v1/test_helpers/balance_adjustments (signed amount). */
export const balanceAdjustmentBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      amount: amountInput({
        value: z.withMeta(signedAmountValue, { example: '-10.00' }),
        currency: z.withMeta(currencyCode, { example: 'eur' }),
      }),
    }),
    { id: 'BalanceAdjustmentRequest' },
  ))();

// ---------------------------------------------------------------------------------------------
// Amount rules (product-decisions §6)

/**
 * The most all refunds of a payment may add up to with `allow_overcaptured`:
 * min(amount × (1 + overcap_pct), amount + 15.00 EUR), rounded down to the cent.
 */
export function overcapCeilingMinor(paymentMinor: number, overcapPct: string): number {
  const [whole, fraction = ''] = overcapPct.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const pctScaled = BigInt(whole) * scale + BigInt(fraction || '0');
  const byPct = (BigInt(paymentMinor) * (scale + pctScaled)) / scale;
  const byAbsolute = BigInt(paymentMinor + OVERCAP_ABSOLUTE_MINOR);
  return Number(byPct < byAbsolute ? byPct : byAbsolute);
}

/** Payment amount minus every refund not failed or canceled; never below zero. */
export function refundableRestMinor(payment: RefundablePayment): number {
  return Math.max(0, payment.amountMinor - (payment.refundedMinor ?? 0));
}

export interface RefundAmountRequest {
  amountMinor?: number;
  currency?: string;
  allowOvercaptured?: boolean;
  overcapPct?: string;
}

export interface RefundAmountPlan {
  amountMinor: number;
  /** The most the payment's refunded total may reach with this refund included. */
  limitMinor: number;
}

export const CAPTURE_FAILED_DETAIL = "The payment's capture failed at the acquirer: it took no money to refund";

/**
 * Decides the refund's amount and the ceiling the payment's refunded total must respect.
 * The database enforces the ceiling again in the write (refunded total <= limit - amount), so
 * two concurrent refunds can never exceed it together. Throws BusinessRuleError (422).
 */
export function planRefundAmount(payment: RefundablePayment, request: RefundAmountRequest): RefundAmountPlan {
  if (payment.status !== 'paid') throw new BusinessRuleError('Only a paid payment can be refunded', 'payment_id');
  if ((payment.unwonChargebacks ?? 0) > 0) {
    throw new BusinessRuleError('A payment with a chargeback that is not won cannot be refunded', 'payment_id');
  }
  if (payment.acquirer?.capture === 'failed') throw new BusinessRuleError(CAPTURE_FAILED_DETAIL, 'payment_id');
  if (payment.currency.toUpperCase() !== REFUND_CURRENCY) {
    throw new BusinessRuleError('Refunds support only the currency eur', 'amount.currency');
  }
  if (request.currency !== undefined && request.currency.toUpperCase() !== REFUND_CURRENCY) {
    throw new BusinessRuleError('Refunds support only the currency eur', 'amount.currency');
  }
  const refunded = payment.refundedMinor ?? 0;
  const rest = refundableRestMinor(payment);
  const limitMinor = request.allowOvercaptured
    ? overcapCeilingMinor(payment.amountMinor, request.overcapPct ?? DEFAULT_OVERCAP_PCT)
    : payment.amountMinor;

  if (request.amountMinor === undefined) {
    if (rest === 0) throw new BusinessRuleError('The payment has nothing left to refund', 'amount.value');
    return { amountMinor: rest, limitMinor };
  }
  if (refunded + request.amountMinor > limitMinor) {
    const room = Math.max(0, limitMinor - refunded);
    throw new BusinessRuleError(
      request.allowOvercaptured
        ? `All refunds of the payment together may reach at most ${formatMinor(limitMinor)} eur; at most ${formatMinor(room)} eur can still be refunded`
        : `amount.value exceeds the refundable rest of ${formatMinor(rest)} eur`,
      'amount.value',
    );
  }
  return { amountMinor: request.amountMinor, limitMinor };
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (product-decisions §6): pending -> processing -> refunded; pending -> canceled;
// processing -> failed. A held pending refund is covered (reserves its amount) without a
// status change: the move to `pending` below.

export const REFUND_MOVES: Record<RefundStatus, readonly RefundStatus[]> = {
  pending: ['pending', 'processing', 'canceled'],
  processing: ['refunded', 'failed'],
  refunded: [],
  failed: [],
  canceled: [],
};

/** True when the process-refunds job moves this refund to `processing` at `now`. */
export function isDueForProcessing(refund: Refund, now: Date, cancelWindowSeconds: number): boolean {
  return refund.status === 'pending' && !refund.onHold && Date.parse(refund.createdAt) + cancelWindowSeconds * 1000 <= now.getTime();
}

/** A transition and what it does besides the status change. */
export interface RefundMove {
  from: RefundStatus;
  refund: Refund;
  /** Added to the balance: negative debits (and must be covered), positive gives back. */
  balanceDeltaMinor: number;
  /** Added to the balance's count of held refunds (-1 when a held refund leaves the queue). */
  heldDelta: number;
  /** Added to the payment's refunded total (negative when the refund no longer counts). */
  refundedDeltaMinor: number;
}

/**
 * The one transition function. A held pending refund has taken nothing from the balance;
 * covering it (`pending` again, or straight to `processing` through the test helper) reserves
 * its amount, which the balance must cover. A covered refund keeps its reservation through
 * `processing` and `refunded`; `failed` and `canceled` give back what the refund reserved and
 * release the amount on the payment's refunded total. Throws 422 for a forbidden move.
 *
 * `acquirer`: the acquirer reported it. Besides the table, a `refunded` refund may become
 * `failed`: the acquirer refunded it, then the scheme returned the money (Adyen's REFUND_FAILED
 * after a REFUND success), which comes back to the balance (docs/decisions.md).
 */
export function transitionRefund(refund: Refund, to: RefundStatus, at: string, by: 'service' | 'acquirer' = 'service'): RefundMove {
  const returned = by === 'acquirer' && refund.status === 'refunded' && to === 'failed';
  const allowed = returned || (REFUND_MOVES[refund.status].includes(to) && (to !== 'pending' || refund.onHold));
  if (!allowed) throw new BusinessRuleError(`A refund cannot move from ${refund.status}${refund.onHold ? ' (on hold)' : ''} to ${to}`, 'status');
  const next: Refund = { ...refund, status: to, onHold: false, updatedAt: at };
  const leavesHold = refund.onHold ? -1 : 0;
  const reserved = refund.onHold ? 0 : refund.amountMinor;
  const move = (balanceDeltaMinor: number, refundedDeltaMinor: number, heldDelta = leavesHold): RefundMove => ({
    from: refund.status,
    refund: next,
    balanceDeltaMinor,
    heldDelta,
    refundedDeltaMinor,
  });
  switch (to) {
    case 'pending':
    case 'processing':
      return move(refund.onHold ? -refund.amountMinor : 0, 0);
    case 'refunded':
      return move(0, 0, 0);
    case 'failed':
    case 'canceled':
      return move(reserved, -refund.amountMinor);
    default:
      throw new BusinessRuleError(`A refund cannot move to ${to}`, 'status');
  }
}

/** A new refund: `pending`, and on hold until its amount is reserved from the balance. */
export function newRefund(input: Omit<Refund, 'status' | 'onHold' | 'updatedAt'>): Refund {
  return { ...input, status: 'pending', onHold: true, updatedAt: input.createdAt };
}

// ---------------------------------------------------------------------------------------------
// Output

export const refundResourceSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'Prefix `rf_`.' }),
      object: z.literal('refund'),
      payment_id: z.string(),
      org_id: z.string(),
      acceptor_id: z.string(),
      created_at: DatetimeSchema,
      mode: z.enum(['test', 'live']),
      status: z.enum(REFUND_STATUSES),
      on_hold: z.withMeta(z.boolean(), { description: 'True while the refund waits, `pending`, for the balance to cover it.' }),
      description: z.string(),
      webhook_url: z.nullable(z.string()),
      amount: AmountSchema,
      metadata: z.record(z.string(), z.string()),
      acquirer_reference: z.withMeta(z.nullable(z.string()), {
        description: "Live mode: the acquirer's reference of the refund (Adyen's pspReference of the refund, as in its reports), once the acquirer took it; null in test mode and before.",
        example: '8835850542288123',
      }),
      links: z.strictObject({ api: LinkSchema, checkout: LinkSchema, dashboard: LinkSchema }),
    }),
    { id: 'Refund', description: 'A refund; amounts in eur (lower case).' },
  ))();
export type RefundResource = z.infer<typeof refundResourceSchema>;

export const RefundListSchema = /* @__PURE__ */ (() => pageSchema(refundResourceSchema, 'RefundList', 'A page of refunds, newest first.'))();

/** `GET /v1/refunds`: `{has_more, data}` of refund objects. */
export function refundPage(page: { items: Refund[]; hasMore: boolean }, urls: PublicUrls): z.infer<typeof RefundListSchema> {
  return { has_more: page.hasMore, data: page.items.map((refund) => refundResource(refund, urls)) };
}

/** The refund object of the contract. */
export function refundResource(refund: Refund, urls: PublicUrls): RefundResource {
  return {
    id: refund.id,
    object: 'refund',
    payment_id: refund.paymentId,
    org_id: refund.orgId,
    acceptor_id: refund.acceptorId,
    created_at: refund.createdAt,
    mode: refund.mode,
    status: refund.status,
    on_hold: refund.onHold,
    description: refund.description,
    webhook_url: refund.webhookUrl ?? null,
    amount: moneyOut({ minor: refund.amountMinor, currency: refund.currency }, 'lower'),
    metadata: refund.metadata,
    acquirer_reference: refund.acquirerReference ?? null,
    links: {
      api: jsonLink(`${urls.base}/v1/refunds/${refund.id}`),
      checkout: htmlLink(`${urls.checkout}/${refund.paymentLinkId}`),
      dashboard: htmlLink(`${urls.dashboard}/refunds/${refund.id}`),
    },
  };
}

/** Every refund event: `transactions.refund.<status>` with the refund object (product-decisions §6). */
export const REFUND_EVENTS = /* @__PURE__ */ statusFamily('transactions.refund.', REFUND_STATUSES, refundResourceSchema, (status) => `A refund became \`${status}\`.`);

/** `transactions.refund.<status>` with the refund object, also sent to the refund's webhook_url. */
export function refundEvent(refund: Refund, urls: PublicUrls, at: Date): OutboxEvent {
  const type = `transactions.refund.${refund.status}` satisfies keyof typeof REFUND_EVENTS;
  return resourceEvent(type, refund, refundResource(refund, urls), { targetUrl: refund.webhookUrl, at });
}

export const BalanceSchema = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ object: z.literal('balance'), available: AmountSchema }), {
    id: 'Balance',
    description: "The balance of the organization for the key's mode, after the adjustment.",
  }))();

/** The balance object of the balance-adjustment test helper. */
export function balanceResource(availableMinor: number, currency: string): z.infer<typeof BalanceSchema> {
  return { object: 'balance', available: moneyOut({ minor: availableMinor, currency }, 'lower') };
}
