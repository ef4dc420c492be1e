import { createHash } from 'node:crypto';
import * as z from '../zod';
import type { Mode } from '../auth/principal';
import type { PublicUrls } from '../config';
import { BusinessRuleError } from '../errors';
import { resourceEvent, statusFamily, type OutboxEvent } from '../events';
import { AmountSchema, moneyOut, normalizeCurrency, parseMinor } from '../money';
import { pageSchema, statusListQuery } from '../pagination';
import { isId } from '../ids';
import { DatetimeSchema, isoMillis } from '../time';
import { LIMITS } from '../limits';
import { amountInput, boundedText, businessRule, currencyCode, datetimeInput, positiveAmountValue } from './inputs';
import { jsonLink, LinkSchema } from './links';
import type { Payment } from './payments';

/**
 * Chargebacks (contract "Chargeback", product-decisions §7): a bank reversal recorded against a
 * paid payment. Pure rules only: the stored shape, the state table, masking and the API shapes.
 */
export const CHARGEBACK_STATUSES = ['open', 'accepted', 'disputed', 'won', 'lost'] as const;
export type ChargebackStatus = (typeof CHARGEBACK_STATUSES)[number];

/** `GET /v1/chargebacks`: the list parameters, `status` and the creation range (product-decisions §18). */
export const listChargebacksQuery = /* @__PURE__ */ (() => statusListQuery(CHARGEBACK_STATUSES, 'ListChargebacksQuery'))();

/** The contract's state table; `accepted`, `won` and `lost` are terminal. */
const NEXT: Record<ChargebackStatus, readonly ChargebackStatus[]> = {
  open: ['accepted', 'disputed'],
  disputed: ['won', 'lost'],
  accepted: [],
  won: [],
  lost: [],
};

/** Default response time when neither the feed nor the test helper gives `deadline_at`. */
export const DEFAULT_DEADLINE_DAYS = 7;

export interface Reason {
  code: string;
  description: string;
}

export interface Acquirer {
  name: string;
  reference: string;
  case_id: string;
}

/** The texts a merchant may give as evidence (product-decisions §13), each at most LIMITS.evidence.textLength characters. */
export const EVIDENCE_TEXTS = ['product_description', 'customer_communication', 'refund_policy', 'shipping_tracking_number', 'uncategorized_text'] as const;
export type EvidenceText = (typeof EVIDENCE_TEXTS)[number];

/** What a merchant submitted: texts, and the ids of documents uploaded for this chargeback. */
export type Evidence = Partial<Record<EvidenceText, string>> & { documents?: string[] };

/**
 * Set when the chargeback is disputed (product-decisions §13): when, and with what. The ruling
 * that may follow is the chargeback's own `status` (`won` or `lost`, terminal) and its moment
 * `updated_at`, so the dispute repeats neither.
 */
export interface Dispute {
  submitted_at: string;
  evidence: Evidence;
}

/** The reminders of §13: when this many hours are left before `deadline_at`, once each, the larger first. */
export const REMINDER_HOURS = [72, 24] as const;
export type ReminderHours = (typeof REMINDER_HOURS)[number];

