/**
 * Every key the service reads or writes by, rendered from the entity declarations
 * (shared/db/entities.ts), which docs/architecture.md's item table is checked against. One
 * export per key, imported as a namespace (`import * as keys`): a function's bundle keeps only
 * the keys it uses, and only their entities.
 */
import type { Mode } from '../auth/principal';
import type { FeedIdentity } from '../domain/chargebacks';
import { literalPrefix, render } from './entity';
import {
  reportEntity,
  acceptorEntity,
  acquirerCommandEntity,
  acquirerNotificationEntity,
  apiKeyEntity,
  balanceEntity,
  balanceTransactionEntity,
  chargebackEntity,
  disputeDocumentEntity,
  chargebackReferenceEntity,
  checkoutSessionEntity,
  attemptWindowEntity,
  auditEventEntity,
  dashboardSessionEntity,
  pendingSignInEntity,
  deliveryAttemptEntity,
  deliveryEntity,
  EVENT_PREFIX_INDEXES,
  EVENT_PREFIX_LISTS,
  eventEntity,
  eventResendEntity,
  idempotencyEntity,
  invitationEntity,
  passwordResetEntity,
  organizationEntity,
  paymentEntity,
  paymentLinkEntity,
  passkeyEntity,
  recoveryCodesEntity,
  totpEnrolmentEntity,
  webAuthnChallengeEntity,
  totpFactorEntity,
  paymentLinkPaidShardEntity,
  paidShardNumber,
  refundDue,
  refundEntity,
  settlementCodeEntity,
  settlementEntity,
  settlementRecordEntity,
  userEmailEntity,
  userEntity,
  webhookSubscriptionCountEntity,
  webhookSubscriptionEntity,
  webhookUrlSecretEntity,
} from './entities';

/** A scope (`{org}#{mode}`) split back into the values its formats use. */
const scopeValues = (scope: string) => ({ scope });

export const organization = (orgId: string) => organizationEntity.key({ org: orgId });
/** All organizations (ops listing and the local stack's "empty store" check). */
export const organizationsPartition = organizationEntity.partition('gsi1', {});
export const acceptor = (orgId: string, acceptorId: string) => acceptorEntity.key({ org: orgId, acceptor: acceptorId });
export const user = (userId: string) => userEntity.key({ usr: userId });
export const userEmail = (emailKey: string) => userEmailEntity.key({ email: emailKey });
export const usersOfOrganization = (orgId: string) => userEntity.partition('gsi1', { org: orgId });
export const totpEnrolment = (userId: string) => totpEnrolmentEntity.key({ usr: userId });
export const totpFactor = (userId: string) => totpFactorEntity.key({ usr: userId });
export const recoveryCodes = (userId: string) => recoveryCodesEntity.key({ usr: userId });
export const passkey = (userId: string, credentialHash: string) => passkeyEntity.key({ usr: userId, credential: credentialHash });
/** A user's passkeys: their partition and the sort keys' common start. */
export const passkeysOf = (userId: string) => ({ pk: render(passkeyEntity.definition.key.pk, { usr: userId }), skPrefix: literalPrefix(passkeyEntity.definition.key.sk) });
export const webAuthnChallenge = (challengeHash: string) => webAuthnChallengeEntity.key({ challenge: challengeHash });
export const invitation = (invitationId: string) => invitationEntity.key({ inv: invitationId });
export const invitationsOfOrganization = (orgId: string) => invitationEntity.partition('gsi1', { org: orgId });
export const passwordReset = (userId: string) => passwordResetEntity.key({ usr: userId });
export const apiKeyByTokenHash = (tokenHash: string) => apiKeyEntity.key({ hash: tokenHash });
export const apiKeyIdLookup = (keyId: string) => apiKeyEntity.partition('gsi3', { key: keyId });
export const apiKeysOfCreator = (userId: string) => apiKeyEntity.partition('gsi2', { creator: userId });

export const paymentLink = (id: string) => paymentLinkEntity.key({ pl: id });
export const paymentLinkPaidShard = (id: string, shard: number) => paymentLinkPaidShardEntity.key({ pl: id, shard: paidShardNumber(shard) });
export const paymentLinkList = (scope: string) => paymentLinkEntity.partition('gsi1', scopeValues(scope));
export const paymentLinkStatusList = (scope: string, status: string) => paymentLinkEntity.partition('gsi2', { scope, status });
export const checkoutSession = (linkId: string, clientKey: string) => checkoutSessionEntity.key({ pl: linkId, client_key: clientKey });
export const paymentLinkExpiryDue = paymentLinkEntity.partition('due', {});

