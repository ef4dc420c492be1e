import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { AWS_LIMITS } from '../../shared/aws-limits';
import { localAwsConfig } from '../../shared/db/client';
import { logger } from '../../shared/observability/logger';

export type { StreamRecord };

/** Where a shard was left: the last record handled, and whether the shard is finished. */
export interface ShardCheckpoint {
  sequenceNumber?: string;
  closed: boolean;
}

export interface CheckpointStore {
  load(shardId: string): Promise<ShardCheckpoint | undefined>;
  save(shardId: string, checkpoint: ShardCheckpoint): Promise<void>;
}

/** Where a stream reader (a mapping's stand-in, the local outbox processor) keeps its place: a JSON file in the data folder, or memory. */
export function mappingCheckpoints(dataDir: string, mapping: string): CheckpointStore {
  const file = dataDir === ':memory:' ? undefined : resolve(dataDir, 'stream-checkpoints.json');
  const saved = (): Record<string, ShardCheckpoint> => (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
  // Only this reader's places: the file is shared, and another reader's in memory would go stale.
  const memory = Object.fromEntries(Object.entries(saved()).filter(([key]) => key.startsWith(`${mapping}#`)));
  return {
    load: async (shardId) => memory[`${mapping}#${shardId}`],
    async save(shardId, checkpoint) {
      memory[`${mapping}#${shardId}`] = checkpoint;
      if (!file) return;
      // Whole or not at all: a stop in the middle of a write must not leave a file the next start cannot read.
      writeFileSync(`${file}.next`, JSON.stringify({ ...saved(), ...memory }));
      renameSync(`${file}.next`, file);
    },
  };
}

export interface TableStreamReaderOptions {
  endpoint: string;
  tableName: string;
  checkpoints: CheckpointStore;
  /**
   * One page of a shard's records, in order. Resolving moves past them (true: and saves the
   * checkpoint); throwing reads the same records again after a pause.
   */
  handle(records: StreamRecord[], shardId: string): Promise<boolean>;
  /** Pause when the stream had nothing new: by default Lambda's, a quarter of a second. */
  pollIntervalMs?: number;
  /** Who reads, for the log. */
  name: string;
}

interface ShardState {
  id: string;
  parentId?: string;
  iterator?: string;
  /** Last record handled (in memory); the checkpoint holds the last one saved. */
  lastSequence?: string;
  closed: boolean;
}

/**
 * DynamoDB Local's stream writes an empty map attribute as `{}` instead of `{"M": {}}` (lists
 * are fine), which unmarshall rejects. In a stream image, `{}` can only be an empty map; a
 * Binary value's bytes are left as they are.
 */
function repairEmptyMaps(record: StreamRecord): StreamRecord {
  const repair = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(repair);
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
    const entries = Object.entries(value);
    return Object.fromEntries(
      entries.map(([name, inner]) => [
        name,
        inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Uint8Array) && Object.keys(inner).length === 0 ? { M: {} } : repair(inner),
      ]),
    );
  };
  if (!record.dynamodb?.NewImage) return record;
  return { ...record, dynamodb: { ...record.dynamodb, NewImage: repair(record.dynamodb.NewImage) as typeof record.dynamodb.NewImage } };
}

const DISCOVERY_INTERVAL_MS = 5_000;
const ERROR_PAUSE_MS = 1_000;

/**
 * Reads a table's stream in DynamoDB Local the way a stream consumer must: shard by shard, a
 * child only after its parent is finished, each shard from its checkpoint (or the oldest
 * record), handing each page of records to `handle` and moving on only when it resolves.
 */
export function startTableStreamReader(options: TableStreamReaderOptions): { streamArn(): Promise<string>; stop(): Promise<void> } {
  const config = localAwsConfig(options.endpoint);
  const streams = new DynamoDBStreamsClient(config);
  const dynamo = new DynamoDBClient(config);
  const pollIntervalMs = options.pollIntervalMs ?? 1000 / AWS_LIMITS.eventSourceMapping.streamPollsPerSecond;
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

  async function arn(): Promise<string> {
    streamArn ??= (await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }))).Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
    return streamArn;
  }

  async function discover(): Promise<void> {
    let start: string | undefined;
    do {
      const page = await streams.send(new DescribeStreamCommand({ StreamArn: await arn(), ExclusiveStartShardId: start }));
      for (const shard of page.StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        const checkpoint = await options.checkpoints.load(shard.ShardId);
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
      return (await streams.send(new GetShardIteratorCommand({ StreamArn: await arn(), ShardId: shard.id, ...request }))).ShardIterator;
    } catch (error) {
      if ((error as Error).name !== 'TrimmedDataAccessException') throw error;
      return (await streams.send(new GetShardIteratorCommand({ StreamArn: await arn(), ShardId: shard.id, ShardIteratorType: 'TRIM_HORIZON' })))
        .ShardIterator;
    }
  }

  /** One GetRecords of one shard; returns how many records it read. */
  async function poll(shard: ShardState): Promise<number> {
    shard.iterator ??= await iteratorFor(shard);
    if (!shard.iterator) {
      shard.closed = true;
      discoveredAt = 0;
      return 0;
    }
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 1000 }));
    const records = (page.Records ?? []).map(repairEmptyMaps);
    const save = records.length > 0 && (await options.handle(records, shard.id));
    if (records.length > 0) shard.lastSequence = records.at(-1)!.dynamodb!.SequenceNumber;
    shard.iterator = page.NextShardIterator;
    if (!shard.iterator) {
      shard.closed = true;
      discoveredAt = 0; // look for its children now
    }
    if (save || shard.closed) await options.checkpoints.save(shard.id, { sequenceNumber: shard.lastSequence, closed: shard.closed });
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
        logger.error(`${options.name}: stream read or handling failed; retrying`, { error: (error as Error).message });
        // Unhandled records are read again from the last record handled.
        for (const shard of shards.values()) shard.iterator = undefined;
        await pause(ERROR_PAUSE_MS);
        continue;
      }
      if (read === 0 && running) await pause(pollIntervalMs);
    }
  })();

  return {
    streamArn: arn,
    async stop() {
      running = false;
      wake();
      await loop;
      streams.destroy();
      dynamo.destroy();
    },
  };
}