/** A chargeback as stored: money in minor units, the account number only ever masked. */
export interface Chargeback {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  paymentId: string;
  status: ChargebackStatus;
  reason: Reason;
  amountMinor: number;
  currency: string;
  deadlineAt: string;
  acquirer: Acquirer;
  consumerAccountNumber: string;
  dispute?: Dispute;
  /**
   * The next deadline reminder still to send while `open` (product-decisions §13), absent once
   * none is left; the reminder sweep reads the chargebacks whose reminder is due (shared/db/entities.ts).
   */
  nextReminderHours?: ReminderHours;
  /** The parent payment's webhook_url, copied at creation: every event of the chargeback goes there too. */
  paymentWebhookUrl?: string;
  /** Live: the instant (the acquirer's) of the dispute notification that last moved it: older news changes nothing (§12). */
  acquirerEventAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** Digits become asterisks except the first and the last character (contract: consumer_account_number). */
export function maskAccountNumber(value: string): string {
  if (value.length <= 2) return value;
  return value[0] + value.slice(1, -1).replace(/[0-9]/g, '*') + value[value.length - 1];
}

/**
 * Who moves a chargeback: a merchant's action (or the test helper), the deadline sweep, or the
 * acquirer's dispute notifications (product-decisions §12).
 */
export type ChargebackTrigger = 'action' | 'deadline' | 'acquirer';

/**
 * What the acquirer's outcome may move: the scheme decides whatever the chargeback's state
 * here (a merchant need not have disputed it, and a deadline passed here does not bind the
 * issuer), and a won chargeback can still be lost (Adyen's SECOND_CHARGEBACK after a reversal).
 */
const ACQUIRER_NEXT: Record<ChargebackStatus, readonly ChargebackStatus[]> = {
  open: ['won', 'lost'],
  disputed: ['won', 'lost'],
  accepted: ['won', 'lost'],
  won: ['lost'],
  lost: [],
};

/**
 * The chargeback after moving to `to`, or a 422 naming `status` when the state table forbids the
 * move. A merchant action (`action`) on an open chargeback must come before deadline_at; the
 * deadline (`deadline`) only accepts open chargebacks at or after it; the acquirer (`acquirer`)
 * rules as ACQUIRER_NEXT allows, whatever the deadline. A dispute records what was submitted
 * with it (`evidence`; none from the test helper).
 */
export function transitionChargeback(
  chargeback: Chargeback,
  to: ChargebackStatus,
  now: Date,
  trigger: ChargebackTrigger = 'action',
  evidence: Evidence = {},
): Chargeback {
  const allowed = (trigger === 'acquirer' ? ACQUIRER_NEXT : NEXT)[chargeback.status];
  if (!allowed.includes(to)) {
    throw new BusinessRuleError(`A chargeback in status ${chargeback.status} cannot become ${to}`, 'status');
  }
  const overdue = now.getTime() >= Date.parse(chargeback.deadlineAt);
  if (chargeback.status === 'open' && trigger === 'action' && overdue) {
    throw new BusinessRuleError('deadline_at has passed: the chargeback is accepted automatically', 'status');
  }
  if (trigger === 'deadline' && !(chargeback.status === 'open' && to === 'accepted' && overdue)) {
    throw new BusinessRuleError('Only an open chargeback past its deadline_at is accepted automatically', 'status');
  }
  const at = isoMillis(now);
  return { ...chargeback, status: to, updatedAt: at, ...(to === 'disputed' ? { dispute: { submitted_at: at, evidence } } : {}) };
}

/** A merchant can still answer it (accept, dispute, upload evidence): `open`, before deadline_at; 422 `status` otherwise. */
export function requireAnswerable(chargeback: Chargeback, now: Date): void {
  if (chargeback.status !== 'open') throw new BusinessRuleError(`A chargeback in status ${chargeback.status} can no longer be answered`, 'status');
  if (now.getTime() >= Date.parse(chargeback.deadlineAt)) throw new BusinessRuleError('deadline_at has passed: the chargeback is accepted automatically', 'status');
}

/**
 * The first reminder a chargeback opened at `now` is owed: 72 hours before its deadline, or,
 * opened inside the last 24 hours, only the 24-hour one; none once the deadline has passed.
 */
const HOUR = 3_600_000;

function firstReminder(deadlineAt: string, now: Date): ReminderHours | undefined {
  const left = Date.parse(deadlineAt) - now.getTime();
  if (left <= 0) return undefined;
  return left <= 24 * HOUR ? 24 : 72;
}

/** When `hours` are left before the chargeback's deadline. */
export const reminderDueAt = (chargeback: Pick<Chargeback, 'deadlineAt'>, hours: ReminderHours) => isoMillis(Date.parse(chargeback.deadlineAt) - hours * HOUR);

/**
 * The reminder to send at `now`, if any: the window the chargeback is in (72 or 24 hours left),
 * once. A sweep that runs late sends the window it finds (a chargeback with 20 hours left that
 * never had its 72-hour reminder gets the 24-hour one only); none past the deadline.
 */
export function dueReminder(chargeback: Chargeback, now: Date): ReminderHours | undefined {
  if (chargeback.status !== 'open' || chargeback.nextReminderHours === undefined) return undefined;
  const left = Date.parse(chargeback.deadlineAt) - now.getTime();
  if (left <= 0 || left > chargeback.nextReminderHours * HOUR) return undefined;
  return left <= 24 * HOUR ? 24 : 72;
}

/** The chargeback once the reminder of `hours` is sent: the 24-hour one follows the 72-hour one. */
export function reminded(chargeback: Chargeback, hours: ReminderHours): Chargeback {
  const { nextReminderHours: _sent, ...rest } = chargeback;
  return hours === 72 ? { ...rest, nextReminderHours: 24 } : rest;
}

/** What a chargeback in `status` holds of the balance: its amount, except once won. */
const heldBy = (chargeback: Chargeback, status: ChargebackStatus | undefined) => (status === undefined || status === 'won' ? 0 : chargeback.amountMinor);

/**
 * The balance movement of a chargeback going from `from` (undefined: created) to its current
 * status: opening debits its amount, winning gives it back, losing a won chargeback debits it again.
 */
export function balanceDeltaOf(from: ChargebackStatus | undefined, chargeback: Chargeback): number {
  return heldBy(chargeback, from) - heldBy(chargeback, chargeback.status);
}


// --- input ------------------------------------------------------------------------------------

const ReasonInput = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ code: z.string().check(z.minLength(1), z.maxLength(64)), description: z.string().check(z.maxLength(500)) }),
    { id: 'ChargebackReason' },
  ))();