export const payment = (id: string) => paymentEntity.key({ pay: id });
/** A scope's payments, all or of one status: each list's sub-partitions (entities.ts). */
export const paymentList = (scope: string) => paymentEntity.partitions('gsi1', scopeValues(scope));
export const paymentStatusList = (scope: string, status: string) => paymentEntity.partitions('gsi2', { scope, status });
export const paymentsOfLink = (linkId: string) => paymentEntity.partition('gsi3', { pl: linkId });
/** One shard of the open payments, by last activity (sparse DUE index). */
export const openPaymentsDue = (shard: number) => paymentEntity.partition('due', { shard });

export const refund = (id: string) => refundEntity.key({ rf: id });
export const refundList = (scope: string) => refundEntity.partition('gsi1', scopeValues(scope));
export const refundsOfPayment = (paymentId: string) => refundEntity.partition('gsi2', { pay: paymentId });
export const refundHoldQueue = (scope: string, currency: string) => render(refundDue.holdQueue, { scope, CUR: currency });
/** Balances that have held refunds (a marker on the balance item): the process-refunds job's entry point. */
export const refundHoldBalances = balanceEntity.partition('due', {});
export const refundHoldBalanceSortKey = (scope: string, currency: string) => balanceEntity.sortKey('due', { scope, CUR: currency });
export const refundProcessingDue = refundDue.processing;
export const refundCoveredDue = refundDue.covered;

export const chargeback = (id: string) => chargebackEntity.key({ cb: id });
export const chargebackList = (scope: string) => chargebackEntity.partition('gsi1', scopeValues(scope));
export const chargebackAcceptorList = (scope: string, acceptorId: string) => chargebackEntity.partition('gsi2', { scope, acceptor: acceptorId });
export const chargebacksOfPayment = (paymentId: string) => chargebackEntity.partition('gsi3', { pay: paymentId });
export const chargebackDeadlineDue = chargebackEntity.partition('due', {});
/** Open chargebacks by the moment their next deadline reminder is due (GSI4, sparse). */
export const chargebackReminderDue = chargebackEntity.partition('gsi4', {});
export const disputeDocument = (chargebackId: string, documentId: string) => disputeDocumentEntity.key({ cb: chargebackId, doc: documentId });
/** The claim of a fed or notified chargeback's identity (its acquirer and reference). */
export const chargebackReference = (identity: FeedIdentity) => chargebackReferenceEntity.key(chargebackReferenceEntity.definition.values!({ chargebackId: '' }, identity));

export const settlement = (id: string) => settlementEntity.key({ stl: id });
export const settlementList = (orgId: string) => settlementEntity.partition('gsi1', { org: orgId });
export const settlementCode = (orgId: string, code: string) => settlementCodeEntity.key({ org: orgId, code });
export const settlementRecords = (recordSet: string) => render(settlementRecordEntity.definition.key.pk, { set: recordSet });
export const settlementRecordsOfType = (recordSet: string, type: string) => settlementRecordEntity.partition('gsi2', { set: recordSet, type });
export const settlementRecordById = (recordSet: string, recordId: string) => settlementRecordEntity.partition('gsi3', { set: recordSet, id: recordId });
export const settlementByCode = (code: string) => settlementEntity.partition('gsi3', { code });
/** One import's record set, `{stl}@{version}`: the `{set}` of the record keys above. */
export const settlementRecordSet = (settlementId: string, version: string) => `${settlementId}@${version}`;

export const balance = (scope: string, currency: string) => balanceEntity.key({ scope, CUR: currency });
/** A scope's balances, one per currency (GSI1), and one balance's place there. */
export const balancesOfScope = (scope: string) => balanceEntity.partition('gsi1', { scope });
export const balanceListSortKey = (scope: string, currency: string) => balanceEntity.sortKey('gsi1', { scope, CUR: currency });
export const balanceTransaction = (id: string) => balanceTransactionEntity.key({ btx: id });
/** A scope's ledger, all or of one type: each list's sub-partitions (entities.ts). */
export const balanceTransactionList = (scope: string) => balanceTransactionEntity.partitions('gsi1', { scope });
export const balanceTransactionTypeList = (scope: string, type: string) => balanceTransactionEntity.partitions('gsi2', { scope, type });
export const balanceTransactionsOfSource = (scope: string, source: string) => balanceTransactionEntity.partition('gsi3', { scope, source });

export const event = (id: string) => eventEntity.key({ evt: id });
/** A scope's events, all or of one type: each list's sub-partitions (entities.ts). */
export const eventList = (scope: string) => eventEntity.partitions('gsi1', scopeValues(scope));
export const eventTypeList = (scope: string, type: string) => eventEntity.partitions('gsi2', { scope, type });
/** The own list of the events below `prefix` (`a.b.`), on the index of its depth, if it has one (EVENT_PREFIX_LISTS). */
export const eventPrefixListApart = (scope: string, prefix: string) => {
  const index = EVENT_PREFIX_INDEXES[prefix.split('.').length - 2];
  return index && EVENT_PREFIX_LISTS.includes(prefix) ? { index, partitions: eventEntity.partitions(index, { scope, prefix1: prefix, prefix2: prefix, prefix3: prefix }) } : undefined;
};
/**
 * Where the events below `prefix` are, among `types` (the emitted ones): its own list when it has
 * one; else every event when every type is below it; else the lists of the types below it, read
 * together; undefined when no type is below it.
 */
