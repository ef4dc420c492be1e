import { BusinessRuleError, DependencyUnavailableError } from '../errors';
import type { Money } from '../money';

/**
 * The acquirer port (product-decisions §12 and §13): what the service asks of the acquirer that
 * moves live money, and what the acquirer tells it back, in the service's own words (payment,
 * refund, dispute). Adyen is its one adapter today (`shared/acquirer/adyen-*.ts`); nothing outside
 * that adapter knows Adyen's shapes. Amounts are minor units; instants are ISO 8601 strings, so a
 * notification can be stored as it is and processed later.
 *
 * Every operation is answered at once and settled later: the outcome of a payment, capture,
 * cancel or refund arrives as an `AcquirerNotification`.
 */

/** Opening the acquirer's hosted payment page for one payment; the capture is held back. */
export interface HostedPaymentRequest {
  /** The payment's id: the acquirer's reference for it, named again in every notification about it. */
  paymentId: string;
  amount: Money;
  /** The acceptor's account at the acquirer. */
  merchantAccount: string;
  /** Where the acquirer's page sends the customer back (the thank-you page). */
  returnUrl: string;
  /** After this instant the page takes no payment. */
  expiresAt: string;
}

export interface HostedPayment {
  /** The acquirer's id of the hosted page. */
  id: string;
  /** The page the customer is sent to. */
  url: string;
  expiresAt: string;
}

/** A payment the acquirer authorised, named by the ids on both sides. */
export interface AuthorisedPayment {
  paymentId: string;
  /** The acquirer's reference of the payment (`acquirer_reference` on the API). */
  acquirerReference: string;
  merchantAccount: string;
}

export interface RefundRequest {
  /** The refund's id: the acquirer's idempotency key and its reference for the refund. */
  refundId: string;
  /** The refunded payment. */
  payment: AuthorisedPayment;
  amount: Money;
}

/** The acquirer took the request; its outcome comes by notification. */
export interface ModificationReceipt {
  /** The acquirer's reference of the capture, cancel or refund. */
  acquirerReference: string;
}

/**
 * Live payments at the acquirer. A capture and a cancel are keyed by the authorisation (retrying
 * one after a timeout repeats the same request, never a second capture), a refund by its id.
 */
export interface PaymentAcquirer {
  startHostedPayment(request: HostedPaymentRequest): Promise<HostedPayment>;
  capture(payment: AuthorisedPayment, amount: Money): Promise<ModificationReceipt>;
  /** Gives an authorisation back: the customer is never charged. */
  cancel(payment: AuthorisedPayment): Promise<ModificationReceipt>;
  refund(request: RefundRequest): Promise<ModificationReceipt>;
}

/** A dispute (a chargeback at the acquirer), named by the acquirer's reference of the dispute. */
export interface DisputeAtAcquirer {
  disputeReference: string;
  merchantAccount: string;
}

/** How much a kind of document counts for a defense reason. */
export type DefenseDocumentRequirement = 'required' | 'one_or_more' | 'optional' | 'alternative_required';

export interface DefenseReason {
  code: string;
  /**
   * The reason claims nothing beyond the material supplied (Adyen: `SupplyDefenseMaterial`):
   * the one that fits evidence that names no argument of its own.
   */
  generic: boolean;
  /** Enough documents have been supplied to defend with this reason. */
  satisfied: boolean;
  documentTypes: { code: string; requirement: DefenseDocumentRequirement; supplied: boolean }[];
}

export interface DefenseDocument {
  /** One of a defense reason's `documentTypes[].code`. */
  typeCode: string;
  /** One of the acquirer's `documentFormats`: a merchant's PNG goes as a PDF of it. */
  contentType: 'application/pdf' | 'image/jpeg';
  content: Uint8Array;
}

/** The files the acquirer takes as defense documents: media type → the largest it takes, in bytes. */
export type DefenseDocumentFormats = Readonly<Partial<Record<string, number>>>;

/**
 * Answering disputes at the acquirer (§13): accept, or supply documents and defend with one of
 * the applicable reasons. A refusal (the dispute is no longer open, the reason does not apply,
 * a required document is missing, a document the acquirer does not take) is an
 * `AcquirerRefusedError`. Documents go one per request: one file in memory at a time.
 */
export interface DisputeAcquirer {
  /** What it takes as a document: anything else is refused here before anything is sent (422). */
  readonly documentFormats: DefenseDocumentFormats;
  accept(dispute: DisputeAtAcquirer): Promise<void>;
  defenseReasons(dispute: DisputeAtAcquirer): Promise<DefenseReason[]>;
  supplyDefenseDocument(dispute: DisputeAtAcquirer, document: DefenseDocument): Promise<void>;
  defend(dispute: DisputeAtAcquirer, reasonCode: string): Promise<void>;
}

