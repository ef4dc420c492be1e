import * as z from '../zod';
import type { Mode } from '../auth/principal';
import type { PublicUrls } from '../config';
import { BusinessRuleError } from '../errors';
import { resourceEvent, type EventDataOf, type EventFamily, type EventSpec, type OutboxEvent } from '../events';
import { amountInput, businessRule, currencyCode, datetimeInput, httpUrlInput, positiveAmountValue } from './inputs';
import { minorToNumber, normalizeCurrency, parseMinor } from '../money';
import { listQueryFields, objectListSchema } from '../pagination';
import { DatetimeSchema, isoMillis } from '../time';
import { htmlLink, LinkSchema } from './links';

export const LINK_STATUSES = ['active', 'inactive', 'expired'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
export const DENIAL_REASONS = ['expired', 'inactive', 'limit_reached'] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];

/** A payment link as stored. `expiresAt` is kept while inactive (masked) and cleared on expiry. */
export interface PaymentLink {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  status: LinkStatus;
  amountMinor: number;
  currency: string;
  description: string | null;
  internalReference: string | null;
  redirectUrl: string | null;
  paymentsLimit: number | null;
  paidCount: number;
  firstPaidAt: string | null;
  lastPaidAt: string | null;
  expiresAt: string | null;
  expiredAt: string | null;
  createdAt: string;
  collectEmail: boolean;
  collectAddress: boolean;
  collectPhone: boolean;
}

const paymentsLimit = /* @__PURE__ */ (() =>
  z.withMeta(
    z
      .optional(z.nullable(z.number().check(z.int())))
      .check(z.refine(...businessRule<number | null | undefined>((limit) => limit == null || limit >= 1, 'payments_limit must be at least 1'))),
    {
      description: 'At least 1 (422 otherwise); null or omitted for unlimited.',
      example: 5,
      override: { anyOf: [{ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }] },
    },
  ))();

export const createPaymentLinkBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z
      .strictObject({
        amount: z.optional(
          amountInput({
            value: z.withMeta(positiveAmountValue, { example: '19.99' }),
            currency: z.withMeta(currencyCode, { example: 'EUR' }),
          }),
        ),
        description: z.optional(z.string().check(z.maxLength(500))),
        acceptor_id: z.withMeta(z.optional(z.string()), { example: 'acceptor_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
        payments_limit: paymentsLimit,
        expires_at: z.optional(z.nullable(datetimeInput)),
        redirect_url: z.optional(httpUrlInput),
        internal_reference: z.optional(z.string().check(z.maxLength(255))),
        collect_email: z.optional(z.boolean()),
        collect_address: z.optional(z.boolean()),
        collect_phone: z.optional(z.boolean()),
      })
      .check(
        z.refine(
          // A missing amount is a missing `amount.value` (422), as the contract words it.
          ...businessRule((body: { amount?: unknown }) => body.amount !== undefined, 'amount.value is required', ['amount', 'value']),
        ),
      ),
    // Documented as required; the refinement above makes its absence a 422.
    { id: 'CreatePaymentLinkRequest', override: { required: ['amount'] } },
  ))();
export type CreatePaymentLinkBody = z.infer<typeof createPaymentLinkBody> & { amount: { value: string; currency: string } };

export const updatePaymentLinkBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      status: z.optional(z.enum(['active', 'inactive'])),
      description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
      payments_limit: paymentsLimit,
      expires_at: z.optional(z.nullable(datetimeInput)),
      internal_reference: z.optional(z.nullable(z.string().check(z.maxLength(255)))),
    }),
    { id: 'UpdatePaymentLinkRequest' },
  ))();
export type UpdatePaymentLinkBody = z.infer<typeof updatePaymentLinkBody>;

export const listPaymentLinksQuery = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ limit: listQueryFields.limit, starting_after: listQueryFields.starting_after, status: z.optional(z.enum(LINK_STATUSES)) }),
    { id: 'ListPaymentLinksQuery' },
  ))();

export const listLinkPaymentsQuery = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ limit: listQueryFields.limit, starting_after: listQueryFields.starting_after }), {
    id: 'ListPaymentLinkPaymentsQuery',
  }))();

