/**
 * The names the service emits and the stack alarms and graphs on, declared once so both sides
 * agree. Dimensions are bounded sets (a route, a reason, an outcome, a job), never an
 * organization: per-organization dimensions would be one billed metric per merchant.
 */
export const SERVICE_NAME = 'payment-operations';

/**
 * The namespace of a stage's metrics (lib/stages.ts): stages that share an account keep their
 * metrics, and so their alarms, apart. The stack hands it to every function as
 * `METRICS_NAMESPACE` and alarms and graphs on the same.
 */
export const metricsNamespace = (stage: string) => `PaymentOperations/${stage}`;

export const METRIC = {
  checkoutsOpened: 'CheckoutsOpened',
  /** Dimension `Reason`: expired, inactive, limit_reached. */
  checkoutsDenied: 'CheckoutsDenied',
  paymentsPaid: 'PaymentsPaid',
  linksAutoInactivated: 'PaymentLinksAutoInactivated',
  linksExpired: 'PaymentLinksExpired',
  refundsCreated: 'RefundsCreated',
  refundsHeld: 'RefundsHeld',
  refundsCanceled: 'RefundsCanceled',
  refundsFailed: 'RefundsFailed',
  chargebacksOpened: 'ChargebacksOpened',
  chargebacksAutoAccepted: 'ChargebacksAutoAccepted',
  /** Dimension `Outcome`: delivered, retry, dead, skipped. */
  webhookAttempts: 'WebhookAttempts',
  webhookAttemptLatency: 'WebhookAttemptLatency',
  idempotentReplays: 'IdempotentReplays',
  /** Dimension `Route` (the API Gateway route key). */
  clientErrors: 'ClientErrors',
  /** Dimension `Route`. */
  serverErrors: 'ServerErrors',
  eventsPublishFailed: 'EventsPublishFailed',
  /** Dimension `Job`. */
  jobFailures: 'JobFailures',
  oldestHeldRefundAge: 'OldestHeldRefundAgeSeconds',
  /** Dimension `Reason`: credentials, signature, malformed (a notification batch refused unread). */
  acquirerNotificationsRefused: 'AcquirerNotificationsRefused',
  /**
   * Dimension `Reason`: account, reference, amount, state (UNMATCHED_REASONS): notifications
   * that name nothing the service can apply them to, processed without changing anything.
   */
  acquirerNotificationsUnmatched: 'AcquirerNotificationsUnmatched',
  /** Dimension `Reason`: duplicate, older (NO_CHANGE_REASONS): a repeat of a notification applied, or older news. */
  acquirerNotificationsNoChange: 'AcquirerNotificationsNoChange',
  /** Dimension `Operation`: capture, cancel (the acquirer reported the modification failed). */
  acquirerModificationsFailed: 'AcquirerModificationsFailed',
  /** Captures and cancels no longer retried: the acquirer refused them or stayed unreachable. */
  acquirerCommandsParked: 'AcquirerCommandsParked',
  /** Dimension `Operation`: one of ACQUIRER_CALLS (the acquirer could not be reached). */
  acquirerUnavailable: 'AcquirerUnavailable',
} as const;

/** The calls the service makes to the acquirer: the `Operation` of AcquirerUnavailable (`defend_dispute`: the reasons, the documents and the defense). */
export const ACQUIRER_CALLS = ['session', 'capture', 'cancel', 'refund', 'accept_dispute', 'defend_dispute'] as const;

export const DIMENSION = { reason: 'Reason', outcome: 'Outcome', route: 'Route', job: 'Job', operation: 'Operation' } as const;
