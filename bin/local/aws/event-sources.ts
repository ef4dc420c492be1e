import { randomUUID } from 'node:crypto';
import { AWS_LIMITS, minimumVisibilityTimeoutSeconds } from '../../../shared/aws-limits';
import { logger } from '../../../shared/observability/logger';
import { chunks } from '../../../shared/webhooks/retry-batches';
import { NO_FAULTS, type Faults } from '../faults';
import { startTableStreamReader, type CheckpointStore, type StreamRecord } from '../table-stream';
import type { AccessPolicies } from './iam';
import { eventPattern } from './patterns';
import type { LocalQueue } from './sqs';
import { resourcesOfType, type SynthesizedStack } from './template';
import type { FunctionPool, FunctionSpec } from './workers';

/** AWS::Lambda::EventSourceMapping's settings this stand-in honours, with Lambda's defaults. */
export interface MappingSettings {
  name: string;
  batchSize: number;
  filters: ((record: unknown) => boolean)[];
  reportBatchItemFailures: boolean;
  /** Streams: -1 retries until the records expire. */
  maximumRetryAttempts: number;
  bisectBatchOnFunctionError: boolean;
  /** Streams: records older than this are skipped (-1: never). */
  maximumRecordAgeSeconds: number;
  /** Streams: where a batch goes when it is given up (an SQS queue here). */
  onFailure?: LocalQueue;
}

/** Reads a mapping's properties as the template gives them (already resolved), with Lambda's defaults. */
function mappingSettings(name: string, properties: Record<string, unknown>, queueAt: (arn: string) => LocalQueue | undefined, stream: boolean): MappingSettings {
  const filters = ((properties.FilterCriteria as { Filters?: { Pattern: string }[] } | undefined)?.Filters ?? []).map((filter) => eventPattern(filter.Pattern));
  const destination = (properties.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)?.OnFailure?.Destination;
  const onFailure = destination ? queueAt(destination) : undefined;
  if (destination && !onFailure) throw new Error(`Mapping ${name}: on-failure destination ${destination} is not an SQS queue of the stack`);
  return {
    name,
    batchSize: Number(properties.BatchSize ?? (stream ? 100 : 10)),
    filters,
    reportBatchItemFailures: ((properties.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
    maximumRetryAttempts: Number(properties.MaximumRetryAttempts ?? -1),
    bisectBatchOnFunctionError: properties.BisectBatchOnFunctionError === true,
    maximumRecordAgeSeconds: Number(properties.MaximumRecordAgeInSeconds ?? -1),
    onFailure,
  };
}

const passes = (settings: MappingSettings, record: unknown) => settings.filters.length === 0 || settings.filters.some((filter) => filter(record));

const RETRY_PAUSE_MS = 500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const IMAGES = ['Keys', 'NewImage', 'OldImage'] as const;

/**
 * An image as Lambda hands it over: in DynamoDB's JSON form, a Binary value (`B`, each of a `BS`)
 * in base64, where the Streams client has decoded it to bytes.
 */
function inJsonForm(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(inJsonForm);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, inJsonForm(inner)]));
  return value;
}

/** A DynamoDB stream record as Lambda hands it to a function. */
interface LambdaStreamRecord {
  eventID?: string;
  eventName?: string;
  eventVersion?: string;
  eventSource?: string;
  awsRegion: string;
  dynamodb: Record<string, unknown> & { SequenceNumber?: string; ApproximateCreationDateTime?: number };
  eventSourceARN: string;
}

/**
 * A table stream's event source mapping: each shard's records, filtered by the mapping's
 * criteria, in batches to the function, one batch at a time per shard. A failed batch is
 * retried (after a partial batch response, from its first failed record), halved first when
 * bisecting, until MaximumRetryAttempts; then its description goes to the on-failure
 * destination and the shard moves on. With -1 the shard waits on the batch, as in AWS. The fault
 * `stream.redelivery` hands a batch that succeeded to the function once more (Lambda's
 * at-least-once delivery of stream records).
 */