const AmountInput = /* @__PURE__ */ (() =>
  z.withMeta(
    amountInput({
      value: z.withMeta(positiveAmountValue, { example: '10.00' }),
      currency: z.withMeta(currencyCode, { example: 'EUR' }),
    }),
    { id: 'ChargebackAmountInput' },
  ))();

/** POST /v1/test_helpers/payments/:id/chargebacks (product-decisions §10). */
export const TestChargebackBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ reason: z.optional(ReasonInput), amount: z.optional(AmountInput), deadline_at: z.optional(datetimeInput) }),
    { id: 'TestChargebackBody' },
  ))();

/** POST /v1/test_helpers/chargebacks/:id/transitions. */
export const ChargebackTransitionBody = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ status: z.enum(['accepted', 'disputed', 'won', 'lost']) }), {
    id: 'ChargebackTransitionBody',
  }))();

const evidenceText = /* @__PURE__ */ (() => boundedText('each evidence text', 1, LIMITS.evidence.textLength))();

const hasEvidence = (evidence: Evidence) => EVIDENCE_TEXTS.some((field) => evidence[field] !== undefined) || (evidence.documents?.length ?? 0) > 0;
const textsOf = (evidence: Evidence) => EVIDENCE_TEXTS.flatMap((field) => evidence[field] ?? []);

/**
 * How many characters beyond U+FFFF (four bytes in UTF-8) five full texts may hold before they
 * reach LIMITS.evidence.textsBytes: every other character takes at most three bytes.
 */
const EVIDENCE_TEXTS_BEYOND_BMP = LIMITS.evidence.textsBytes - EVIDENCE_TEXTS.length * LIMITS.evidence.textLength * 3;