export function remainingPayments(link: Pick<PaymentLink, 'paymentsLimit' | 'paidCount'>): number | null {
  return link.paymentsLimit === null ? null : Math.max(0, link.paymentsLimit - link.paidCount);
}

/** The payment_link object (output). */
export const PaymentLinkSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'Prefix `pl_`; opaque and stable.', example: 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
      object: z.literal('payment_link'),
      status: z.withMeta(z.enum(LINK_STATUSES), { description: 'The single authoritative state field.' }),
      amount: z.withMeta(
        z.strictObject({
          value: z.withMeta(z.number(), { description: 'Major units as a JSON number (input takes a string).', example: 19.99 }),
          currency: z.withMeta(z.string().check(z.regex(/^[A-Z]{3}$/)), { example: 'EUR' }),
        }),
        { id: 'PaymentLinkAmount' },
      ),
      description: z.nullable(z.string()),
      internal_reference: z.nullable(z.string()),
      redirect_url: z.withMeta(z.nullable(z.string()), { description: 'Null: the built-in thank-you page is used.' }),
      payments_limit: z.withMeta(z.nullable(z.int().check(z.gte(1))), { description: 'Cap on successful payments; null means unlimited.', example: 5 }),
      remaining_payments: z.withMeta(z.nullable(z.int().check(z.nonnegative())), {
        description: '`payments_limit - paid_count`; null while `payments_limit` is null.',
        example: 4,
      }),
      paid_count: z.withMeta(z.int().check(z.nonnegative()), { description: 'Successful payments through the link; never decreases.', example: 1 }),
      first_paid_at: z.nullable(DatetimeSchema),
      last_paid_at: z.nullable(DatetimeSchema),
      expires_at: z.withMeta(z.nullable(DatetimeSchema), {
        description: 'Null unless the link is `active` (masked while inactive, cleared on expiry).',
      }),
      expired_at: z.nullable(DatetimeSchema),
      created_at: DatetimeSchema,
      acceptor_id: z.string(),
      org_id: z.string(),
      links: z.strictObject({ checkout: LinkSchema }),
    }),
    { id: 'PaymentLink', description: 'A payment link.' },
  ))();
export type PaymentLinkResource = z.infer<typeof PaymentLinkSchema>;

/** `GET /v1/payment_links`. */
export const PaymentLinkListSchema = /* @__PURE__ */ (() => objectListSchema(PaymentLinkSchema, 'PaymentLinkList', 'A page of payment links, newest first.'))();
export type PaymentLinkList = z.infer<typeof PaymentLinkListSchema>;

/** The payment_link object: amount as a JSON number, `expires_at` masked unless active. */
export function paymentLinkResource(link: PaymentLink, urls: PublicUrls): PaymentLinkResource {
  return {
    id: link.id,
    object: 'payment_link',
    status: link.status,
    amount: { value: minorToNumber(link.amountMinor), currency: link.currency },
    description: link.description,
    internal_reference: link.internalReference,
    redirect_url: link.redirectUrl,
    payments_limit: link.paymentsLimit,
    remaining_payments: remainingPayments(link),
    paid_count: link.paidCount,
    first_paid_at: link.firstPaidAt,
    last_paid_at: link.lastPaidAt,
    expires_at: link.status === 'active' ? link.expiresAt : null,
    expired_at: link.expiredAt,
    created_at: link.createdAt,
    acceptor_id: link.acceptorId,
    org_id: link.orgId,
    links: { checkout: htmlLink(`${urls.checkout}/${link.id}`) },
  };
}

/**
 * Builds a new link from a validated create body (its amount is positive: shared/domain/inputs.ts).
 * The acceptor is the body's, else the key's bound acceptor; an org-scoped key must name one (422).
 */
