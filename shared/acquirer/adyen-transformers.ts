import { createHash } from 'node:crypto';
import type {
  CreateCheckoutSessionRequest,
  CreateCheckoutSessionResponse,
  PaymentCancelRequest,
  PaymentCaptureRequest,
  PaymentRefundRequest,
} from '@adyen/api-library/lib/src/typings/checkout/models';
import type {
  AcceptDisputeRequest,
  DefendDisputeRequest,
  DefenseReasonsResponse,
  DisputeServiceResult,
  SupplyDefenseDocumentRequest,
} from '@adyen/api-library/lib/src/typings/disputes/models';
import {
  AcquirerRefusedError,
  AcquirerUnavailableError,
  type AcquirerNotification,
  type AuthorisedPayment,
  type Decline,
  type DefenseDocument,
  type DefenseDocumentRequirement,
  type DefenseReason,
  type DisputeAtAcquirer,
  type HostedPayment,
  type HostedPaymentRequest,
  type ModificationReceipt,
  type RefundRequest,
} from '../domain/acquirer';
import { fromCurrencyMinorUnits, toCurrencyMinorUnits, type Money } from '../money';
import { boundedIsoMillis } from '../time';
import * as z from '../zod';

/**
 * Translations between the acquirer port's words and Adyen's shapes (the library's request and
 * response types, and the standard webhooks' items), in the spirit of hyperswitch's
 * `connectors/adyen/transformers.rs`. Pure functions: the services in `adyen-payments.ts`,
 * `adyen-disputes.ts` and `adyen-notifications.ts` send and receive what these build.
 */

/** Adyen counts in each currency's own minor unit (JPY in yen, KWD in fils): converted exactly by the money module. */
const amountOf = (money: Money) => ({ value: toCurrencyMinorUnits(money), currency: money.currency });

/** A Hosted Checkout session (§12): the payment id as reference, capture held back for the service. */
export function sessionRequest(request: HostedPaymentRequest): CreateCheckoutSessionRequest {
  return {
    mode: 'hosted' as CreateCheckoutSessionRequest.ModeEnum,
    reference: request.paymentId,
    amount: amountOf(request.amount),
    merchantAccount: request.merchantAccount,
    returnUrl: request.returnUrl,
    expiresAt: new Date(request.expiresAt),
    additionalData: { manualCapture: 'true' },
  };
}

export function hostedPayment(session: CreateCheckoutSessionResponse): HostedPayment {
  if (!session.url) throw new AcquirerUnavailableError('a hosted session without its url');
  return { id: session.id, url: session.url, expiresAt: new Date(session.expiresAt).toISOString() };
}

/**
 * Adyen keeps an idempotency key for the company account: an authorisation's capture and cancel
 * are one request each. Keyed by the authorisation (its pspReference is unique at Adyen), not the
 * payment id: a payment paid twice on two pages has two authorisations, each cancelled on its own.
 */
export const captureKey = (payment: AuthorisedPayment) => `${payment.acquirerReference}.capture`;
export const cancelKey = (payment: AuthorisedPayment) => `${payment.acquirerReference}.cancel`;

export function captureRequest(payment: AuthorisedPayment, amount: Money): PaymentCaptureRequest {
  return { amount: amountOf(amount), merchantAccount: payment.merchantAccount, reference: payment.paymentId };
}

export function cancelRequest(payment: AuthorisedPayment): PaymentCancelRequest {
  return { merchantAccount: payment.merchantAccount, reference: payment.paymentId };
}

/** The refund id is the refund's reference, so its notifications name it (even one that overtakes this request's answer). */
export function refundRequest(request: RefundRequest): PaymentRefundRequest {
  return { amount: amountOf(request.amount), merchantAccount: request.payment.merchantAccount, reference: request.refundId };
}

export const receipt = (answer: { pspReference: string }): ModificationReceipt => ({ acquirerReference: answer.pspReference });

export function disputeRequest(dispute: DisputeAtAcquirer): AcceptDisputeRequest {
  return { disputePspReference: dispute.disputeReference, merchantAccountCode: dispute.merchantAccount };
}

export function supplyRequest(dispute: DisputeAtAcquirer, document: DefenseDocument): SupplyDefenseDocumentRequest {
  return {
    ...disputeRequest(dispute),
    defenseDocuments: [{ defenseDocumentTypeCode: document.typeCode, contentType: document.contentType, content: Buffer.from(document.content).toString('base64') }],
  };
}

export function defendRequest(dispute: DisputeAtAcquirer, reasonCode: string): DefendDisputeRequest {
  return { ...disputeRequest(dispute), defenseReasonCode: reasonCode };
}