/** POST /v1/chargebacks/:id/dispute (product-decisions §13); the documents are checked against the store by the use case. */
export const DisputeBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      evidence: z.withMeta(
        z
          .strictObject({
            ...(Object.fromEntries(EVIDENCE_TEXTS.map((field) => [field, z.optional(evidenceText)])) as Record<EvidenceText, z.ZodMiniOptional<z.ZodMiniString>>),
            documents: z.optional(
              z.withMeta(
                z.array(z.string()).check(
                  z.refine(
                    ...businessRule<string[]>(
                      (ids) => ids.length <= LIMITS.evidence.documents,
                      `evidence.documents names at most ${LIMITS.evidence.documents} documents`,
                    ),
                  ),
                  z.refine(...businessRule<string[]>((ids) => new Set(ids).size === ids.length, 'evidence.documents names each document once')),
                ),
                { maxItems: LIMITS.evidence.documents, uniqueItems: true },
              ),
            ),
          })
          .check(
            z.refine(...businessRule<Evidence>(hasEvidence, 'evidence needs at least one text or document')),
            z.refine(
              ...businessRule<Evidence>(
                (evidence) => textsOf(evidence).reduce((bytes, text) => bytes + Buffer.byteLength(text), 0) <= LIMITS.evidence.textsBytes,
                `the evidence texts together are at most ${LIMITS.evidence.textsBytes} bytes in UTF-8 (five texts of ${LIMITS.evidence.textLength} characters reach it only with more than ${EVIDENCE_TEXTS_BEYOND_BMP} characters beyond U+FFFF, such as emoji)`,
              ),
            ),
          ),
        {
          id: 'EvidenceInput',
          description:
            `At least one field; each text 1 to ${LIMITS.evidence.textLength} characters (Unicode code points), the texts together at most ${LIMITS.evidence.textsBytes} bytes in UTF-8 ` +
            `(five full texts reach it only with more than ${EVIDENCE_TEXTS_BEYOND_BMP} characters beyond U+FFFF, such as emoji); at most ${LIMITS.evidence.documents} documents ` +
            '(ids of `POST /v1/chargebacks/{id}/documents`, uploaded).',
        },
      ),
    }),
    { id: 'DisputeRequest' },
  ))();

/** The types a dispute document may have: what the acquirer takes (Adyen's defense documents). */
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
const isDocumentType = (value: string): value is DocumentContentType => (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(value);

/** POST /v1/chargebacks/:id/documents: a media type that is not one of the three is a 422, a malformed one a 400. */
export const DocumentBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      filename: boundedText('filename', 1, LIMITS.evidence.filenameLength),
      content_type: z.withMeta(
        z
          .string()
          .check(
            z.regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'content_type must be a media type such as application/pdf'),
            z.refine(...businessRule<string>(isDocumentType, `content_type must be one of ${DOCUMENT_CONTENT_TYPES.join(', ')}`)),
          ),
        { enum: [...DOCUMENT_CONTENT_TYPES], example: 'application/pdf' },
      ),
      size: z.withMeta(
        z.int().check(
          z.refine(
            ...businessRule<number>(
              (value) => value >= 1 && value <= LIMITS.evidence.documentBytes,
              `size is 1 to ${LIMITS.evidence.documentBytes} bytes`,
            ),
          ),
        ),
        { minimum: 1, maximum: LIMITS.evidence.documentBytes, description: 'The exact size of the file in bytes; the upload must have it.', example: 48213 },
      ),
    }),
    { id: 'DisputeDocumentRequest' },
  ))();
export type DocumentBody = z.infer<typeof DocumentBody>;

/**
 * An acquirer's name, reference or case id. Bounded so that every fed chargeback fits its item,
 * its event and its reference claim's key (DynamoDB: 2,048 bytes) whatever the characters.
 */
const acquirerField = /* @__PURE__ */ (() => z.string().check(z.minLength(1), z.maxLength(100)))();

/** One entry of the acquirer feed (`ops chargeback ingest`, the feed function). */
export const FeedChargeback = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      payment_id: z.string().check(z.refine((value) => isId('payment', value), 'must be a pay_ id')),
      reason: ReasonInput,
      amount: AmountInput,
      deadline_at: z.optional(datetimeInput),
      acquirer: z.optional(z.strictObject({ name: acquirerField, reference: acquirerField, case_id: acquirerField })),
      consumer_account_number: z.optional(z.string().check(z.minLength(1), z.maxLength(34))),
    }),
    { id: 'FeedChargeback' },
  ))();