export function newPaymentLink(input: {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  body: CreatePaymentLinkBody;
  now: Date;
}): PaymentLink {
  const { body } = input;
  const amountMinor = parseMinor(body.amount.value);
  return {
    id: input.id,
    orgId: input.orgId,
    mode: input.mode,
    acceptorId: input.acceptorId,
    status: 'active',
    amountMinor,
    currency: normalizeCurrency(body.amount.currency),
    description: body.description ?? null,
    internalReference: body.internal_reference ?? null,
    redirectUrl: body.redirect_url ?? null,
    paymentsLimit: body.payments_limit ?? null,
    paidCount: 0,
    firstPaidAt: null,
    lastPaidAt: null,
    expiresAt: body.expires_at ? isoMillis(Date.parse(body.expires_at)) : null,
    expiredAt: null,
    createdAt: isoMillis(input.now),
    collectEmail: body.collect_email ?? false,
    collectAddress: body.collect_address ?? false,
    collectPhone: body.collect_phone ?? false,
  };
}

export const EXPIRED_STATUS_DETAIL = 'Status cannot be changed once expired';
export const LIMIT_BELOW_PAID_DETAIL = 'payments_limit cannot be set below the count of payments already completed';

/**
 * Applies a partial update to a link (the caller re-checks `paidCount` atomically on write).
 * 1. An empty body is a 422.
 * 2. A status change of an expired link is a 422.
 * 3. `payments_limit` below `paid_count` is a 422; equal is allowed; null removes the cap.
 * 4. `description: null` keeps the text; `internal_reference: null` clears it.
 * 5. An expired link stays expired: its expiry stays cleared.
 */
export function updatedPaymentLink<L extends PaymentLink>(link: L, body: UpdatePaymentLinkBody): L {
  if (Object.keys(body).length === 0) throw new BusinessRuleError('The update body must contain at least one updatable field');
  if (body.status !== undefined && link.status === 'expired') throw new BusinessRuleError(EXPIRED_STATUS_DETAIL, 'status');
  if (body.payments_limit != null && body.payments_limit < link.paidCount) {
    throw new BusinessRuleError(LIMIT_BELOW_PAID_DETAIL, 'payments_limit');
  }
  const next = { ...link };
  if (body.status !== undefined) next.status = body.status;
  if (typeof body.description === 'string') next.description = body.description;
  if (body.payments_limit !== undefined) next.paymentsLimit = body.payments_limit;
  if (body.internal_reference !== undefined) next.internalReference = body.internal_reference;
  if (body.expires_at !== undefined && link.status !== 'expired') {
    next.expiresAt = body.expires_at === null ? null : isoMillis(Date.parse(body.expires_at));
  }
  return next;
}

const COLLECTED = [
  { flag: 'collectEmail', field: 'email', label: 'email address' },
  { flag: 'collectPhone', field: 'phone', label: 'phone number' },
  { flag: 'collectAddress', field: 'address', label: 'billing address' },
] as const;

export type CustomerField = (typeof COLLECTED)[number]['field'];

/** A paid outcome without a detail the link collects (422 on the first missing field). */
export class MissingCustomerDetailsError extends BusinessRuleError {
  constructor(fields: CustomerField[]) {
    const labels = COLLECTED.filter(({ field }) => fields.includes(field)).map(({ label }) => label);
    super(`Enter the customer's ${labels.join(', ')} to pay`, fields[0]);
  }
}

/** What the checkout of `link` asks the customer for. */
export function collectedFields(link: PaymentLink): CustomerField[] {
  return COLLECTED.filter(({ flag }) => link[flag]).map(({ field }) => field);
}

/** The fields `link` collects that `details` lacks: all of them are needed to pay. */
export function missingCustomerDetails(link: PaymentLink, details: { [field in CustomerField]?: string }): CustomerField[] {
  return collectedFields(link).filter((field) => !details[field]);
}

/** The checkout page and the test helper alike (§10): a payment is paid only with what its link collects. */
export function requireCollectedDetails(link: PaymentLink, details: { [field in CustomerField]?: string }): void {
  const missing = missingCustomerDetails(link, details);
  if (missing.length) throw new MissingCustomerDetailsError(missing);
}

/** Why a checkout is refused, by the contract's precedence (status first), or undefined. */
export function checkoutDenial(link: PaymentLink, now: Date): DenialReason | undefined {
  if (link.status === 'expired' || isDueToExpire(link, now)) return 'expired';
  if (link.status === 'inactive') return 'inactive';
  if (remainingPayments(link) === 0) return 'limit_reached';
  return undefined;
}

