import { BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../time';

export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWriteItem takes at most 25 requests. */
export const BATCH_SIZE = 25;

export interface BatchOptions {
  /** Batches in flight at once. */
  concurrency?: number;
  /** Attempts per batch while DynamoDB hands back unprocessed items. */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts, in milliseconds. */
  backoffMs?: number;
}

async function writeBatch(db: DynamoDBDocumentClient, tableName: string, batch: WriteRequest[], options: Required<BatchOptions>) {
  let pending = batch;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
    pending = result.UnprocessedItems?.[tableName] ?? [];
    if (pending.length === 0) return;
    if (attempt >= options.maxAttempts) {
      throw new Error(`BatchWriteItem left ${pending.length} items unprocessed after ${attempt} attempts`);
    }
    await sleep(Math.random() * options.backoffMs * 2 ** attempt);
  }
}

/**
 * Writes every request in batches of 25, a few batches at a time, retrying the items DynamoDB
 * hands back unprocessed (throttling) with exponential backoff and full jitter.
 */
export async function batchWriteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequest[],
  options: BatchOptions = {},
): Promise<void> {
  const settings = { concurrency: 4, maxAttempts: 8, backoffMs: 25, ...options };
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) await writeBatch(db, tableName, batches[next++], settings);
  };
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, batches.length) }, worker));
}
