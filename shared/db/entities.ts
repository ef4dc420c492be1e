import type { Mode } from '../auth/principal';
import type { AcquirerCommand } from '../domain/acquirer-commands';
import { actorIdOf, type AuditRecord } from '../domain/audit';
import type { BalanceTransaction } from '../domain/balance';
import { reminderDueAt, type Chargeback, type FeedIdentity } from '../domain/chargebacks';
import type { TotpEnrolment, TotpFactor } from '../domain/two-factor';
import type { Passkey, WebAuthnChallenge } from '../domain/passkeys';
import type { DisputeDocument } from '../domain/dispute-documents';
import type { PaidShard, VersionedLink } from '../domain/payment-links';
import { lastActivityOf, type Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { reportBuildDeadline, type Report } from '../domain/reports';
import type { Settlement } from '../domain/settlements';
import type { DashboardSession, PendingSignIn } from '../domain/team';
import { typePrefixes } from '../domain/webhooks';
import type { OutboxEvent } from '../events';
import { defineEntity, subPartitionOf } from './entity';

/**
 * Every kind of item in the single table, declared once (shared/db/entity.ts). A "scope" is
 * organization + mode: test and live data never share a partition of any list, so one mode can
 * never page into the other. docs/architecture.md's item table is checked against these.
 */

export const scopeOf = (orgId: string, mode: Mode) => `${orgId}#${mode}`;
const scoped = (record: { orgId: string; mode: Mode }) => scopeOf(record.orgId, record.mode);

export const organizationEntity = defineEntity<{ id: string }>({
  name: 'organization',
  label: 'Organization',
  key: { pk: 'ORG#{org}', sk: 'ORG' },
  indexes: { gsi1: { pk: 'ORGS', sk: '{org}' } },
  values: (org) => ({ org: org.id }),
});

export const acceptorEntity = defineEntity<{ id: string; orgId: string }>({
  name: 'acceptor',
  label: 'Acceptor',
  key: { pk: 'ORG#{org}', sk: 'ACCEPTOR#{acceptor}' },
  values: (acceptor) => ({ org: acceptor.orgId, acceptor: acceptor.id }),
});

/**
 * Users are found by id (a key's creator, a session's person) and listed per organization (ops,
 * the team page). A person (product-decisions §16) has their team fields on the same item.
 */
export const userEntity = defineEntity<{ userId: string; orgId: string }>({
  name: 'user',
  label: 'User',
  key: { pk: 'USER#{usr}', sk: 'USER' },
  indexes: { gsi1: { pk: '{org}#USERS', sk: '{usr}' } },
  values: (user) => ({ usr: user.userId, org: user.orgId }),
  object: { type: 'user', id: (user) => user.userId },
});

/**
 * A person's email, claimed once in the deployment (`{email}`: lower-cased, `emailKey`), in the
 * transaction that creates the user: the uniqueness of §16, and the sign-in's consistent lookup.
 */
export const userEmailEntity = defineEntity<{ userId: string; orgId: string }, { email: string }>({
  name: 'user_email',
  label: 'User email',
  key: { pk: 'EMAIL#{email}', sk: 'EMAIL' },
  values: (_claim, { email }) => ({ email }),
});

/** A user's TOTP enrolment awaiting its confirming code: the secret sealed; TTL after TOTP_ENROLMENT_SECONDS. */
export const totpEnrolmentEntity = defineEntity<TotpEnrolment, { userId: string }>({
  name: 'totp_enrolment',
  label: 'TOTP enrolment',
  key: { pk: 'USER#{usr}', sk: 'TOTP#PENDING' },
  values: (_enrolment, { userId }) => ({ usr: userId }),
});

/** A user's second factor by TOTP: the secret sealed, and the last time step a code was accepted for. */
export const totpFactorEntity = defineEntity<TotpFactor, { userId: string }>({
  name: 'totp_factor',
  label: 'TOTP factor',
  key: { pk: 'USER#{usr}', sk: 'TOTP' },
  values: (_factor, { userId }) => ({ usr: userId }),
});

/** A user's unused recovery codes, as a string set of their hashes (one removed per use, under the condition that it is there). */
export const recoveryCodesEntity = defineEntity<{ codeHashes: Set<string> }, { userId: string }>({
  name: 'recovery_codes',
  label: 'Recovery codes',
  key: { pk: 'USER#{usr}', sk: 'RECOVERY_CODES' },
  values: (_codes, { userId }) => ({ usr: userId }),
});

/** A user's passkey (`{credential}`: the SHA-256 of its credential id, which may be longer than a sort key may be). */
export const passkeyEntity = defineEntity<Passkey, { userId: string; credentialHash: string }>({
  name: 'passkey',
  label: 'Passkey',
  key: { pk: 'USER#{usr}', sk: 'PASSKEY#{credential}' },
  values: (_passkey, { userId, credentialHash }) => ({ usr: userId, credential: credentialHash }),
});

/** A WebAuthn challenge issued to one browser (`{challenge}`: its SHA-256), taken once; TTL after CHALLENGE_SECONDS. */
export const webAuthnChallengeEntity = defineEntity<WebAuthnChallenge, { challengeHash: string }>({
  name: 'webauthn_challenge',
  label: 'WebAuthn challenge',
  key: { pk: 'WEBAUTHN#{challenge}', sk: 'CHALLENGE' },
  values: (_challenge, { challengeHash }) => ({ challenge: challengeHash }),
});

/**
 * An invitation to a team (product-decisions §16), by its id, which its link carries with a
 * random part; the item holds that token's SHA-256 only (`tokenHash`, replaced when the
 * invitation is sent again). An organization's pending invitations on GSI1; TTL after expiry.
 */
export const invitationEntity = defineEntity<{ id: string; orgId: string }>({
  name: 'invitation',
  label: 'Invitation',
  key: { pk: 'INVITE#{inv}', sk: 'INVITE' },
  indexes: { gsi1: { pk: '{org}#INVITES', sk: '{inv}' } },
  values: (invitation) => ({ inv: invitation.id, org: invitation.orgId }),
  object: { type: 'invitation', id: (invitation) => invitation.id },
});

/**
 * A person's password reset: one at a time (a new request replaces it, and its link), by the
 * person's id, which its link carries with a random part; holds that token's SHA-256 only.
 * Taken once; TTL after its hour.
 */
export const passwordResetEntity = defineEntity<{ userId: string }>({
  name: 'password_reset',
  label: 'Password reset',
  key: { pk: 'RESET#{usr}', sk: 'RESET' },
  values: (reset) => ({ usr: reset.userId }),
});

/** API keys are found by the SHA-256 of their token; the token itself is never stored. */
export const apiKeyEntity = defineEntity<{ keyId: string; creatorId: string; orgId: string }, { tokenHash: string }>({
  name: 'api_key',
  label: 'API key',
  key: { pk: 'TOKEN#{hash}', sk: 'TOKEN' },
  indexes: {
    // An organization's keys, for the operator (ops key list).
    gsi1: { pk: '{org}#KEYS', sk: '{key}' },
    // A user's keys, rewritten when the user's standing changes.
    gsi2: { pk: 'USERKEYS#{creator}', sk: '{key}' },
    gsi3: { pk: 'KEY#{key}', sk: 'KEY' },
  },
  values: (key, { tokenHash }) => ({ hash: tokenHash, creator: key.creatorId, key: key.keyId, org: key.orgId }),
  object: { type: 'api_key', id: (key) => key.keyId },
});

export const paymentLinkEntity = defineEntity<VersionedLink>({
  name: 'payment_link',
  label: 'Payment link',
  key: { pk: 'PL#{pl}', sk: 'PL' },
  indexes: {
    gsi1: { pk: '{scope}#PL', sk: '{pl}' },
    gsi2: { pk: '{scope}#PL#{status}', sk: '{pl}' },
    due: { pk: 'DUE#PL_EXPIRY', sk: '{expires_at}#{pl}', when: (link) => link.status === 'active' && link.expiresAt !== null },
  },
  values: (link) => ({ pl: link.id, scope: scoped(link), status: link.status, expires_at: link.expiresAt ?? '' }),
  object: { type: 'payment_link', id: (link) => link.id },
});

/** A shard's number as its sort key writes it: two digits, so that the shards sort in order. */
export const paidShardNumber = (shard: number) => String(shard).padStart(2, '0');

/**
 * One of an unlimited link's PAID_SHARDS paid counters (`{shard}`: `00`–`15`), in the link's
 * partition so that one Query reads the link with them; a shard is written by a paid payment
 * (created by the first) and closed, folded and reopened by the writers that change how the
 * link can be paid (docs/architecture.md, Capacity).
 */
export const paymentLinkPaidShardEntity = defineEntity<PaidShard, { pl: string; shard: number }>({
  name: 'payment_link_paid_shard',
  label: 'Payment link paid shard',
  key: { pk: 'PL#{pl}', sk: 'PAID#{shard}' },
  values: (_shard, { pl, shard }) => ({ pl, shard: paidShardNumber(shard) }),
});

/**
 * The still-open payment of one customer (client_key cookie) on one link. A partition of its
 * own, not the link's: every new customer writes one, and the link's partition keeps its
 * 1,000 WCU/s for the paid shards (docs/architecture.md, Capacity).
 */
export const checkoutSessionEntity = defineEntity<{ paymentId: string }, { pl: string; clientKey: string }>({
  name: 'checkout_session',
  label: 'Checkout session',
  key: { pk: 'PL#{pl}#CLIENT#{client_key}', sk: 'CLIENT' },
  values: (_session, { pl, clientKey }) => ({ pl, client_key: clientKey }),
});

/**
 * Open payments are spread over this many DUE partitions by id, so that no partition takes the
 * writes of every payment of every organization; the expiry sweep reads each one.
 */
export const OPEN_PAYMENT_SHARDS = 8;

/** A payment's shard, from the random end of its id (as a split list's sub-partition). */
export const openPaymentShard = (paymentId: string) => subPartitionOf(paymentId, OPEN_PAYMENT_SHARDS);

export const paymentEntity = defineEntity<Payment>({
  name: 'payment',
  label: 'Payment',
  key: { pk: 'PAY#{pay}', sk: 'PAY' },
  indexes: {
    // Split (product-decisions §2): every payment of the scope writes them (Capacity).
    gsi1: { pk: '{scope}#PAY', sk: '{pay}', subPartitions: 8 },
    gsi2: { pk: '{scope}#PAY#{status}', sk: '{pay}', subPartitions: 8 },
    gsi3: { pk: 'PL#{pl}#PAY', sk: '{pay}' },
    // One customer's payments (product-decisions §18), by the keyed digest of the email, never the email.
    gsi4: { pk: '{scope}#PAY#EMAIL#{email_digest}', sk: '{pay}', when: (payment) => payment.customerEmailDigest !== undefined },
    // While open, by last activity: the expiry sweep reads each shard up to the idle bound.
    due: { pk: 'DUE#PAY_OPEN#{shard}', sk: '{active_at}#{pay}', when: (payment) => payment.status === 'open' },
  },
  values: (payment) => ({
    pay: payment.id,
    scope: scoped(payment),
    status: payment.status,
    pl: payment.paymentLinkId,
    email_digest: payment.customerEmailDigest ?? '',
    shard: openPaymentShard(payment.id),
    active_at: lastActivityOf(payment),
  }),
  object: { type: 'payment', id: (payment) => payment.id },
});

/** The refunds' DUE partitions. */
export const refundDue = { holdQueue: 'DUE#HOLD#{scope}#{CUR}', covered: 'DUE#RF_PENDING', processing: 'DUE#RF_PROCESSING' } as const;

export const refundEntity = defineEntity<Refund>({
  name: 'refund',
  label: 'Refund',
  key: { pk: 'RF#{rf}', sk: 'RF' },
  indexes: {
    gsi1: { pk: '{scope}#RF', sk: '{rf}' },
    gsi2: { pk: 'PAY#{pay}#RF', sk: '{rf}' },
    gsi3: { pk: '{scope}#RF#{status}', sk: '{rf}' },
    // Held refunds of one balance, oldest first; covered pending refunds by `{created_at}#{id}`
    // (processed once older than the cancel window); refunds in `processing` by `{since}#{id}`.
    due: { pk: '{due}', sk: '{due_sort}', when: (refund) => refund.status === 'pending' || refund.status === 'processing' },
  },
  values: (refund) => ({
    rf: refund.id,
    scope: scoped(refund),
    pay: refund.paymentId,
    status: refund.status,
    ...refundDueKeys(refund),
  }),
  object: { type: 'refund', id: (refund) => refund.id },
});

function refundDueKeys(refund: Refund): { due: string; due_sort: string } {
  if (refund.status === 'processing') return { due: refundDue.processing, due_sort: `${refund.updatedAt}#${refund.id}` };
  if (refund.onHold) return { due: `DUE#HOLD#${scoped(refund)}#${refund.currency}`, due_sort: refund.id };
  return { due: refundDue.covered, due_sort: `${refund.createdAt}#${refund.id}` };
}


/**
 * The DUE keys exist only while the chargeback is `open`: the deadline sweep reads only chargebacks
 * still due. Its deadline reminder (product-decisions §13) is a second sparse entry, in GSI4 (an
 * item has one key per index), by the moment the next reminder is due, while one is left: the
 * reminder sweep reads only chargebacks whose reminder is due, and an answer removes both.
 */
export const chargebackEntity = defineEntity<Chargeback>({
  name: 'chargeback',
  label: 'Chargeback',
  key: { pk: 'CB#{cb}', sk: 'CB' },
  indexes: {
    gsi1: { pk: '{scope}#CB', sk: '{cb}' },
    gsi2: { pk: '{scope}#ACCEPTOR#{acceptor}#CB', sk: '{cb}' },
    gsi3: { pk: 'PAY#{pay}#CB', sk: '{cb}' },
    gsi4: { pk: 'DUE#CB_REMINDER', sk: '{remind_at}#{cb}', when: (chargeback) => chargeback.status === 'open' && chargeback.nextReminderHours !== undefined },
    // One status, of the scope (an organization's key) and of one acceptor (an acceptor-bound key's).
    gsi5: { pk: '{scope}#CB#{status}', sk: '{cb}' },
    gsi6: { pk: '{scope}#ACCEPTOR#{acceptor}#CB#{status}', sk: '{cb}' },
    due: { pk: 'DUE#CB_DEADLINE', sk: '{deadline_at}#{cb}', when: (chargeback) => chargeback.status === 'open' },
  },
  values: (chargeback) => ({
    cb: chargeback.id,
    scope: scoped(chargeback),
    status: chargeback.status,
    acceptor: chargeback.acceptorId,
    pay: chargeback.paymentId,
    deadline_at: chargeback.deadlineAt,
    remind_at: chargeback.nextReminderHours === undefined ? '' : reminderDueAt(chargeback, chargeback.nextReminderHours),
  }),
  object: { type: 'chargeback', id: (chargeback) => chargeback.id },
});

/** A document a merchant uploads as evidence (product-decisions §13), under its chargeback. */
export const disputeDocumentEntity = defineEntity<DisputeDocument>({
  name: 'dispute_document',
  label: 'Dispute document',
  key: { pk: 'CB#{cb}', sk: 'DOC#{doc}' },
  values: (document) => ({ cb: document.chargebackId, doc: document.id }),
  object: { type: 'dispute_document', id: (document) => document.id },
});

/** `%` and `#` escaped: a key part holds any text and still never runs into the next part. */
const keyPart = (value: string) => value.replace(/%/g, '%25').replace(/#/g, '%23');

/**
 * The identity of a fed chargeback (domain `FeedIdentity`), claimed once: feed replays create
 * nothing. An entry without an acquirer block claims its digest under an empty acquirer, which
 * no acquirer's name is.
 */
export const chargebackReferenceEntity = defineEntity<{ chargebackId: string }, FeedIdentity>({
  name: 'chargeback_reference',
  label: 'Chargeback feed reference',
  key: { pk: 'CBREF#{acquirer}#{reference}', sk: 'CBREF' },
  values: (_claim, identity) =>
    'entryDigest' in identity ? { acquirer: '', reference: identity.entryDigest } : { acquirer: keyPart(identity.acquirer), reference: keyPart(identity.reference) },
});

/** A balance: its currencies are found on GSI1 (`GET /v1/balance`), its held refunds on DUE. */
export const balanceEntity = defineEntity({
  name: 'balance',
  label: 'Balance',
  key: { pk: 'BAL#{scope}#{CUR}', sk: 'BAL' },
  indexes: { gsi1: { pk: '{scope}#BAL', sk: '{CUR}' }, due: { pk: 'DUE#HOLD_BALANCES', sk: '{scope}#{CUR}' } },
});

/**
 * The ledger: one immutable item per movement of a balance, in the transaction of the change
 * that causes it (product-decisions §15). Listed newest first per scope (GSI1), per type (GSI2)
 * and per source (GSI3: a payment's, refund's or chargeback's few movements).
 */
export const balanceTransactionEntity = defineEntity<BalanceTransaction>({
  name: 'balance_transaction',
  label: 'Balance transaction',
  key: { pk: 'BTX#{btx}', sk: 'BTX' },
  indexes: {
    // Split (product-decisions §2): every paid payment's credit writes them, twice (Capacity).
    gsi1: { pk: '{scope}#BTX', sk: '{btx}', subPartitions: 4 },
    gsi2: { pk: '{scope}#BTX#{type}', sk: '{btx}', subPartitions: 4 },
    gsi3: { pk: '{scope}#BTX#SRC#{source}', sk: '{btx}', when: (entry) => entry.source !== undefined },
  },
  values: (entry) => ({ btx: entry.id, scope: scoped(entry), type: entry.type, source: entry.source ?? '' }),
  object: { type: 'balance_transaction', id: (entry) => entry.id },
});

export const settlementEntity = defineEntity<Settlement>({
  name: 'settlement',
  label: 'Settlement',
  key: { pk: 'STL#{stl}', sk: 'STL' },
  indexes: {
    // Newest first by creation; GSI3: a code across organizations (ops export without --org).
    gsi1: { pk: '{org}#live#STL', sk: '{created_at}#{stl}' },
    gsi3: { pk: 'STLCODE#{code}', sk: '{org}' },
  },
  values: (settlement) => ({ stl: settlement.id, org: settlement.orgId, created_at: settlement.createdAt, code: settlement.code }),
});

/** Alias item: settlement code -> id, read with a strongly consistent GetItem. */
export const settlementCodeEntity = defineEntity<{ settlementId: string; orgId: string; code: string }>({
  name: 'settlement_code',
  label: 'Settlement code alias',
  key: { pk: 'STLCODE#{org}#{code}', sk: 'STLCODE' },
  values: (alias) => ({ org: alias.orgId, code: alias.code }),
});

/**
 * One record of one import's record set (`{stl}@{version}`), sorted by transaction time; ids
 * are found through GSI3. A re-import writes a new set and switches the settlement to it.
 */
export const settlementRecordEntity = defineEntity<object, { recordSet: string; sortKey: string; type: string; id?: string }>({
  name: 'settlement_record',
  label: 'Settlement record',
  key: { pk: 'STL#{set}#REC', sk: '{sort}' },
  indexes: {
    gsi2: { pk: 'STL#{set}#REC#{type}', sk: '{sort}' },
    gsi3: { pk: 'STL#{set}#RECID#{id}', sk: 'REC', when: (_record, { id }) => id !== undefined },
  },
  values: (_record, { recordSet, sortKey, type, id }) => ({ set: recordSet, sort: sortKey, type, id: id ?? '' }),
});

/** The outbox: one item per event, in the same transaction as the change it reports. */
export const eventEntity = defineEntity<{ orgId: string; mode: Mode; type: string; envelope: { id: string }; [attribute: string]: unknown }>({
  name: 'event',
  label: 'Event (outbox)',
  key: { pk: 'EVT#{evt}', sk: 'EVT' },
  indexes: {
    // Every list is split (product-decisions §2), by how many of its events a paid payment writes (Capacity).
    gsi1: { pk: '{scope}#EVT', sk: '{evt}', subPartitions: 8 },
    // Events of one exact type (the events API's `type` filter).
    gsi2: { pk: '{scope}#EVT#{type}', sk: '{evt}', subPartitions: 4 },
    // The events below a wildcard listed apart (`type=a.b.*`), one index per depth: see EVENT_PREFIX_LISTS.
    gsi3: { pk: '{scope}#EVT#{prefix1}', sk: '{evt}', subPartitions: 8, when: (event) => listedPrefixes(event.type)[0] !== '' },
    gsi4: { pk: '{scope}#EVT#{prefix2}', sk: '{evt}', subPartitions: 8, when: (event) => listedPrefixes(event.type)[1] !== '' },
    gsi5: { pk: '{scope}#EVT#{prefix3}', sk: '{evt}', subPartitions: 4, when: (event) => listedPrefixes(event.type)[2] !== '' },
  },
  values: (event) => {
    const [prefix1, prefix2, prefix3] = listedPrefixes(event.type);
    return { evt: event.envelope.id, scope: scoped(event), type: event.type, prefix1, prefix2, prefix3 };
  },
});

/**
 * The indexes of the type wildcards' own lists, by the wildcard's depth (`a.` → GSI3, `a.b.` →
 * GSI4, `a.b.c.` → GSI5): event types have at most four segments (a test holds every emitted
 * type to it), so a deeper wildcard matches nothing.
 */
export const EVENT_PREFIX_INDEXES = ['gsi3', 'gsi4', 'gsi5'] as const;

/**
 * The wildcards whose events are listed apart, each on the index of its depth: those below which
 * there are more types than a page can read the lists of (`keys.eventPrefixList`). Any other
 * wildcard is read from the lists it is made of, so an event costs no index write for it
 * (decisions 14): every event, when every type is below it (`transactions.`), or its few types'
 * lists, merged. A test holds this list to the emitted types both ways.
 */
export const EVENT_PREFIX_LISTS: readonly string[] = [
  'transactions.payment_link.',
  'transactions.refund.',
  'transactions.chargeback.',
  'transactions.payment_link.email.',
];

/** The type's wildcards that are listed apart, by depth ('' where its prefix of that depth is not). */
const listedPrefixes = (type: string) => {
  const prefixes = typePrefixes(type);
  return EVENT_PREFIX_INDEXES.map((_index, depth) => (prefixes[depth] !== undefined && EVENT_PREFIX_LISTS.includes(prefixes[depth]) ? prefixes[depth] : ''));
};

/**
 * One attempt of a delivery, under its event, in time order (the event's deliveries list them
 * oldest first); an attempt to a subscription is also on GSI1 under the subscription, newest
 * last (an endpoint's recent deliveries).
 */
export const deliveryAttemptEntity = defineEntity<{ eventId: string; targetKey: string; subscriptionId?: string; at: string; attempt: number }>({
  name: 'delivery_attempt',
  label: 'Delivery attempt',
  key: { pk: 'EVT#{evt}', sk: 'DLV#{at}#{attempt}#{target}' },
  indexes: { gsi1: { pk: 'WHK#{whk}#DLV', sk: '{at}#{evt}#{attempt}', when: (attempt) => attempt.subscriptionId !== undefined } },
  values: (attempt) => ({
    evt: attempt.eventId,
    at: attempt.at,
    attempt: String(attempt.attempt).padStart(3, '0'),
    target: attempt.targetKey,
    whk: attempt.subscriptionId ?? '',
  }),
});

/**
 * A webhook subscription, the API's webhook endpoint: the fan-out reads an organization and
 * mode's subscriptions from the base table (strongly consistent); the API lists them on GSI1.
 */
export const webhookSubscriptionEntity = defineEntity<{ id: string; orgId: string; mode: Mode }>({
  name: 'webhook_subscription',
  label: 'Webhook subscription',
  key: { pk: 'ORG#{org}', sk: 'WHK#{mode}#{whk}' },
  indexes: { gsi1: { pk: '{scope}#WHK', sk: '{whk}' }, gsi3: { pk: 'WHK#{whk}', sk: 'WHK' } },
  values: (subscription) => ({ org: subscription.orgId, mode: subscription.mode, whk: subscription.id, scope: scoped(subscription) }),
  object: { type: 'webhook_endpoint', id: (subscription) => subscription.id },
});

/**
 * How many webhook subscriptions an organization and mode has: raised under the limit's
 * condition in each creation's transaction and lowered in each deletion's, so concurrent
 * creations never pass the limit.
 */
export const webhookSubscriptionCountEntity = defineEntity({
  name: 'webhook_subscription_count',
  label: 'Webhook subscription count',
  key: { pk: 'ORG#{org}', sk: 'WHKCOUNT#{mode}' },
});

/** Signs deliveries to per-object URLs (a refund's or a payment's webhook_url) of one org + mode. */
export const webhookUrlSecretEntity = defineEntity<{ orgId: string; mode: Mode; sealedSecret: string; createdAt: string }>({
  name: 'webhook_url_secret',
  label: 'Signing secret for per-object URLs',
  key: { pk: 'ORG#{org}', sk: 'WHSECRET#{mode}' },
  values: (secret) => ({ org: secret.orgId, mode: secret.mode }),
});

/**
 * One delivery of one event to one target (dedupe, outcome), `{delivery}` its domain
 * `deliveryKey`: the outcome's update creates it.
 */
export const deliveryEntity = defineEntity<{ eventId: string; deliveryKey: string }>({
  name: 'delivery',
  label: 'Delivery outcome',
  key: { pk: 'EVT#{evt}', sk: 'DELIVERY#{delivery}' },
  values: (delivery) => ({ evt: delivery.eventId, delivery: delivery.deliveryKey }),
});

/** `ops event resend` and the resend API: a stream-visible request to replay the event, next to it. */
export const eventResendEntity = defineEntity<OutboxEvent & { resendId: string; subscriptionId?: string; requestedAt: string }>({
  name: 'event_resend',
  label: 'Event replay request',
  key: { pk: 'EVT#{evt}', sk: 'RESEND#{resend}' },
  values: (request) => ({ evt: request.envelope.id, resend: request.resendId }),
});

/** A claim of an Idempotency-Key by one API key (`{key}`: its id). */
export const idempotencyEntity = defineEntity<{ state: 'in_flight'; leaseUntil: number; fingerprint: string; claimId: string }, { keyId: string; idempotencyKey: string }>({
  name: 'idempotency',
  label: 'Idempotency record',
  key: { pk: 'IDEM#{key}#{idempotency_key}', sk: 'IDEM' },
  values: (_claim, { keyId, idempotencyKey }) => ({ key: keyId, idempotency_key: idempotencyKey }),
});

/**
 * A person's dashboard session, by the SHA-256 of its cookie's random id (the id itself is never
 * stored); a person's sessions, newest first, on GSI1 (the Security page, signing out everywhere).
 */
export const dashboardSessionEntity = defineEntity<DashboardSession, { sessionIdHash: string }>({
  name: 'dashboard_session',
  label: 'Dashboard session',
  key: { pk: 'DASHSESSION#{hash}', sk: 'DASHSESSION' },
  indexes: { gsi1: { pk: 'USER#{usr}#SESSIONS', sk: '{created_at}#{hash}' } },
  values: (session, { sessionIdHash }) => ({ hash: sessionIdHash, usr: session.userId, created_at: session.createdAt }),
});

/** A sign-in between its password and its second factor, by the SHA-256 of its cookie's random id; TTL after its few minutes. */
export const pendingSignInEntity = defineEntity<PendingSignIn, { pendingIdHash: string }>({
  name: 'pending_sign_in',
  label: 'Pending sign-in',
  key: { pk: 'SIGNIN#{hash}', sk: 'SIGNIN' },
  values: (_pending, { pendingIdHash }) => ({ hash: pendingIdHash }),
});

/**
 * One throttled subject's window of attempts (`{subject}`: the SHA-256 of `email:{emailKey}` or
 * `address:{ip}`): slots taken before a password is checked, kept by failures, given back by
 * successes; TTL after the window (product-decisions §16 lockouts).
 */
export const attemptWindowEntity = defineEntity({ name: 'attempt_window', label: 'Sign-in attempt window', key: { pk: 'ATTEMPTS#{subject}', sk: 'ATTEMPTS' } });

/** One of a tenant's webhook attempt slots: who holds it and until when (a lease; TTL removes it). */
export const attemptSlotEntity = defineEntity<{ slot: number; holder: string; leaseUntil: number }, { tenant: string }>({
  name: 'attempt_slot',
  label: 'Webhook attempt slot',
  key: { pk: 'WHSLOTS#{tenant}', sk: 'SLOT#{slot}' },
  values: (lease, { tenant }) => ({ tenant, slot: lease.slot }),
});

/** One fixed window of a rate limit (resends): a counter that TTL removes after its window. */
export const rateLimitEntity = defineEntity({ name: 'rate_limit', label: 'Rate limit window', key: { pk: 'RATE#{subject}#{window}', sk: 'RATE' } });

/**
 * A notification of the acquirer, kept before it is acknowledged (`{notification}`: its identity,
 * `eventCode:pspReference:success:{digest of the other signed fields}` for Adyen): a repeat of it
 * finds it kept. The table stream
 * hands it, while not processed, to the function that processes it once. TTL after 60 days,
 * longer than Adyen retries one (30 days).
 */
export const acquirerNotificationEntity = defineEntity<{ id: string }>({
  name: 'acquirer_notification',
  label: 'Acquirer notification',
  key: { pk: 'ACQN#{notification}', sk: 'ACQN' },
  values: (notification) => ({ notification: notification.id }),
});

/** A capture or cancel owed to the acquirer, per authorisation (`{reference}`: its pspReference); due while not taken, then `sent` until its notification settles it. */
export const acquirerCommandEntity = defineEntity<AcquirerCommand>({
  name: 'acquirer_command',
  label: 'Acquirer command',
  key: { pk: 'ACQCMD#{reference}', sk: '{operation}' },
  indexes: { due: { pk: 'DUE#ACQ_COMMAND', sk: '{due_at}#{reference}#{operation}', when: (command) => command.status === 'due' } },
  values: (command) => ({ reference: command.authorisation.acquirerReference, operation: command.operation, due_at: command.dueAt }),
});

/**
 * The audit trail (product-decisions §17): one immutable record per action, put in the
 * transaction of the change it records (shared/db/audit-trail.ts), kept a year (TTL). A record is
 * read from the list of a mode (`{view}`): a key of test mode reads test's, of live mode live's.
 * A record of a mode is in its mode's list only; one of no mode (a sign-in, a team change) is put
 * once in each, so that every list, filtered or not, is one partition and a page one Query
 * (docs/architecture.md, "The audit trail"). Each filter is a list of its own.
 */
export const auditEventEntity = defineEntity<AuditRecord, { view: Mode }>({
  name: 'audit_event',
  label: 'Audit event',
  key: { pk: 'AUD#{aud}', sk: 'VIEW#{view}' },
  indexes: {
    gsi1: { pk: '{scope}#AUD', sk: '{aud}' },
    gsi2: { pk: '{scope}#AUD#ACTION#{action}', sk: '{aud}' },
    gsi3: { pk: '{scope}#AUD#ACTOR#{actor}', sk: '{aud}', when: (record) => actorIdOf(record.actor) !== undefined },
    gsi4: { pk: '{scope}#AUD#TARGET#{target}', sk: '{aud}', when: (record) => record.target !== null },
  },
  values: (record, { view }) => ({
    aud: record.id,
    view,
    scope: scopeOf(record.orgId, view),
    action: record.action,
    actor: actorIdOf(record.actor) ?? '',
    target: record.target?.id ?? '',
  }),
});

/**
 * A report (product-decisions §18): the request, then its outcome, on one item; its scope's list
 * (GET /v1/reports) newest first. Its INSERT on the table stream is what starts its builder
 * (shared/db/report-records.ts).
 */
export const reportEntity = defineEntity<Report>({
  name: 'report',
  label: 'Report',
  key: { pk: 'RPT#{rpt}', sk: 'RPT' },
  indexes: {
    gsi1: { pk: '{scope}#RPT', sk: '{rpt}' },
    // While pending, by the moment it is given up on (the minute job fail-overdue-reports).
    due: { pk: 'DUE#RPT_PENDING', sk: '{deadline}#{rpt}', when: (report) => report.status === 'pending' },
  },
  values: (report) => ({ rpt: report.id, scope: scoped(report), deadline: reportBuildDeadline(report) }),
  object: { type: 'report', id: (report) => report.id },
});

export const entities = [
  organizationEntity,
  acceptorEntity,
  userEntity,
  userEmailEntity,
  totpEnrolmentEntity,
  totpFactorEntity,
  recoveryCodesEntity,
  passkeyEntity,
  webAuthnChallengeEntity,
  invitationEntity,
  passwordResetEntity,
  apiKeyEntity,
  paymentLinkEntity,
  paymentLinkPaidShardEntity,
  checkoutSessionEntity,
  paymentEntity,
  refundEntity,
  chargebackEntity,
  chargebackReferenceEntity,
  disputeDocumentEntity,
  balanceEntity,
  balanceTransactionEntity,
  settlementEntity,
  settlementCodeEntity,
  settlementRecordEntity,
  eventEntity,
  deliveryAttemptEntity,
  webhookSubscriptionEntity,
  webhookSubscriptionCountEntity,
  idempotencyEntity,
  dashboardSessionEntity,
  pendingSignInEntity,
  attemptWindowEntity,
  deliveryEntity,
  eventResendEntity,
  webhookUrlSecretEntity,
  rateLimitEntity,
  attemptSlotEntity,
  acquirerNotificationEntity,
  acquirerCommandEntity,
  auditEventEntity,
  reportEntity,
];