/** Active with an elapsed `expires_at`: the sweep or the next checkout expires it. */
export function isDueToExpire(link: PaymentLink, now: Date): boolean {
  return link.status === 'active' && link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime();
}

/** The link after expiry: `expired_at` set, `expires_at` cleared. */
export function expiredPaymentLink<L extends PaymentLink>(link: L, now: Date): L {
  return { ...link, status: 'expired', expiresAt: null, expiredAt: isoMillis(now) };
}

/** The link after one more paid payment; at the limit it becomes inactive. */
export function paidPaymentLink(link: PaymentLink, paidAt: string): PaymentLink {
  const paidCount = link.paidCount + 1;
  const reachedLimit = link.paymentsLimit !== null && paidCount >= link.paymentsLimit;
  return {
    ...link,
    paidCount,
    firstPaidAt: link.firstPaidAt ?? paidAt,
    lastPaidAt: paidAt,
    status: reachedLimit ? 'inactive' : link.status,
  };
}

export const PAYMENT_LINK_EVENT = {
  created: 'transactions.payment_link.created',
  propertiesChanged: 'transactions.payment_link.properties.changed',
  expired: 'transactions.payment_link.expired',
  paymentCreated: 'transactions.payment_link.payment.created',
  paymentReused: 'transactions.payment_link.payment.reused',
  remainingDecremented: 'transactions.payment_link.remaining_payments.decremented',
  autoInactivated: 'transactions.payment_link.auto_inactivated',
  checkoutRequested: 'transactions.payment_link.checkout.requested',
  checkoutDenied: 'transactions.payment_link.checkout.denied',
  emailSent: 'transactions.payment_link.email.sent',
  emailFailed: 'transactions.payment_link.email.failed',
  emailDelivered: 'transactions.payment_link.email.delivered',
  emailComplained: 'transactions.payment_link.email.complained',
} as const;

/**
 * Every event about a payment link (the contract's Payment link events): its `data` and when it
 * fires. Built in a pure function: only the OpenAPI document and the event registry read these
 * schemas, so a function that only writes link events leaves them out of its bundle.
 */
export const PAYMENT_LINK_EVENTS = /* @__PURE__ */ (() => {
  const LinkPaymentEventData = z.withMeta(z.extend(PaymentLinkSchema, { payment_id: z.withMeta(z.string(), { description: 'The payment (`pay_…`).' }) }), {
    id: 'PaymentLinkPaymentEventData',
    description: 'The payment_link object plus the payment the event is about.',
  });

  /** The link's own event about email: the payment_link object (product-decisions §4: nothing sends mail yet). */
  const emailEvent = (what: string): EventSpec<typeof PaymentLinkSchema> => ({
    data: PaymentLinkSchema,
    description: `The email-send-on-create process ${what}. Reserved: nothing in this service sends mail yet.`,
    reserved: true,
  });

  return {
    [PAYMENT_LINK_EVENT.created]: { data: PaymentLinkSchema, description: 'A payment link was created.' },
    [PAYMENT_LINK_EVENT.propertiesChanged]: {
      data: PaymentLinkSchema,
      description: 'A payment link was updated (POST /v1/payment_links/{id}), status, limit and expiry included; never for counter movements.',
    },
    [PAYMENT_LINK_EVENT.expired]: { data: PaymentLinkSchema, description: 'A payment link became expired (the minute job, or a checkout found it past `expires_at`).' },
    [PAYMENT_LINK_EVENT.paymentCreated]: { data: LinkPaymentEventData, description: 'A payment was created against the link at checkout.' },
    [PAYMENT_LINK_EVENT.paymentReused]: { data: LinkPaymentEventData, description: "The customer's still-open payment on the link was reused at checkout." },
    [PAYMENT_LINK_EVENT.remainingDecremented]: {
      data: z.withMeta(z.extend(LinkPaymentEventData, { remaining_payments: z.withMeta(z.int().check(z.nonnegative()), { description: 'The new `remaining_payments`.' }) }), {
        id: 'PaymentLinkRemainingPaymentsEventData',
        description: 'The payment_link object after the payment, with the payment and the new `remaining_payments`.',
      }),
      description: 'A payment succeeded on a link with a `payments_limit`: its `remaining_payments` went down by one.',
    },
    [PAYMENT_LINK_EVENT.autoInactivated]: {
      data: z.withMeta(
        z.extend(LinkPaymentEventData, {
          status: z.literal('inactive'),
          remaining_payments: z.literal(0),
          payments_limit: z.int().check(z.gte(1)),
          paid_count_at_inactivation: z.withMeta(z.int().check(z.gte(1)), { description: 'The paid count that reached the limit.' }),
          reason: z.literal('limit_reached'),
        }),
        { id: 'PaymentLinkAutoInactivatedEventData', description: 'The payment_link object as the last payment left it, inactive.' },
      ),
      description: 'The payment that reached `payments_limit` made the link inactive; committed with `transactions.payment.paid`.',
    },
    [PAYMENT_LINK_EVENT.checkoutRequested]: { data: PaymentLinkSchema, description: 'A customer opened the checkout of the link.' },
    [PAYMENT_LINK_EVENT.checkoutDenied]: {
      data: z.withMeta(
        z.extend(PaymentLinkSchema, {
          reason: z.withMeta(z.enum(DENIAL_REASONS), { description: 'By precedence: `expired`, then `inactive`, then `limit_reached`.' }),
        }),
        { id: 'PaymentLinkCheckoutDeniedEventData', description: 'The payment_link object plus why the checkout was refused.' },
      ),
      description: 'A customer opened the checkout but it was refused (the checkout answered 409).',
    },
    [PAYMENT_LINK_EVENT.emailSent]: emailEvent('sent the link by email'),
    [PAYMENT_LINK_EVENT.emailFailed]: emailEvent('could not send the link by email'),
    [PAYMENT_LINK_EVENT.emailDelivered]: emailEvent("had the link's email delivered"),
    [PAYMENT_LINK_EVENT.emailComplained]: emailEvent("received a complaint about the link's email"),
  } as const satisfies EventFamily;
})();

