import { unmarshall } from '@aws-sdk/util-dynamodb';
import { eventEntity, eventResendEntity } from '../db/entities';
import { literalPrefix } from '../db/entity';
import { storedEnvelope } from '../db/outbox';
import type { PublishedEvent } from '../domain/webhook-delivery';

/** EventBridge `source` of every event the service publishes. */
export const EVENT_SOURCE = 'payment-operations';

/**
 * What the publisher takes from the table stream: new outbox items (`EVT#{evt}` / `EVT`) and
 * replay requests (`EVT#{evt}` / `RESEND#…`). Delivery records share the event's partition
 * (`DLV#…`, `DELIVERY#…`) and are left out. These are also the Lambda event-source filters
 * (an OR of patterns), so the AWS function is not even invoked for anything else.
 */
const EVENT_PARTITION = literalPrefix(eventEntity.definition.key.pk);
const EVENT_SORT_KEY = eventEntity.definition.key.sk;
const RESEND_PREFIX = literalPrefix(eventResendEntity.definition.key.sk);

export const PUBLISHABLE_RECORD_FILTERS = [
  { eventName: ['INSERT'], dynamodb: { Keys: { PK: { S: [{ prefix: EVENT_PARTITION }] }, SK: { S: [EVENT_SORT_KEY] } } } },
  { eventName: ['INSERT'], dynamodb: { Keys: { PK: { S: [{ prefix: EVENT_PARTITION }] }, SK: { S: [{ prefix: RESEND_PREFIX }] } } } },
];

/** The shape shared by Lambda's DynamoDB stream records and the Streams API's records. */
export interface StreamRecordLike {
  eventName?: string;
  dynamodb?: {
    Keys?: Record<string, { S?: string } | undefined>;
    NewImage?: Record<string, unknown>;
    SequenceNumber?: string;
  };
}

export function isPublishable(record: StreamRecordLike): boolean {
  const pk = record.dynamodb?.Keys?.PK?.S;
  const sk = record.dynamodb?.Keys?.SK?.S;
  return record.eventName === 'INSERT' && !!pk?.startsWith(EVENT_PARTITION) && (sk === EVENT_SORT_KEY || !!sk?.startsWith(RESEND_PREFIX));
}

/**
 * A new image's attributes with each Binary one as bytes: Lambda's records carry it in base64 (the
 * JSON form of DynamoDB's API), which unmarshall would hand on as a string.
 */
function withBinaryBytes(image: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(image).map(([name, value]) => {
      const binary = (value as { B?: unknown } | undefined)?.B;
      return [name, typeof binary === 'string' ? { B: Buffer.from(binary, 'base64') } : value];
    }),
  );
}

/** The stored outbox event of a stream record's new image (plus the replay id of a resend). */
export function publishedEventOf(record: StreamRecordLike): PublishedEvent {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const item = unmarshall(withBinaryBytes(record.dynamodb!.NewImage!) as any);
  return {
    envelope: storedEnvelope(item.envelope),
    orgId: item.orgId,
    ...(item.targetUrls ? { targetUrls: item.targetUrls } : {}),
    ...(item.resendId ? { resendId: item.resendId } : {}),
    ...(item.subscriptionId ? { subscriptionId: item.subscriptionId } : {}),
  };
}
