import { localAwsConfig } from '../db/client';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys';
import type { PublishedEvent } from '../domain/webhook-delivery';
import { logger } from '../observability/logger';
import { isoMillis } from '../time';
import { isPublishable, publishedEventOf, type StreamRecordLike } from '../webhooks/stream-records';

export interface StreamPublisherOptions {
  endpoint: string;
  tableName: string;
  db: DynamoDBDocumentClient;
  /** Where events go (locally: fan-out into the delivery queue). Throwing retries the same records. */
  publish(events: PublishedEvent[]): Promise<void>;
  /** Pause when the stream had nothing new. */
  pollIntervalMs?: number;
}

interface ShardState {
  id: string;
  parentId?: string;
  iterator?: string;
  /** Last record handled (in memory); the checkpoint item holds the last one published. */
  lastSequence?: string;
  closed: boolean;
}

/**
 * DynamoDB Local's stream writes an empty map attribute as `{}` instead of `{"M": {}}` (lists
 * are fine), which unmarshall rejects. In a stream image, `{}` can only be an empty map.
 */
function repairEmptyMaps<T>(record: T): T {
  const repair = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(repair);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    return Object.fromEntries(
      entries.map(([name, inner]) => [
        name,
        inner !== null && typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length === 0 ? { M: {} } : repair(inner),
      ]),
    );
  };
  const copy = { ...record } as { dynamodb?: { NewImage?: unknown } };
  if (copy.dynamodb?.NewImage) copy.dynamodb = { ...copy.dynamodb, NewImage: repair(copy.dynamodb.NewImage) };
  return copy as T;
}

const DISCOVERY_INTERVAL_MS = 5_000;
const ERROR_PAUSE_MS = 1_000;

/**
 * The stream-triggered function's local twin: reads DynamoDB Local's table stream, shard by
 * shard (a child only after its parent is finished), hands each batch's outbox events and
 * replay requests to `publish`, and only then writes the shard's checkpoint
 * (keys.streamCheckpoint). Stopped or crashed between a commit and its publish, it resumes after
 * the checkpoint and publishes the event then; stopped after a publish but before the
 * checkpoint, it publishes it again, which deliveries deduplicate.
 *
 * The checkpoint is written only after batches that held events, so that its own writes (which
 * are stream records too) do not keep it busy.
 */
export function startStreamPublisher(options: StreamPublisherOptions): { stop(): Promise<void> } {
  const config = localAwsConfig(options.endpoint);
  const streams = new DynamoDBStreamsClient(config);
  const dynamo = new DynamoDBClient(config);
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const shards = new Map<string, ShardState>();
  let streamArn: string | undefined;
  let discoveredAt = 0;
  let running = true;
  let wake = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function discover(): Promise<void> {
    if (!streamArn) {
      streamArn = (await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }))).Table?.LatestStreamArn;
      if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
    }
    let start: string | undefined;
    do {
      const page = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      for (const shard of page.StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        const checkpoint = (
          await options.db.send(new GetCommand({ TableName: options.tableName, Key: keys.streamCheckpoint(shard.ShardId), ConsistentRead: true }))
        ).Item;
        shards.set(shard.ShardId, {
          id: shard.ShardId,
          parentId: shard.ParentShardId,
          lastSequence: checkpoint?.sequenceNumber,
          closed: checkpoint?.closed === true,
        });
      }
      start = page.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    discoveredAt = Date.now();
  }

  const isReady = (shard: ShardState) => {
    const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
    return !shard.closed && (!parent || parent.closed);
  };

  async function iteratorFor(shard: ShardState): Promise<string | undefined> {
    const request = shard.lastSequence
      ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: shard.lastSequence }
      : { ShardIteratorType: 'TRIM_HORIZON' as const };
    try {
      return (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.id, ...request }))).ShardIterator;
    } catch (error) {
      if ((error as Error).name !== 'TrimmedDataAccessException') throw error;
      return (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.id, ShardIteratorType: 'TRIM_HORIZON' })))
        .ShardIterator;
    }
  }

  async function checkpoint(shard: ShardState): Promise<void> {
    await options.db.send(
      new PutCommand({
        TableName: options.tableName,
        Item: {
          ...keys.streamCheckpoint(shard.id),
          entity: 'stream_checkpoint',
          sequenceNumber: shard.lastSequence,
          closed: shard.closed,
          updatedAt: isoMillis(),
        },
      }),
    );
  }

  /** One GetRecords of one shard; returns how many records it read. */
  async function poll(shard: ShardState): Promise<number> {
    shard.iterator ??= await iteratorFor(shard);
    if (!shard.iterator) {
      shard.closed = true;
      discoveredAt = 0;
      return 0;
    }
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 100 }));
    const records = (page.Records ?? []).map(repairEmptyMaps) as StreamRecordLike[];
    const events = records.filter(isPublishable).map(publishedEventOf);
    if (events.length > 0) await options.publish(events);
    if (records.length > 0) shard.lastSequence = records.at(-1)!.dynamodb!.SequenceNumber;
    shard.iterator = page.NextShardIterator;
    if (!shard.iterator) {
      shard.closed = true;
      discoveredAt = 0; // look for its children now
    }
    if (events.length > 0 || shard.closed) await checkpoint(shard);
    return records.length;
  }

  const loop = (async () => {
    while (running) {
      let read = 0;
      try {
        if (!streamArn || Date.now() - discoveredAt > DISCOVERY_INTERVAL_MS) await discover();
        for (const shard of [...shards.values()].filter(isReady)) {
          if (!running) break;
          read += await poll(shard);
        }
      } catch (error) {
        if (!running) break;
        logger.error('outbox publisher: stream read or publish failed; retrying', { error: (error as Error).message });
        // Unpublished records are read again from the last record handled.
        for (const shard of shards.values()) shard.iterator = undefined;
        await pause(ERROR_PAUSE_MS);
        continue;
      }
      if (read === 0 && running) await pause(pollIntervalMs);
    }
  })();

  return {
    async stop() {
      running = false;
      wake();
      await loop;
      streams.destroy();
      dynamo.destroy();
    },
  };
}