type LinkEvents = typeof PAYMENT_LINK_EVENTS;
export type LinkEventType = keyof LinkEvents;
/** What an event of `type` adds to the payment_link object (nothing, for most). */
type LinkEventMembers<T extends LinkEventType> = Omit<EventDataOf<LinkEvents, T>, keyof PaymentLinkResource>;

/** An event about a link: the payment_link object as the link is now, plus the members its type adds. */
export function linkEvent<T extends LinkEventType>(
  urls: PublicUrls,
  type: T,
  link: PaymentLink,
  ...members: [keyof LinkEventMembers<T>] extends [never] ? [] : [LinkEventMembers<T>]
): OutboxEvent {
  return resourceEvent(type, link, { ...paymentLinkResource(link, urls), ...members[0] });
}

/**
 * An unlimited link's paid payments are counted on this many shard items, one picked at random a
 * payment, so that its payers do not contend on one item (product-decisions §15; docs/decisions.md): 500 paid/s over ≈ 40 transactions/s an item, with room.
 */
export const PAID_SHARDS = 16;

/** Paid payments counted in one place: how many, the first and the last. */
export interface PaidTally {
  paidCount: number;
  firstPaidAt: string | null;
  lastPaidAt: string | null;
}

/** One shard of a link's paid counter as stored (a shard never written yet is absent: open and empty). */
export interface PaidShard {
  paidCount?: number;
  firstPaidAt?: string;
  lastPaidAt?: string;
  /** When a writer that changes whether or how the link can be paid closed it; no payment counts on it until reopened. */
  closedAt?: string;
  /** The link's version when the shard was reopened (absent: never closed). */
  generation?: number;
}

/** What a link's shards hold and whether payments can count on them, as read with the link. */
export interface PaidShards {
  paid: PaidTally;
  /** How many of the PAID_SHARDS are closed: 0, payments count on them; all, the link may be changed. */
  closed: number;
  /** When the last of the closed ones was closed (null: none is). */
  closedAt: string | null;
  /** The generation of the open shards: a payer counts only on the shards it read, never on shards closed and reopened since. */
  generation: number;
}

/**
 * A link as read, with the version every write of it is conditioned on. Its paid counts are the
 * totals of the link item and its shards; `shards` says what the shards hold (absent: not read,
 * and then the link item alone is written).
 */