interface NotificationBase {
  /** The notification's identity: the same notification delivered again has the same id (process each id once). */
  id: string;
  /** When the event happened at the acquirer. */
  occurredAt: string;
  merchantAccount: string;
  /**
   * The amount the acquirer names; null when the service cannot hold it exactly (KWD 1.225: its
   * amounts have two decimals), so that it equals no amount here.
   */
  amount: Money | null;
}

interface AboutPayment extends NotificationBase {
  paymentId: string;
  /** The acquirer's reference of the payment. */
  acquirerReference: string;
}

interface AboutModification extends AboutPayment {
  /** The acquirer's reference of the capture or cancel (the receipt's). */
  modificationReference: string;
}

interface AboutRefund extends NotificationBase {
  refundId: string;
  /** The acquirer's reference of the refund (the receipt's). */
  acquirerReference: string;
  /** The acquirer's reference of the refunded payment. */
  paymentAcquirerReference: string;
}

interface AboutDispute extends NotificationBase {
  /** The acquirer's reference of the dispute: the same in every notification about it. */
  disputeReference: string;
  paymentId: string;
  /** The acquirer's reference of the disputed payment, when the notification names it. */
  paymentAcquirerReference: string | null;
  /** The acquirer's case id of the dispute. */
  caseId: string;
  /** The scheme's reason code and the acquirer's wording of it. */
  reason: { code: string; description: string };
}

/**
 * Why the acquirer refused a payment, as a customer may be told it (Stripe's decline codes, in
 * spirit): the acquirer's own reason is for the merchant, and a fraud suspicion is never told
 * (Adyen: do not expose refusal reasons to shoppers), so everything else is `declined`.
 */
export const DECLINES = ['insufficient_funds', 'expired_card', 'card_details', 'authentication', 'try_again_later', 'declined'] as const;
export type Decline = (typeof DECLINES)[number];

/** What the acquirer reports, in the service's words. `reason` is the acquirer's explanation. */
export type AcquirerNotification =
  | ({ kind: 'payment.authorized' } & AboutPayment)
  | ({ kind: 'payment.refused'; reason: string; decline: Decline } & AboutPayment)
  | ({ kind: 'payment.captured' } & AboutModification)
  | ({ kind: 'payment.capture_failed'; reason: string } & AboutModification)
  | ({ kind: 'payment.canceled' } & AboutModification)
  | ({ kind: 'payment.cancel_failed'; reason: string } & AboutModification)
  | ({ kind: 'refund.refunded' } & AboutRefund)
  | ({ kind: 'refund.failed'; reason: string } & AboutRefund)
  | ({
      kind: 'dispute.opened';
      /** The end of the defense period; null when the acquirer gave none (the service's default applies). */
      deadlineAt: string | null;
    } & AboutDispute)
  | ({ kind: 'dispute.won' } & AboutDispute)
  | ({ kind: 'dispute.lost' } & AboutDispute);

export type AcquirerNotificationKind = AcquirerNotification['kind'];

/** A batch of notifications as it arrived over HTTP. */
export interface NotificationDelivery {
  /** The `Authorization` header, when there was one. */
  authorization: string | undefined;
  body: string;
}

/**
 * A checked batch. Accepted: every item is signed with the configured key, and `notifications`
 * holds the items in the service's words (`ignored` counts the items of events the service does
 * not act on). Refused: nothing in it may change anything, and the acquirer delivers it again
 * until it is acknowledged.
 */
export type NotificationCheck =
  | { accepted: true; notifications: AcquirerNotification[]; ignored: number }
  | { accepted: false; reason: 'credentials' | 'signature' | 'malformed' };

export interface AcquirerNotifications {
  check(delivery: NotificationDelivery): NotificationCheck;
  /** The body that acknowledges a batch, once it is stored; the acquirer retries until it reads it. */
  readonly acknowledgement: string;
}

/**
 * The acquirer cannot be reached, timed out, or answered with a server error, a throttle or a
 * refusal of the service's own credentials: nothing happened there, and the request may be
 * retried (503 with Retry-After).
 */
export class AcquirerUnavailableError extends DependencyUnavailableError {
  constructor(
    /** What went wrong, for the logs (`timeout`, `unreachable`, `HTTP 503`): never shown to a caller. */
    readonly failure: string,
    retryAfterSeconds = 5,
  ) {
    super('The acquirer is temporarily unavailable; retry with exponential backoff', retryAfterSeconds);
  }
}

/** The acquirer refused the request (422): retrying the same request does not help. */
export class AcquirerRefusedError extends BusinessRuleError {
  constructor(
    detail: string,
    /** The acquirer's code for the refusal, when it gave one. */
    readonly code?: string,
  ) {
    super(`The acquirer refused the request: ${detail}`);
  }
}