export const ChargebackFeed = /* @__PURE__ */ (() => z.withMeta(z.strictObject({ chargebacks: z.array(FeedChargeback) }), { id: 'ChargebackFeed' }))();
export type ChargebackFeed = z.infer<typeof ChargebackFeed>;
type FeedEntry = ChargebackFeed['chargebacks'][number];

/**
 * What names a fed chargeback across runs of the feed, so that none is applied twice: the
 * acquirer's name and reference; for an entry without them, its content and how many identical
 * entries come before it in the file (two identical entries of one file are two chargebacks).
 */
export type FeedIdentity = { acquirer: string; reference: string } | { entryDigest: string };

export function feedIdentities(entries: FeedEntry[]): FeedIdentity[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    if (entry.acquirer) return { acquirer: entry.acquirer.name, reference: entry.acquirer.reference };
    // The parsed entry: its fields in the schema's order, whatever their order in the file.
    const content = JSON.stringify(entry);
    const before = seen.get(content) ?? 0;
    seen.set(content, before + 1);
    return { entryDigest: createHash('sha256').update(`${before}#${content}`).digest('base64url') };
  });
}

export interface OpenChargebackInput {
  id: string;
  payment: Payment;
  reason?: Reason;
  amount?: { value: string; currency: string };
  deadlineAt?: string;
  acquirer?: Acquirer;
  consumerAccountNumber?: string;
  /** Opened by an acquirer's dispute notification: its instant. */
  acquirerEventAt?: string;
  now: Date;
}

/** Used when the feed names no reason (test helper): Mastercard's "no cardholder authorization". */
export const DEFAULT_REASON: Reason = { code: '4837', description: 'No cardholder authorization' };
/** Used when the feed gives no account number: Visa's public test card, stored masked. */
export const DEFAULT_ACCOUNT_NUMBER = '4111111111111111';

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

/** An acquirer block for a chargeback the feed gave none for: 23-digit ARN, numeric case id. */
export function generatedAcquirer(mode: Mode): Acquirer {
  return { name: mode === 'test' ? 'Test Acquirer' : 'Acquirer', reference: digits(23), case_id: `CB${digits(10)}` };
}

/**
 * A new `open` chargeback of a paid payment. Default amount: the payment's; default deadline:
 * 7 days after creation. The amount is in the payment's currency and at most its amount (422).
 */
/** Money leaves once (decisions §6): the chargebacks of a payment that are not won stay within its amount. */
export const CHARGEBACKS_EXCEED_PAYMENT = "amount.value cannot exceed the payment amount less its other chargebacks that are not won";