export type VersionedLink = PaymentLink & { version: number; shards?: PaidShards };

const NO_PAYMENT: PaidTally = { paidCount: 0, firstPaidAt: null, lastPaidAt: null };

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null || a <= b ? a : b);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

/** Two tallies as one: counts added, the earliest first payment, the latest last one. */
export function addTallies(a: PaidTally, b: PaidTally): PaidTally {
  return { paidCount: a.paidCount + b.paidCount, firstPaidAt: earlier(a.firstPaidAt, b.firstPaidAt), lastPaidAt: later(a.lastPaidAt, b.lastPaidAt) };
}

/** The link as its item and its shards (those stored) say: paid counts summed, the shards' state beside. */
export function withPaidShards(item: VersionedLink, shards: PaidShard[]): VersionedLink {
  const paid = shards
    .map((shard): PaidTally => ({ paidCount: shard.paidCount ?? 0, firstPaidAt: shard.firstPaidAt ?? null, lastPaidAt: shard.lastPaidAt ?? null }))
    .reduce(addTallies, NO_PAYMENT);
  const closed = shards.filter((shard) => shard.closedAt !== undefined);
  const generation = Math.max(0, ...shards.filter((shard) => shard.closedAt === undefined).map((shard) => shard.generation ?? 0));
  return { ...item, ...addTallies(item, paid), shards: { paid, closed: closed.length, closedAt: closed.map((shard) => shard.closedAt!).reduce(later, null), generation } };
}

/** What the link item alone holds of the paid counts (the shards' part taken out of the totals). */
export function itemPaidCount(link: VersionedLink): number {
  return link.paidCount - (link.shards?.paid.paidCount ?? 0);
}

/** A link whose payments count on shards while they are open: active and unlimited. */
function takesShardedPayments(link: PaymentLink): boolean {
  return link.status === 'active' && link.paymentsLimit === null;
}

/** Whether a paid payment of the link as read counts on a shard (else on the link item, under its conditions). */
export function countsOnShards(link: VersionedLink): boolean {
  return takesShardedPayments(link) && link.shards?.closed === 0;
}

/**
 * How long after closing a link's shards the writer that closed them is taken to be still at its
 * change: payers wait for it (a payment on the link item meanwhile would send it back to read
 * again, round after round); after it, a writer that stopped half way is assumed, and payers
 * count on the link item until the next change reopens the shards.
 */
export const SHARDS_CLOSING_MS = 10_000;

/** Whether a payer of the link as read waits for a change under way (its shards being closed) rather than counting anywhere now. */
export function waitsForShardsClosing(link: VersionedLink, now: Date): boolean {
  const closedAt = link.shards?.closedAt;
  return takesShardedPayments(link) && !!closedAt && now.getTime() - Date.parse(closedAt) < SHARDS_CLOSING_MS;
}

/**
 * Whether writing `next` over `read` must first close every shard: the change stops or alters
 * the payments counting on them (status, limit, expiry), so none may commit on a shard after it.
 */
export function closesShards(read: VersionedLink, next: PaymentLink): boolean {
  if (!read.shards || read.shards.closed === PAID_SHARDS || !takesShardedPayments(read)) return false;
  return next.status !== read.status || next.paymentsLimit !== read.paymentsLimit || next.expiresAt !== read.expiresAt;
}

/** Whether writing `next` over `read` (all shards closed) sums the shards into the link item, and reopens them. */
export function foldsShards(read: VersionedLink, next: PaymentLink): { fold: boolean; reopen: boolean } {
  const fold = read.shards?.closed === PAID_SHARDS;
  return { fold, reopen: fold && takesShardedPayments(next) };
}

/** A writer that closed the shards and then changed nothing leaves them so: reopened while the link takes sharded payments. */
export function leftClosed(link: VersionedLink): boolean {
  return link.shards?.closed === PAID_SHARDS && takesShardedPayments(link);
}

/** Another writer changed the link first; `current` is the link as it is now. */
export class StaleLinkError extends Error {
  constructor(readonly current: VersionedLink | undefined) {
    super('payment link changed concurrently');
  }
}