export function startStreamMapping(options: {
  settings: MappingSettings;
  /** The function's execution environments (source mode: its handler in this process). */
  pool: { spec: { arn: string }; invoke: FunctionPool['invoke'] };
  endpoint: string;
  tableName: string;
  region: string;
  /** The stream's ARN as the template names it (the records' eventSourceARN). */
  eventSourceArn: string;
  checkpoints: CheckpointStore;
  faults?: Faults;
}): { stop(): Promise<void> } {
  const { settings, pool } = options;
  const faults = options.faults ?? NO_FAULTS;
  let running = true;

  const toLambda = (record: StreamRecord): LambdaStreamRecord => ({
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: options.region,
    dynamodb: {
      ...record.dynamodb,
      ...Object.fromEntries(IMAGES.flatMap((image) => (record.dynamodb?.[image] ? [[image, inJsonForm(record.dynamodb[image])]] : []))),
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
        ? Math.floor(new Date(record.dynamodb.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
    },
    eventSourceARN: options.eventSourceArn,
  });

  const tooOld = (record: LambdaStreamRecord) =>
    settings.maximumRecordAgeSeconds >= 0 && Date.now() / 1000 - (record.dynamodb.ApproximateCreationDateTime ?? 0) > settings.maximumRecordAgeSeconds;

  function giveUp(batch: LambdaStreamRecord[], shardId: string, reason: string) {
    logger.error('local AWS: stream batch given up', { mapping: settings.name, records: batch.length, reason, destination: settings.onFailure?.settings.name ?? 'none' });
    settings.onFailure?.send(
      JSON.stringify({
        requestContext: { requestId: randomUUID(), functionArn: pool.spec.arn, condition: reason, approximateInvokeCount: settings.maximumRetryAttempts + 1 },
        timestamp: new Date().toISOString(),
        DDBStreamBatchInfo: {
          shardId,
          startSequenceNumber: batch[0].dynamodb.SequenceNumber,
          endSequenceNumber: batch.at(-1)!.dynamodb.SequenceNumber,
          batchSize: batch.length,
          streamArn: options.eventSourceArn,
        },
      }),
    );
  }

  /**
   * Runs one batch to its end: done, or given up; `attempts` counts the invocations already
   * spent on it. Stopped halfway, it throws, so that the shard is not checkpointed past it.
   */
  async function runBatch(batch: LambdaStreamRecord[], shardId: string, attempts = 0): Promise<void> {
    let pending = batch.filter((record) => !tooOld(record));
    while (pending.length > 0 && running) {
      const outcome = await pool.invoke({ Records: pending });
      // Stopping ends invocations halfway: that is no failure of the batch.
      if (!running) break;
      attempts++;
      let failedFrom = -1;
      if (outcome.ok) {
        const failures = (outcome.result as { batchItemFailures?: { itemIdentifier?: string }[] } | null)?.batchItemFailures ?? [];
        if (!settings.reportBatchItemFailures || failures.length === 0) {
          if (faults.strikes('stream.redelivery', settings.name)) await pool.invoke({ Records: pending });
          return;
        }
        const indexes = failures.map((failure) => pending.findIndex((record) => record.dynamodb.SequenceNumber === failure.itemIdentifier));
        failedFrom = indexes.some((index) => index < 0) ? 0 : Math.min(...indexes);
      } else if (settings.bisectBatchOnFunctionError && pending.length > 1) {
        const half = Math.ceil(pending.length / 2);
        await runBatch(pending.slice(0, half), shardId, attempts);
        await runBatch(pending.slice(half), shardId, attempts);
        return;
      } else {
        failedFrom = 0;
      }
      pending = pending.slice(failedFrom);
      if (settings.maximumRetryAttempts >= 0 && attempts > settings.maximumRetryAttempts) {
        return giveUp(pending, shardId, outcome.ok ? 'PartialBatchFailure' : 'RetryAttemptsExhausted');
      }
      await pause(RETRY_PAUSE_MS);
      pending = pending.filter((record) => !tooOld(record));
    }
    if (pending.length > 0) throw new Error('stopped before the batch was done');
  }

  const reader = startTableStreamReader({
    name: `stream mapping ${settings.name}`,
    endpoint: options.endpoint,
    tableName: options.tableName,
    checkpoints: options.checkpoints,
    async handle(records, shardId) {
      const selected = records.map(toLambda).filter((record) => passes(settings, record));
      // A batch is also bounded by the synchronous invocation payload (with room for its envelope).
      const limits = { entries: settings.batchSize, bytes: AWS_LIMITS.lambda.syncPayloadBytes - 1024, sizeOf: (record: LambdaStreamRecord) => Buffer.byteLength(JSON.stringify(record)) };
      for (const batch of chunks(selected, limits)) await runBatch(batch, shardId);
      return true;
    },
  });

  return {
    async stop() {
      running = false;
      await reader.stop();
    },
  };
}

/**
 * An SQS queue's event source mapping: pollers receive batches with the queue's visibility
 * timeout and invoke the function; messages of a successful invocation are deleted, except
 * those a partial batch response names; a failed invocation deletes nothing, so its messages
 * come back after the visibility timeout (and reach the dead-letter queue by the redrive policy).
 * The fault `sqs.redelivery` leaves a message of a successful batch in the queue, visible again at
 * once (SQS's at-least-once delivery).
 */
export function startQueueMapping(options: {
  settings: MappingSettings;
  pool: FunctionPool;
  queue: LocalQueue;
  region: string;
  pollers: number;
  faults?: Faults;
  /** Counts the SQS requests Lambda's pollers make (bin/local/usage.ts): a receive that found messages, a delete batch. */
  onRequest?: () => void;
}): {
  stop(): Promise<void>;
} {
  const { settings, pool, queue } = options;
  const faults = options.faults ?? NO_FAULTS;
  let running = true;

  /** One receive and its invocation. */
  async function pollOnce(): Promise<void> {
    const messages = await queue.receive({
      max: Math.min(settings.batchSize, AWS_LIMITS.sqs.receiveMessages),
      waitSeconds: AWS_LIMITS.sqs.maxWaitTimeSeconds,
      stopped: () => !running,
    });
    const records = messages.map((message) => ({
      messageId: message.MessageId,
      receiptHandle: message.ReceiptHandle,
      body: message.Body,
      attributes: message.Attributes,
      messageAttributes: {},
      md5OfBody: message.MD5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: queue.settings.arn,
      awsRegion: options.region,
    }));
    if (records.length > 0) options.onRequest?.();
    const selected = records.filter((record) => passes(settings, record));
    // A message the filters drop is deleted, as Lambda does.
    for (const record of records) if (!selected.includes(record)) queue.delete(record.receiptHandle);
    if (selected.length === 0) return;
    const outcome = await pool.invoke({ Records: selected });
    if (!outcome.ok) {
      logger.warn('local AWS: queue batch failed; its messages return after the visibility timeout', { mapping: settings.name, error: outcome.errorMessage });
      return;
    }
    const failures = (outcome.result as { batchItemFailures?: { itemIdentifier?: string }[] } | null)?.batchItemFailures ?? [];
    const failed = new Set(settings.reportBatchItemFailures ? failures.map((failure) => failure.itemIdentifier) : []);
    // An identifier that names no message of the batch fails the whole batch.
    if ([...failed].some((id) => !selected.some((record) => record.messageId === id))) return;
    if (selected.some((record) => !failed.has(record.messageId))) options.onRequest?.();
    for (const record of selected) {
      if (failed.has(record.messageId)) continue;
      if (faults.strikes('sqs.redelivery', queue.settings.name)) queue.changeVisibility(record.receiptHandle, 0);
      else queue.delete(record.receiptHandle);
    }
  }

  async function poll(): Promise<void> {
    while (running) {
      try {
        await pollOnce();
      } catch (error) {
        // A receipt handle outlived by the visibility timeout, for instance: the message comes back.
        logger.error('local AWS: queue poll failed', { mapping: settings.name, error: (error as Error).message });
      }
    }
  }

  const pollers = Array.from({ length: options.pollers }, poll);
  return {
    async stop() {
      running = false;
      queue.wake();
      await Promise.all(pollers);
    },
  };
}

/** An event source mapping of the template, ready to start. */
export interface MappingDefinition {
  logicalId: string;
  spec: FunctionSpec & { role: string; maxWorkers: number };
  /** The queue it polls; none for a table stream. */
  queue?: LocalQueue;
  sourceArn: string;
  settings: MappingSettings;
}

/**
 * The template's event source mappings, checked as Lambda checks them when it creates them: the
 * function's role must allow reading the stream or queue, and a queue's visibility timeout must
 * be at least the function's timeout. AWS's advice is reported as warnings: a visibility timeout
 * of six times the consumer's timeout, a retry limit on a stream mapping.
 */
export function readMappings(
  stack: SynthesizedStack,
  resolve: (value: unknown) => unknown,
  deps: {
    functionByKey(key: string): MappingDefinition['spec'] | undefined;
    queueAt(arn: string): LocalQueue | undefined;
    policies: AccessPolicies;
  },
): MappingDefinition[] {
  return resourcesOfType(stack, 'AWS::Lambda::EventSourceMapping').map(([logicalId, mapping]) => {
    const properties = resolve(mapping.Properties ?? {}) as Record<string, unknown>;
    const spec = deps.functionByKey(String(properties.FunctionName));
    if (!spec) throw new Error(`Mapping ${logicalId} invokes no function of the stack`);
    const sourceArn = String(properties.EventSourceArn);
    const queue = deps.queueAt(sourceArn);
    const isStream = sourceArn.includes(':dynamodb:') && sourceArn.includes('/stream/');
    if (!queue && !isStream) throw new Error(`Mapping ${logicalId}: ${sourceArn} is neither a queue nor a table stream of the stack`);
    const needs = queue
      ? ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'].map((action) => ({ action, resource: sourceArn }))
      : [...['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].map((action) => ({ action, resource: sourceArn })), { action: 'dynamodb:ListStreams', resource: '*' }];
    for (const need of needs) {
      const decision = deps.policies.decide({ caller: { role: spec.role }, ...need });
      if (!decision.allowed) throw new Error(`Mapping ${logicalId}: the role of ${spec.name} lacks ${need.action} on ${need.resource} (Lambda refuses such a mapping)`);
    }
    if (queue) {
      const visibility = queue.settings.visibilityTimeoutSeconds;
      if (visibility < spec.timeoutSeconds) {
        throw new Error(`Mapping ${logicalId}: queue visibility timeout ${visibility} s is less than the timeout ${spec.timeoutSeconds} s of ${spec.name} (Lambda refuses such a mapping)`);
      }
      if (visibility < minimumVisibilityTimeoutSeconds(spec.timeoutSeconds)) {
        logger.warn('local AWS: a queue visibility timeout under six times its consumer\'s timeout lets a second consumer take a message still being worked on', {
          queue: queue.settings.name,
          visibilityTimeoutSeconds: visibility,
          consumerTimeoutSeconds: spec.timeoutSeconds,
        });
      }
    }
    const settings = mappingSettings(logicalId, properties, deps.queueAt, isStream);
    if (isStream && settings.maximumRetryAttempts < 0) {
      logger.warn('local AWS: a stream mapping without a retry limit blocks its shard on a record the function cannot handle', { mapping: logicalId, function: spec.name });
    }
    return { logicalId, spec, queue, sourceArn, settings };
  });
}