export const eventPrefixList = (scope: string, prefix: string, types: readonly string[]) => {
  const apart = eventPrefixListApart(scope, prefix);
  if (apart) return apart;
  const below = types.filter((type) => type.startsWith(prefix));
  if (below.length === 0) return undefined;
  if (below.length === types.length) return { index: 'gsi1' as const, partitions: eventList(scope) };
  return { index: 'gsi2' as const, partitions: below.flatMap((type) => eventTypeList(scope, type)) };
};
/** An attempt's key: its time, its number (three digits, so that keys sort by it) and its target. */
export const deliveryAttempt = (eventId: string, attempt: { at: string; attempt: number; targetKey: string }) =>
  deliveryAttemptEntity.key({ evt: eventId, at: attempt.at, attempt: String(attempt.attempt).padStart(3, '0'), target: attempt.targetKey });
/** A subscription's attempts, in time order (GSI1). */
export const subscriptionAttempts = (subscriptionId: string) => deliveryAttemptEntity.partition('gsi1', { whk: subscriptionId });
/** `begins_with` of an event's attempts. */
export const deliveryAttemptsPrefix = literalPrefix(deliveryAttemptEntity.definition.key.sk);

export const webhookSubscription = (orgId: string, mode: Mode, id: string) => webhookSubscriptionEntity.key({ org: orgId, mode, whk: id });
/** `begins_with` of a mode's subscriptions, or of every mode's. */
export const webhookSubscriptionsPrefix = (mode?: Mode) =>
  mode ? render(webhookSubscriptionEntity.definition.key.sk, { mode, whk: '' }) : literalPrefix(webhookSubscriptionEntity.definition.key.sk);
export const webhookIdLookup = (id: string) => webhookSubscriptionEntity.partition('gsi3', { whk: id });
export const webhookSubscriptionCount = (orgId: string, mode: Mode) => webhookSubscriptionCountEntity.key({ org: orgId, mode });
export const webhookUrlSecret = (orgId: string, mode: Mode) => webhookUrlSecretEntity.key({ org: orgId, mode });
export const deliveryState = (eventId: string, deliveryKey: string) => deliveryEntity.key({ evt: eventId, delivery: deliveryKey });
export const eventResend = (eventId: string, requestId: string) => eventResendEntity.key({ evt: eventId, resend: requestId });

export const idempotency = (keyId: string, idempotencyKey: string) => idempotencyEntity.key({ key: keyId, idempotency_key: idempotencyKey });
export const dashboardSession = (sessionIdHash: string) => dashboardSessionEntity.key({ hash: sessionIdHash });
export const sessionsOfUser = (userId: string) => dashboardSessionEntity.partition('gsi1', { usr: userId });
export const pendingSignIn = (pendingIdHash: string) => pendingSignInEntity.key({ hash: pendingIdHash });
export const attemptWindow = (subjectHash: string) => attemptWindowEntity.key({ subject: subjectHash });

export const acquirerNotification = (id: string) => acquirerNotificationEntity.key({ notification: id });
export const acquirerCommand = (reference: string, operation: string) => acquirerCommandEntity.key({ reference, operation });
export const acquirerCommandsDue = acquirerCommandEntity.partition('due', {});

/** A record of the audit trail, in the list of one mode (`view`). */
export const auditEvent = (id: string, view: Mode) => auditEventEntity.key({ aud: id, view });
/** A mode's audit list, whole or by one filter (each a partition of its own). */
export const auditEventList = (scope: string) => auditEventEntity.partition('gsi1', { scope });
export const auditEventsOfAction = (scope: string, action: string) => auditEventEntity.partition('gsi2', { scope, action });
export const auditEventsOfActor = (scope: string, actorId: string) => auditEventEntity.partition('gsi3', { scope, actor: actorId });
export const auditEventsOfTarget = (scope: string, targetId: string) => auditEventEntity.partition('gsi4', { scope, target: targetId });

/** A report, and its scope's list of reports. */
export const report = (id: string) => reportEntity.key({ rpt: id });
export const reportList = (scope: string) => reportEntity.partition('gsi1', scopeValues(scope));
/** Pending reports by the moment they are given up on (sparse DUE index). */
export const pendingReportsDue = reportEntity.partition('due', {});
