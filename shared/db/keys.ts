/**
 * Every key the service reads or writes by, rendered from the entity declarations
 * (shared/db/entities.ts), which docs/architecture.md's item table is checked against.
 */
import type { Mode } from '../auth/principal';
import { literalPrefix, render } from './entity';
import {
  acceptorEntity,
  apiKeyEntity,
  balanceEntity,
  chargebackEntity,
  chargebackReferenceEntity,
  checkoutSessionEntity,
  dashboardSessionEntity,
  deadLetterEntity,
  deliveryAttemptEntity,
  deliveryEntity,
  EVENT_PREFIX_INDEXES,
  eventEntity,
  eventResendEntity,
  idempotencyEntity,
  organizationEntity,
  paymentEntity,
  paymentLinkEntity,
  refundDue,
  refundEntity,
  settlementCodeEntity,
  settlementEntity,
  settlementRecordEntity,
  streamCheckpointEntity,
  userEntity,
  webhookSubscriptionEntity,
  webhookUrlSecretEntity,
} from './entities';

export { scopeOf } from './entities';

/** A scope (`{org}#{mode}`) split back into the values its formats use. */
const scopeValues = (scope: string) => ({ scope });

export const keys = {
  organization: (orgId: string) => organizationEntity.key({ org: orgId }),
  /** All organizations (ops listing and the local stack's "empty store" check). */
  organizationsPartition: organizationEntity.partition('gsi1', {}),
  acceptor: (orgId: string, acceptorId: string) => acceptorEntity.key({ org: orgId, acceptor: acceptorId }),
  user: (userId: string) => userEntity.key({ usr: userId }),
  apiKeyByTokenHash: (tokenHash: string) => apiKeyEntity.key({ hash: tokenHash }),
  apiKeyIdLookup: (keyId: string) => apiKeyEntity.partition('gsi3', { key: keyId }),
  apiKeysOfCreator: (userId: string) => apiKeyEntity.partition('gsi2', { creator: userId }),

  paymentLink: (id: string) => paymentLinkEntity.key({ pl: id }),
  paymentLinkList: (scope: string) => paymentLinkEntity.partition('gsi1', scopeValues(scope)),
  paymentLinkStatusList: (scope: string, status: string) => paymentLinkEntity.partition('gsi2', { scope, status }),
  checkoutSession: (linkId: string, clientKey: string) => checkoutSessionEntity.key({ pl: linkId, client_key: clientKey }),
  paymentLinkExpiryDue: paymentLinkEntity.partition('due', {}),

  payment: (id: string) => paymentEntity.key({ pay: id }),
  paymentList: (scope: string) => paymentEntity.partition('gsi1', scopeValues(scope)),
  paymentStatusList: (scope: string, status: string) => paymentEntity.partition('gsi2', { scope, status }),
  paymentsOfLink: (linkId: string) => paymentEntity.partition('gsi3', { pl: linkId }),

  refund: (id: string) => refundEntity.key({ rf: id }),
  refundList: (scope: string) => refundEntity.partition('gsi1', scopeValues(scope)),
  refundsOfPayment: (paymentId: string) => refundEntity.partition('gsi2', { pay: paymentId }),
  refundHoldQueue: (scope: string, currency: string) => render(refundDue.holdQueue, { scope, CUR: currency }),
  /** Balances that have held refunds (a marker on the balance item): the process-refunds job's entry point. */
  refundHoldBalances: balanceEntity.partition('due', {}),
  refundHoldBalanceSortKey: (scope: string, currency: string) => balanceEntity.sortKey('due', { scope, CUR: currency }),
  refundProcessingDue: refundDue.processing,
  refundCoveredDue: refundDue.covered,

  chargeback: (id: string) => chargebackEntity.key({ cb: id }),
  chargebackList: (scope: string) => chargebackEntity.partition('gsi1', scopeValues(scope)),
  chargebackAcceptorList: (scope: string, acceptorId: string) => chargebackEntity.partition('gsi2', { scope, acceptor: acceptorId }),
  chargebacksOfPayment: (paymentId: string) => chargebackEntity.partition('gsi3', { pay: paymentId }),
  chargebackDeadlineDue: chargebackEntity.partition('due', {}),
  chargebackFeedReference: (reference: string) => {
    const [acquirer, ...rest] = reference.split('#');
    return chargebackReferenceEntity.key({ acquirer, reference: rest.join('#') });
  },

  settlement: (id: string) => settlementEntity.key({ stl: id }),
  settlementList: (orgId: string) => settlementEntity.partition('gsi1', { org: orgId }),
  settlementCode: (orgId: string, code: string) => settlementCodeEntity.key({ org: orgId, code }),
  settlementRecords: (recordSet: string) => render(settlementRecordEntity.definition.key.pk, { set: recordSet }),
  settlementRecordsOfType: (recordSet: string, type: string) => settlementRecordEntity.partition('gsi2', { set: recordSet, type }),
  settlementRecordById: (recordSet: string, recordId: string) => settlementRecordEntity.partition('gsi3', { set: recordSet, id: recordId }),
  settlementByCode: (code: string) => settlementEntity.partition('gsi3', { code }),
  /** One import's record set, `{stl}@{version}`: the `{set}` of the record keys above. */
  settlementRecordSet: (settlementId: string, version: string) => `${settlementId}@${version}`,

  balance: (scope: string, currency: string) => balanceEntity.key({ scope, CUR: currency }),

  event: (id: string) => eventEntity.key({ evt: id }),
  eventList: (scope: string) => eventEntity.partition('gsi1', scopeValues(scope)),
  eventTypeList: (scope: string, type: string) => eventEntity.partition('gsi2', { scope, type }),
  /** The index and partition of the events below `prefix` (`a.b.`), or undefined when no type is that deep. */
  eventPrefixList: (scope: string, prefix: string) => {
    const depth = prefix.split('.').length - 1;
    const index = EVENT_PREFIX_INDEXES[depth - 1];
    return index && { index, partition: eventEntity.partition(index, { scope, prefix1: prefix, prefix2: prefix, prefix3: prefix }) };
  },
  deliveryAttempt: (eventId: string, attemptKey: string) => deliveryAttemptEntity.key({ evt: eventId, attempt: attemptKey }),

  webhookSubscription: (orgId: string, mode: Mode, id: string) => webhookSubscriptionEntity.key({ org: orgId, mode, whk: id }),
  /** `begins_with` of a mode's subscriptions, or of every mode's. */
  webhookSubscriptionsPrefix: (mode?: Mode) =>
    mode ? render(webhookSubscriptionEntity.definition.key.sk, { mode, whk: '' }) : literalPrefix(webhookSubscriptionEntity.definition.key.sk),
  webhookIdLookup: (id: string) => webhookSubscriptionEntity.partition('gsi3', { whk: id }),
  webhookUrlSecret: (orgId: string, mode: Mode) => webhookUrlSecretEntity.key({ org: orgId, mode }),
  deliveryState: (eventId: string, deliveryKey: string) => deliveryEntity.key({ evt: eventId, delivery: deliveryKey }),
  eventResend: (eventId: string, requestId: string) => eventResendEntity.key({ evt: eventId, resend: requestId }),
  /** Local delivery queue: deliveries waiting for their next attempt (sparse DUE index). */
  webhookRetryDue: deliveryEntity.partition('due', {}),
  webhookRetrySortKey: (due: string, eventId: string, deliveryKey: string) =>
    deliveryEntity.sortKey('due', { due, evt: eventId, delivery: deliveryKey }),
  webhookDeadLetter: (parkedAt: string, eventId: string, deliveryKey: string) =>
    deadLetterEntity.key({ parked_at: parkedAt, evt: eventId, delivery: deliveryKey }),
  webhookDeadLetters: render(deadLetterEntity.definition.key.pk, {}),

  idempotency: (keyId: string, idempotencyKey: string) => idempotencyEntity.key({ key: keyId, idempotency_key: idempotencyKey }),
  streamCheckpoint: (shardId: string) => streamCheckpointEntity.key({ shard: shardId }),
  dashboardSession: (sessionIdHash: string) => dashboardSessionEntity.key({ hash: sessionIdHash }),
};