export function openChargeback(input: OpenChargebackInput): Chargeback {
  const { payment, now } = input;
  if (payment.status !== 'paid') throw new BusinessRuleError('Only a paid payment can be charged back', 'payment_id');
  const currency = input.amount ? normalizeCurrency(input.amount.currency) : payment.currency;
  if (currency !== payment.currency) {
    throw new BusinessRuleError(`amount.currency must be the payment's currency ${payment.currency}`, 'amount.currency');
  }
  const amountMinor = input.amount ? parseMinor(input.amount.value) : payment.amountMinor;
  // A chargeback takes money: one of nothing, or a negative one, would give money back (§6).
  if (amountMinor <= 0) throw new BusinessRuleError('amount.value must be positive', 'amount.value');
  if (amountMinor > payment.amountMinor) {
    throw new BusinessRuleError('amount.value cannot exceed the payment amount', 'amount.value');
  }
  if (amountMinor > payment.amountMinor - (payment.chargedBackMinor ?? 0)) {
    throw new BusinessRuleError(CHARGEBACKS_EXCEED_PAYMENT, 'amount.value');
  }
  const at = isoMillis(now);
  const deadlineAt = isoMillis(input.deadlineAt ? new Date(input.deadlineAt) : now.getTime() + DEFAULT_DEADLINE_DAYS * 86_400_000);
  const nextReminderHours = firstReminder(deadlineAt, now);
  return {
    id: input.id,
    orgId: payment.orgId,
    mode: payment.mode,
    acceptorId: payment.acceptorId,
    paymentId: payment.id,
    status: 'open',
    reason: input.reason ?? DEFAULT_REASON,
    amountMinor,
    currency,
    deadlineAt,
    ...(nextReminderHours ? { nextReminderHours } : {}),
    acquirer: input.acquirer ?? generatedAcquirer(payment.mode),
    consumerAccountNumber: maskAccountNumber(input.consumerAccountNumber ?? DEFAULT_ACCOUNT_NUMBER),
    ...(payment.webhookUrl ? { paymentWebhookUrl: payment.webhookUrl } : {}),
    ...(input.acquirerEventAt ? { acquirerEventAt: input.acquirerEventAt } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

// --- output -----------------------------------------------------------------------------------

/** The list item of GET /v1/chargebacks and GET /v1/payments/:id/chargebacks: exactly these fields. */
export const ChargebackListItemSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      object: z.literal('chargeback'),
      id: z.string(),
      payment_id: z.string(),
      status: z.enum(CHARGEBACK_STATUSES),
      reason: z.strictObject({ code: z.string(), description: z.string() }),
      amount: AmountSchema,
      deadline_at: DatetimeSchema,
      created_at: DatetimeSchema,
      links: z.strictObject({ api: LinkSchema }),
    }),
    { id: 'ChargebackListItem' },
  ))();

/** What was submitted with a dispute, as the API shows it. */
const EvidenceSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...(Object.fromEntries(EVIDENCE_TEXTS.map((field) => [field, z.optional(z.string())])) as Record<EvidenceText, z.ZodMiniOptional<z.ZodMiniString>>),
      documents: z.optional(z.array(z.string())),
    }),
    { id: 'Evidence' },
  ))();

/** GET /v1/chargebacks/:id, the test helpers' answers and every chargeback event's `data`. */
export const ChargebackSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...ChargebackListItemSchema.shape,
      acquirer: z.strictObject({ name: z.string(), reference: z.string(), case_id: z.string() }),
      dispute: z.optional(z.strictObject({ submitted_at: DatetimeSchema, evidence: EvidenceSchema })),
      consumer_account_number: z.string(),
      updated_at: DatetimeSchema,
      links: z.strictObject({ api: LinkSchema, payment: LinkSchema }),
    }),
    { id: 'Chargeback' },
  ))();

export type ChargebackListItem = z.infer<typeof ChargebackListItemSchema>;
export type ChargebackResource = z.infer<typeof ChargebackSchema>;

const apiHref = (urls: PublicUrls, id: string) => `${urls.base}/v1/chargebacks/${id}`;

export function chargebackListItem(chargeback: Chargeback, urls: PublicUrls): ChargebackListItem {
  return {
    object: 'chargeback',
    id: chargeback.id,
    payment_id: chargeback.paymentId,
    status: chargeback.status,
    reason: { code: chargeback.reason.code, description: chargeback.reason.description },
    amount: moneyOut({ minor: chargeback.amountMinor, currency: chargeback.currency }, 'upper'),
    deadline_at: chargeback.deadlineAt,
    created_at: chargeback.createdAt,
    links: { api: jsonLink(apiHref(urls, chargeback.id)) },
  };
}

export function chargebackResource(chargeback: Chargeback, urls: PublicUrls): ChargebackResource {
  const { object, id, payment_id, status, reason, amount, deadline_at, created_at, links } = chargebackListItem(chargeback, urls);
  return {
    object,
    id,
    payment_id,
    status,
    reason,
    amount,
    deadline_at,
    acquirer: chargeback.acquirer,
    ...(chargeback.dispute ? { dispute: chargeback.dispute } : {}),
    consumer_account_number: chargeback.consumerAccountNumber,
    created_at,
    updated_at: chargeback.updatedAt,
    links: { api: links.api, payment: jsonLink(`${urls.base}/v1/payments/${chargeback.paymentId}`) },
  };
}