/** The Dispute Service answers a refusal with 200 and `success: false`. */
export function settled(result: DisputeServiceResult | undefined): void {
  if (!result?.success) throw new AcquirerRefusedError(result?.errorMessage || 'the dispute service gave no reason');
}

const REQUIREMENTS: Record<string, DefenseDocumentRequirement> = {
  Required: 'required',
  OneOrMore: 'one_or_more',
  Optional: 'optional',
  AlternativeRequired: 'alternative_required',
};

/** Adyen's generic defense reason: the material supplied as `DefenseMaterial`, no argument of its own. */
const GENERIC_REASON = 'SupplyDefenseMaterial';

export function defenseReasons(answer: DefenseReasonsResponse): DefenseReason[] {
  return (answer.defenseReasons ?? []).map((reason) => ({
    code: reason.defenseReasonCode,
    generic: reason.defenseReasonCode === GENERIC_REASON,
    satisfied: reason.satisfied,
    documentTypes: (reason.defenseDocumentTypes ?? []).map((type) => ({
      code: type.defenseDocumentTypeCode,
      // A level this adapter does not know yet is treated as the strictest one.
      requirement: REQUIREMENTS[type.requirementLevel] ?? 'required',
      supplied: type.available,
    })),
  }));
}

/**
 * The fields of a standard webhook's item that the HMAC signs or that the translation reads
 * (Webhooks v1 `NotificationRequestItem`). Any event code passes: Adyen adds codes over time,
 * and an item of an event the service does not act on is still signed and acknowledged.
 */
const NotificationBatchSchema = /* @__PURE__ */ (() =>
  z.object({
    live: z.optional(z.string()),
    notificationItems: z.array(
      z.object({
        NotificationRequestItem: z.object({
          pspReference: z.string().check(z.minLength(1)),
          originalReference: z.optional(z.string()),
          merchantAccountCode: z.string(),
          merchantReference: z.string(),
          eventCode: z.string(),
          eventDate: z.string(),
          success: z.enum(['true', 'false']),
          reason: z.optional(z.string()),
          amount: z.object({ value: z.int(), currency: z.string() }),
          additionalData: z.optional(z.record(z.string(), z.unknown())),
        }),
      }),
    ),
  }))();

export type NotificationItem = z.infer<typeof NotificationBatchSchema>['notificationItems'][number]['NotificationRequestItem'];

/** The items of a batch, or undefined when the body is not a standard webhook batch. */
export function notificationItems(body: string): NotificationItem[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const batch = NotificationBatchSchema.safeParse(parsed);
  return batch.success ? batch.data.notificationItems.map((wrapper) => wrapper.NotificationRequestItem) : undefined;
}

/**
 * Adyen's refusal reasons (docs.adyen.com, "Refusal reasons") a customer may be told in words of
 * their own; any other (Refused, Blocked Card, FRAUD, Issuer Suspected Fraud…) is `declined`.
 */
const DECLINE_OF: Record<string, Decline> = {
  'Not enough balance': 'insufficient_funds',
  'Withdrawal amount exceeded': 'insufficient_funds',
  'Withdrawal count exceeded': 'insufficient_funds',
  'Expired Card': 'expired_card',
  'Invalid Card Number': 'card_details',
  'CVC Declined': 'card_details',
  'AVS Declined': 'card_details',
  'Invalid Pin': 'card_details',
  'Pin tries exceeded': 'card_details',
  '3D Not Authenticated': 'authentication',
  'Authentication required': 'authentication',
  'Shopper Cancelled': 'authentication',
  'Issuer Unavailable': 'try_again_later',
  'Acquirer Error': 'try_again_later',
  'Not Submitted': 'try_again_later',
};

const MODIFICATIONS = new Set(['CAPTURE', 'CAPTURE_FAILED', 'CANCELLATION', 'REFUND', 'REFUND_FAILED']);
const DISPUTE_OPENED = new Set(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK']);
const DISPUTE_WON = new Set(['CHARGEBACK_REVERSED', 'PREARBITRATION_WON']);
const DISPUTE_LOST = new Set(['SECOND_CHARGEBACK', 'PREARBITRATION_LOST']);

type Base = Pick<AcquirerNotification, 'id' | 'occurredAt' | 'merchantAccount' | 'amount'>;

/**
 * A notification's identity: Adyen's (`eventCode:pspReference:success`, the same in a repeat)
 * and a digest of the rest of what its HMAC signs (the original reference, the merchant account
 * and reference, the amount). A repeat, signed over the same values, is the same notification;
 * one that names another account, payment or amount under the same three values is another,
 * and never passes for the one Adyen will send (which would then be dropped as a repeat).
 */
export function notificationIdentity(item: Pick<NotificationItem, 'eventCode' | 'pspReference' | 'success' | 'originalReference' | 'merchantAccountCode' | 'merchantReference' | 'amount'>): string {
  const signed = [item.originalReference ?? '', item.merchantAccountCode, item.merchantReference, item.amount.value, item.amount.currency].join(':');
  return `${item.eventCode}:${item.pspReference}:${item.success}:${createHash('sha256').update(signed, 'utf8').digest('base64url').slice(0, 22)}`;
}

const instant = (value: string) => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : boundedIsoMillis(date);
};

