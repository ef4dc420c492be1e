import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { LIMITS } from '../limits';
import { EVENT_RETENTION_DAYS, type EventEnvelope, type OutboxEvent } from '../events';
import { transactRetried } from './conditional';
import { eventEntity } from './entities';
import { TTL_ATTRIBUTE } from './table';
import { IF_NEW } from './entity';
import { transactionCarriesMore } from './side-effects';

/**
 * What envelopes repeat, as a preset dictionary of deflate (RFC 1951 §3.2.1's window, primed):
 * the envelope's own fields, the event types' words, and the fields of the objects the busiest
 * events carry (a payment link, a payment), the most frequent last (nearest, so cheapest). An
 * envelope of ≈ 850 bytes packs into ≈ 240 with it, ≈ 450 without (decisions 152). A format's
 * dictionary never changes while items packed with it live (35 days): a better one is a new format.
 */
const DICTIONARIES: Readonly<Record<number, Buffer>> = {
  1: Buffer.from(
    [
      '"refund":{"id":"rf_","reason":"","on_hold":false,"webhook_url":null,"metadata":{}',
      '"chargeback":{"id":"cb_","deadline_at":"","dispute":null,"acquirer":null,"code":""',
      '.refund.pending.refund.processing.refund.refunded.refund.failed.refund.canceled',
      '.chargeback.open.chargeback.accepted.chargeback.disputed.chargeback.won.chargeback.lost',
      '.payment_link.created.payment_link.properties.changed.payment_link.expired.payment_link.auto_inactivated',
      '.payment_link.remaining_payments.decremented.payment_link.payment.reused.payment.expired',
      '"links":{"api":{"type":"application/json","href":"https://"},"dashboard":{"type":"text/html","href":"https://"}}',
      '"amount_refunded":{"value":"0.00","currency":"EUR"},"amount_chargedback":{"value":"0.00","currency":"EUR"},',
      '"capture":null,"failure_reason":null,"acquirer_reference":null,"paid_at":"2026-","payment_link_id":"pl_","payment_id":"pay_","object":"payment","status":"paid"',
      '"paid_count":0,"last_paid_at":null,"description":"","expired_at":null,"remaining_payments":null,"payments_limit":null,"expires_at":null,',
      '"first_paid_at":null,"internal_reference":null,"redirect_url":null,"object":"payment_link","status":"active",',
      '"links":{"checkout":{"type":"text/html","href":"https://"}},',
      '{"mode":"test","data":{"amount":{"value":"","currency":"EUR"},"created_at":"2026-","acceptor_id":"acceptor_","org_id":"org_","id":"},',
      '"triggered_at":"2026-","id":"evt_","type":"transactions.payment.paid.payment_link.checkout.requested.payment_link.payment.created","version":"2026-","object":"event"}',
    ].join(''),
  ),
};
/** The format new items are packed in: their first byte. */
const PACKED_FORMAT = 1;

/**
 * The event item's envelope as it is stored: its JSON deflated against the format's dictionary,
 * behind the format's byte, a Binary attribute. Small enough that the item and each of its index
 * entries stay under 1 KB (1 WCU an entry, where the JSON itself took 2). Readers unpack it with
 * `storedEnvelope`, never zlib themselves.
 */
export function packEnvelope(envelope: EventEnvelope): Uint8Array {
  return Buffer.concat([Buffer.of(PACKED_FORMAT), deflateRawSync(JSON.stringify(envelope), { dictionary: DICTIONARIES[PACKED_FORMAT] })]);
}

/**
 * The envelope of an event item (or a replay request) as read back from DynamoDB: packed bytes, or
 * the map an item written before packing holds (until its TTL: the migration is reading both).
 */
export function storedEnvelope(stored: unknown): EventEnvelope {
  if (!(stored instanceof Uint8Array)) return stored as EventEnvelope;
  const dictionary = DICTIONARIES[stored[0]];
  if (!dictionary) throw new Error(`an event envelope packed in an unknown format (${stored[0]})`);
  return JSON.parse(inflateRawSync(stored.subarray(1), { dictionary }).toString('utf8')) as EventEnvelope;
}

/** An item holding an envelope, with it unpacked. */
export function withStoredEnvelope<T extends { envelope?: unknown }>(item: T): Omit<T, 'envelope'> & { envelope: EventEnvelope } {
  return { ...item, envelope: storedEnvelope(item.envelope) };
}

/** The outbox item; put it in the same TransactWriteItems as the change it reports. */
export function outboxItem(event: OutboxEvent): Record<string, unknown> {
  const { envelope } = event;
  // Inputs are bounded so that this never happens; if it did, nothing would be written rather
  // than an event EventBridge refuses (256 KB) holding up the stream behind it. The bound is the
  // envelope's JSON, as EventBridge receives it, not what the item packs.
  const bytes = Buffer.byteLength(JSON.stringify(envelope));
  if (bytes > LIMITS.eventBytes) throw new Error(`event ${envelope.type} is ${bytes} bytes, above ${LIMITS.eventBytes}`);
  return {
    ...eventEntity.item({
      orgId: event.orgId,
      mode: envelope.mode,
      type: envelope.type,
      envelope,
      ...(event.targetUrls ? { targetUrls: event.targetUrls } : {}),
      [TTL_ATTRIBUTE]: Math.floor(Date.parse(envelope.triggered_at) / 1000) + EVENT_RETENTION_DAYS * 86_400,
    }),
    envelope: packEnvelope(envelope),
  };
}

/** A TransactWriteItems action writing the event to the outbox. */
export function outboxPut(tableName: string, event: OutboxEvent) {
  return {
    Put: {
      TableName: tableName,
      Item: outboxItem(event),
      ...IF_NEW,
    },
  };
}

/** One action of a TransactWriteItems. */
export type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The actions, then their events' outbox puts, for one TransactWriteItems (a cancellation reason's index is its action's). */
export const withEvents = (tableName: string, actions: TransactAction[], events: OutboxEvent[]): TransactAction[] => [...actions, ...events.map((event) => outboxPut(tableName, event))];

/** The actions and their events in one TransactWriteItems, retried on writes lost to contention (`transactRetried`). */
export async function transactWithEvents(db: DynamoDBDocumentClient, tableName: string, actions: TransactAction[], events: OutboxEvent[]): Promise<void> {
  await transactRetried(db, withEvents(tableName, actions, events));
}

/**
 * An event recorded on its own (a denied checkout's): a conditional PutItem, not a transaction of
 * one action, unless the request's idempotency mark or audit record would ride that transaction
 * (`transactionCarriesMore`). One item is as atomic either way; alone it takes half the table's
 * write units and none of a transaction's time on the item. Its id is new, so a condition that
 * fails on it is this write's own, committed and its answer lost before the SDK's retry: done.
 */
export async function recordEvent(db: DynamoDBDocumentClient, tableName: string, event: OutboxEvent): Promise<void> {
  if (transactionCarriesMore()) return transactWithEvents(db, tableName, [], [event]);
  try {
    await db.send(new PutCommand(outboxPut(tableName, event).Put));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