/**
 * The chargeback as its events carry it: the full object, except that a dispute's evidence names
 * its documents only. Its texts (up to five of 20,000 characters) would pass the 64 KB an event
 * may hold (LIMITS.eventBytes); a receiver reads them with GET /v1/chargebacks/:id.
 */
export const ChargebackEventSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...ChargebackSchema.shape,
      dispute: z.optional(z.strictObject({ submitted_at: DatetimeSchema, evidence: z.strictObject({ documents: z.optional(z.array(z.string())) }) })),
    }),
    { id: 'ChargebackEventData' },
  ))();

/** `transactions.chargeback.deadline_approaching`: the chargeback and how many hours are left (72 or 24). */
const ChargebackReminderSchema = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ ...ChargebackEventSchema.shape, hours_left: z.union([z.literal(72), z.literal(24)]) }), { id: 'ChargebackDeadlineApproaching' }))();

export const CHARGEBACK_REMINDER_EVENT = 'transactions.chargeback.deadline_approaching';

/** Every chargeback event: `transactions.chargeback.<status>` (product-decisions §7) and the deadline reminder (§13). */
export const CHARGEBACK_EVENTS = /* @__PURE__ */ (() => ({
  ...statusFamily('transactions.chargeback.', CHARGEBACK_STATUSES, ChargebackEventSchema, (status) =>
    status === 'open' ? 'A chargeback was received (`open`): act before `deadline_at`.' : `A chargeback became \`${status}\`.`,
  ),
  [CHARGEBACK_REMINDER_EVENT]: {
    data: ChargebackReminderSchema,
    description: 'An `open` chargeback has 72 hours left before `deadline_at`, then 24 hours (`hours_left`): each sent once; none once it is answered.',
  },
}))();

function chargebackEventData(chargeback: Chargeback, urls: PublicUrls): z.infer<typeof ChargebackEventSchema> {
  const { dispute, ...resource } = chargebackResource(chargeback, urls);
  if (!dispute) return resource;
  const { documents } = dispute.evidence;
  return { ...resource, dispute: { submitted_at: dispute.submitted_at, evidence: documents ? { documents } : {} } };
}

/** A chargeback event, also sent to the payment's webhook_url. */
export function chargebackEvent(chargeback: Chargeback, urls: PublicUrls): OutboxEvent {
  const type = `transactions.chargeback.${chargeback.status}` satisfies keyof typeof CHARGEBACK_EVENTS;
  return resourceEvent(type, chargeback, chargebackEventData(chargeback, urls), { targetUrl: chargeback.paymentWebhookUrl, at: new Date(chargeback.updatedAt) });
}

/** The reminder that `hours` are left, sent where the chargeback's other events go. */
export function reminderEvent(chargeback: Chargeback, hours: ReminderHours, urls: PublicUrls, now: Date): OutboxEvent {
  const data: z.infer<typeof ChargebackReminderSchema> = { ...chargebackEventData(chargeback, urls), hours_left: hours };
  return resourceEvent(CHARGEBACK_REMINDER_EVENT satisfies keyof typeof CHARGEBACK_EVENTS, chargeback, data, { targetUrl: chargeback.paymentWebhookUrl, at: now });
}

export const ChargebackListSchema = /* @__PURE__ */ (() => pageSchema(ChargebackListItemSchema, 'ChargebackList', 'A page of chargebacks, newest first.'))();

/** The `{has_more, data}` answer of both chargeback lists. */
export function chargebackPage(page: { items: Chargeback[]; hasMore: boolean }, urls: PublicUrls): z.infer<typeof ChargebackListSchema> {
  return { has_more: page.hasMore, data: page.items.map((item) => chargebackListItem(item, urls)) };
}
