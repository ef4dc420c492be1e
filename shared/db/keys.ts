/**
 * Every key the service writes, in one place. docs/architecture.md explains each access
 * pattern; this file is its executable form. A "scope" is organization + mode: test and live
 * data never share a partition of any list, so one mode can never page into the other.
 */
import type { Mode } from '../auth/principal';

export const scopeOf = (orgId: string, mode: Mode) => `${orgId}#${mode}`;

export const keys = {
  organization: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'ORG' }),
  /** All organizations (ops listing and the local stack's "empty store" check). */
  organizationsPartition: 'ORGS',
  acceptor: (orgId: string, acceptorId: string) => ({ PK: `ORG#${orgId}`, SK: `ACCEPTOR#${acceptorId}` }),
  user: (userId: string) => ({ PK: `USER#${userId}`, SK: 'USER' }),
  /** API keys are found by the SHA-256 of their token; the token itself is never stored. */
  apiKeyByTokenHash: (tokenHash: string) => ({ PK: `TOKEN#${tokenHash}`, SK: 'TOKEN' }),
  apiKeyIdLookup: (keyId: string) => `KEY#${keyId}`,
  /** GSI2 on key items: a user's keys, rewritten when the user's standing changes. */
  apiKeysOfCreator: (userId: string) => `USERKEYS#${userId}`,

  paymentLink: (id: string) => ({ PK: `PL#${id}`, SK: 'PL' }),
  paymentLinkList: (scope: string) => `${scope}#PL`,
  paymentLinkStatusList: (scope: string, status: string) => `${scope}#PL#${status}`,
  /** The still-open payment of one customer (client_key cookie) on one link. */
  checkoutSession: (linkId: string, clientKey: string) => ({ PK: `PL#${linkId}`, SK: `CLIENT#${clientKey}` }),
  paymentLinkExpiryDue: 'DUE#PL_EXPIRY',

  payment: (id: string) => ({ PK: `PAY#${id}`, SK: 'PAY' }),
  paymentList: (scope: string) => `${scope}#PAY`,
  paymentStatusList: (scope: string, status: string) => `${scope}#PAY#${status}`,
  paymentsOfLink: (linkId: string) => `PL#${linkId}#PAY`,

  refund: (id: string) => ({ PK: `RF#${id}`, SK: 'RF' }),
  refundList: (scope: string) => `${scope}#RF`,
  refundsOfPayment: (paymentId: string) => `PAY#${paymentId}#RF`,
  /** Held refunds of one balance, oldest first. */
  refundHoldQueue: (scope: string, currency: string) => `DUE#HOLD#${scope}#${currency}`,
  /** Balances that have held refunds (a marker on the balance item): the process-refunds job's entry point. */
  refundHoldBalances: 'DUE#HOLD_BALANCES',
  /** Refunds in `processing`, by `{processing since}#{id}`: the process-refunds job completes them. */
  refundProcessingDue: 'DUE#RF_PROCESSING',

  chargeback: (id: string) => ({ PK: `CB#${id}`, SK: 'CB' }),
  chargebackList: (scope: string) => `${scope}#CB`,
  chargebackAcceptorList: (scope: string, acceptorId: string) => `${scope}#ACCEPTOR#${acceptorId}#CB`,
  chargebacksOfPayment: (paymentId: string) => `PAY#${paymentId}#CB`,
  chargebackDeadlineDue: 'DUE#CB_DEADLINE',
  /** An acquirer's reference of a fed chargeback, claimed once: feed replays create nothing. */
  chargebackFeedReference: (reference: string) => ({ PK: `CBREF#${reference}`, SK: 'CBREF' }),

  settlement: (id: string) => ({ PK: `STL#${id}`, SK: 'STL' }),
  settlementList: (orgId: string) => `${scopeOf(orgId, 'live')}#STL`,
  /** Alias item: settlement code -> id, read with a strongly consistent GetItem. */
  settlementCode: (orgId: string, code: string) => ({ PK: `STLCODE#${orgId}#${code}`, SK: 'STLCODE' }),
  settlementRecords: (settlementId: string) => `STL#${settlementId}#REC`,
  settlementRecordsOfType: (settlementId: string, type: string) => `STL#${settlementId}#REC#${type}`,
  settlementRecordById: (settlementId: string, recordId: string) => `STL#${settlementId}#RECID#${recordId}`,
  /** GSI3 on the settlement item: a code across organizations (ops export without --org). */
  settlementByCode: (code: string) => `STLCODE#${code}`,
  /**
   * One import's record set, `{stl}@{version}`: passed as the settlement id of the three record
   * keys above. A re-import writes a new set and switches the settlement to it atomically.
   */
  settlementRecordSet: (settlementId: string, version: string) => `${settlementId}@${version}`,

  balance: (scope: string, currency: string) => ({ PK: `BAL#${scope}#${currency}`, SK: 'BAL' }),

  event: (id: string) => ({ PK: `EVT#${id}`, SK: 'EVT' }),
  eventList: (scope: string) => `${scope}#EVT`,
  /** Events of one exact type (the events API's `type` filter). */
  eventTypeList: (scope: string, type: string) => `${scope}#EVT#${type}`,
  deliveryAttempt: (eventId: string, attemptKey: string) => ({ PK: `EVT#${eventId}`, SK: `DLV#${attemptKey}` }),

  webhookSubscription: (orgId: string, mode: Mode, id: string) => ({ PK: `ORG#${orgId}`, SK: `WHK#${mode}#${id}` }),
  webhookSubscriptionsPrefix: (mode: Mode) => `WHK#${mode}#`,
  webhookIdLookup: (id: string) => `WHK#${id}`,
  /** Signs deliveries to per-object URLs (a refund's or a payment's webhook_url) of one org + mode. */
  webhookUrlSecret: (orgId: string, mode: Mode) => ({ PK: `ORG#${orgId}`, SK: `WHSECRET#${mode}` }),
  /** One delivery of one event to one target (dedupe, outcome; locally also the queued task). */
  deliveryState: (eventId: string, deliveryKey: string) => ({ PK: `EVT#${eventId}`, SK: `DELIVERY#${deliveryKey}` }),
  /** `ops event resend`: a stream-visible request to replay the event. */
  eventResend: (eventId: string, requestId: string) => ({ PK: `EVT#${eventId}`, SK: `RESEND#${requestId}` }),
  /** Local delivery queue: deliveries waiting for their next attempt (sparse DUE index). */
  webhookRetryDue: 'DUE#WEBHOOK_RETRY',
  /** Local dead-letter store: deliveries parked after their last attempt, newest last. */
  webhookDeadLetter: (parkedAt: string, eventId: string, deliveryKey: string) => ({
    PK: 'WEBHOOK_DLQ',
    SK: `${parkedAt}#${eventId}#${deliveryKey}`,
  }),
  webhookDeadLetters: 'WEBHOOK_DLQ',

  idempotency: (keyId: string, idempotencyKey: string) => ({ PK: `IDEM#${keyId}#${idempotencyKey}`, SK: 'IDEM' }),
  streamCheckpoint: (shardId: string) => ({ PK: `STREAM#${shardId}`, SK: 'CHECKPOINT' }),
  /** A dashboard sign-in, by the SHA-256 of its cookie's random id (the id itself is never stored). */
  dashboardSession: (sessionIdHash: string) => ({ PK: `DASHSESSION#${sessionIdHash}`, SK: 'DASHSESSION' }),
};