/**
 * One item in the service's words: null when the service does not act on its event, undefined
 * when it lacks what its event needs (a modification without the payment it modifies, a date
 * that is not one), which refuses the batch rather than act on half of it.
 */
export function translate(item: NotificationItem): AcquirerNotification | null | undefined {
  const occurredAt = instant(item.eventDate);
  if (!occurredAt) return undefined;
  const base: Base = {
    id: notificationIdentity(item),
    occurredAt,
    merchantAccount: item.merchantAccountCode,
    // An amount no amount here equals (KWD's third digit) stays what it is: nothing, matching nothing.
    amount: fromCurrencyMinorUnits(item.amount.value, item.amount.currency) ?? null,
  };
  if (item.eventCode === 'AUTHORISATION') {
    const payment = { ...base, paymentId: item.merchantReference, acquirerReference: item.pspReference };
    const reason = item.reason ?? '';
    return item.success === 'true' ? { kind: 'payment.authorized', ...payment } : { kind: 'payment.refused', reason, decline: DECLINE_OF[reason] ?? 'declined', ...payment };
  }
  if (MODIFICATIONS.has(item.eventCode)) return item.originalReference ? modification(item, base, item.originalReference) : undefined;
  return item.success === 'true' ? dispute(item, base) : null;
}

/** A capture, cancel or refund: `originalReference` is the payment, `merchantReference` the reference the adapter sent. */
function modification(item: NotificationItem, base: Base, paymentReference: string): AcquirerNotification {
  const reason = item.reason ?? '';
  const succeeded = item.success === 'true';
  const ofPayment = { ...base, paymentId: item.merchantReference, acquirerReference: paymentReference, modificationReference: item.pspReference };
  const ofRefund = { ...base, refundId: item.merchantReference, acquirerReference: item.pspReference, paymentAcquirerReference: paymentReference };
  switch (item.eventCode) {
    case 'CAPTURE':
      return succeeded ? { kind: 'payment.captured', ...ofPayment } : { kind: 'payment.capture_failed', reason, ...ofPayment };
    case 'CAPTURE_FAILED':
      return { kind: 'payment.capture_failed', reason, ...ofPayment };
    case 'CANCELLATION':
      return succeeded ? { kind: 'payment.canceled', ...ofPayment } : { kind: 'payment.cancel_failed', reason, ...ofPayment };
    case 'REFUND':
      return succeeded ? { kind: 'refund.refunded', ...ofRefund } : { kind: 'refund.failed', reason, ...ofRefund };
    default:
      return { kind: 'refund.failed', reason, ...ofRefund };
  }
}

/** A dispute's notifications share its own pspReference; `originalReference` is the disputed payment. */
function dispute(item: NotificationItem, base: Base): AcquirerNotification | null | undefined {
  const about = {
    ...base,
    disputeReference: item.pspReference,
    paymentId: item.merchantReference,
    paymentAcquirerReference: item.originalReference ?? null,
    // Adyen's notifications carry no case id of their own: the disputed payment's reference names the case.
    caseId: item.originalReference ?? item.pspReference,
    reason: { code: extra(item, 'chargebackReasonCode') ?? '', description: item.reason ?? '' },
  };
  if (DISPUTE_WON.has(item.eventCode)) return { kind: 'dispute.won', ...about };
  if (DISPUTE_LOST.has(item.eventCode)) return { kind: 'dispute.lost', ...about };
  if (!DISPUTE_OPENED.has(item.eventCode)) return null;
  const deadline = extra(item, 'defensePeriodEndsAt');
  const deadlineAt = deadline === undefined ? null : instant(deadline);
  if (deadlineAt === undefined) return undefined;
  return { kind: 'dispute.opened', ...about, deadlineAt };
}

function extra(item: NotificationItem, name: string): string | undefined {
  const value = item.additionalData?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
