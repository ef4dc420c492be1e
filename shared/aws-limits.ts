/**
 * The numbers AWS enforces on the services this stack uses, in one place: the CDK stack sizes
 * its wiring with them, the adapters batch by them, and artifact mode's local stand-ins refuse
 * what AWS would refuse. Sources (checked 2026-11):
 * - API Gateway HTTP API quotas: integration timeout 30 s, payload 10 MB
 *   (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html);
 * - Lambda quotas: 6 MB synchronous request and response, 10 s init phase, 900 s timeout;
 * - Lambda's asynchronous invocation: a function error is retried twice by default, "with a
 *   one-minute wait between the first two attempts, and two minutes between the second and
 *   third" (Lambda developer guide, "Error handling and automatic retries");
 * - SQS, EventBridge and asynchronous Lambda invocations: 1 MB payloads since 29 January 2026,
 *   256 KB before ("More room to build: serverless services now support payloads up to 1 MB",
 *   AWS Compute Blog); SQS documents 1 MiB (1,048,576 bytes), taken here for EventBridge too;
 * - SQS: DelaySeconds 0..900, visibility timeout 0..43,200 s (12 hours from the receive),
 *   10 entries per batch call, 10 messages per receive, maxReceiveCount 1..1,000;
 * - Lambda event source mappings: a queue's visibility timeout at least six times the
 *   consumer's timeout (AWS's advice; Lambda refuses a mapping whose visibility timeout is
 *   shorter than the function timeout); each shard of a DynamoDB stream polled four times a
 *   second ("Lambda polls shards in your DynamoDB stream for records at a base rate of four
 *   times per second", Lambda developer guide, "Using Lambda with DynamoDB");
 * - SES API v2: a message of at most 40 MB after base64 encoding, to at most 50 recipients
 *   across To, CC and BCC ("Service quotas in Amazon SES");
 * - KMS: Encrypt takes at most 4,096 bytes of plaintext, GenerateDataKey 1..1,024 bytes (KMS API
 *   reference);
 * - S3 multipart upload: parts of at least 5 MiB but the last (CompleteMultipartUpload refuses a
 *   smaller one: EntityTooSmall), at most 10,000 parts ("Amazon S3 multipart upload limits").
 */
export const AWS_LIMITS = {
  apiGateway: {
    integrationTimeoutMs: 30_000,
    payloadBytes: 10 * 1024 * 1024,
  },
  lambda: {
    /** Request and response of a synchronous invocation (API Gateway, event source mappings). */
    syncPayloadBytes: 6 * 1024 * 1024,
    /** An asynchronous invocation's event (EventBridge rules, schedules). */
    asyncPayloadBytes: 1024 * 1024,
    /** The init phase (module import) of a new execution environment. */
    initTimeoutMs: 10_000,
    maxTimeoutSeconds: 900,
    /** The waits before the retries of an asynchronous invocation that failed (two by default). */
    asyncRetryWaitsMs: [60_000, 120_000],
  },
  eventBridge: {
    putEventsEntries: 10,
    /** The sum of a PutEvents request's entry sizes (putEventsEntrySize). */
    putEventsBytes: 1024 * 1024,
  },
  sqs: {
    messageBytes: 1024 * 1024,
    /** The sum of a SendMessageBatch request's messages. */
    batchBytes: 1024 * 1024,
    batchEntries: 10,
    receiveMessages: 10,
    maxDelaySeconds: 900,
    maxVisibilityTimeoutSeconds: 43_200,
    maxWaitTimeSeconds: 20,
    maxReceiveCount: 1000,
  },
  ses: {
    /** A message after base64 encoding, attachments included (API v2 and SMTP; v1 allows 10 MB). */
    messageBytes: 40 * 1024 * 1024,
    recipientsPerMessage: 50,
  },
  kms: {
    encryptPlaintextBytes: 4096,
    dataKeyBytes: 1024,
  },
  s3: {
    /** The least a multipart upload's part may hold, the last part aside. */
    minPartBytes: 5 * 1024 * 1024,
    maxParts: 10_000,
  },
  eventSourceMapping: {
    /** A queue's visibility timeout per second of its consumer's timeout. */
    visibilityPerConsumerTimeout: 6,
    /** GetRecords calls a mapping makes on one shard of a table stream, each second at most. */
    streamPollsPerSecond: 4,
  },
} as const;

/** What EventBridge counts of one PutEvents entry, as AWS documents it ("Calculating PutEvents event entry size"). */
export function putEventsEntrySize(entry: { Time?: unknown; Source?: string; DetailType?: string; Detail?: string; Resources?: string[] }): number {
  const bytes = (text: string | undefined) => (text ? Buffer.byteLength(text, 'utf8') : 0);
  return (
    (entry.Time !== undefined ? 14 : 0) +
    bytes(entry.Source) +
    bytes(entry.DetailType) +
    bytes(entry.Detail) +
    (entry.Resources ?? []).reduce((sum, resource) => sum + bytes(resource), 0)
  );
}

/** The shortest visibility timeout a queue consumed by a function with this timeout should have. */
export function minimumVisibilityTimeoutSeconds(consumerTimeoutSeconds: number): number {
  return consumerTimeoutSeconds * AWS_LIMITS.eventSourceMapping.visibilityPerConsumerTimeout;
}
