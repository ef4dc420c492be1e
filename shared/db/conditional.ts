import { invocationDeadline } from '../deadline';
import { backoffMs, sleep } from '../time';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { transactWrite } from './side-effects';
import { lostToContention } from './transaction-conflict';

type Item = Record<string, unknown>;

/**
 * Runs a conditional write and hands a failed condition to `onConditionFailed` with the old
 * item (requests set ReturnValuesOnConditionCheckFailure: 'ALL_OLD'). Every other error is
 * rethrown. DynamoDB Local returns the old item still marshalled, so it is unmarshalled here.
 */
export async function conditionalWrite<T>(
  write: () => Promise<T>,
  onConditionFailed: (oldItem: Item | undefined) => never | Promise<never> | T | Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return onConditionFailed(normalizeItem(error.Item));
    throw error;
  }
}

/**
 * For TransactWriteItems: the reasons per action, with old items unmarshalled.
 * Returns undefined when the error is not a cancelled transaction.
 */
export function cancellationReasons(error: unknown): { code?: string; item?: Item }[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => ({
    code: reason.Code,
    item: normalizeItem(reason.Item as Item | undefined),
  }));
}

function normalizeItem(item: Item | undefined): Item | undefined {
  if (!item) return undefined;
  const looksMarshalled = Object.values(item).every(
    (value) => value !== null && typeof value === 'object' && Object.keys(value as object).length === 1 &&
      ['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS'].includes(Object.keys(value as object)[0]),
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return looksMarshalled ? unmarshall(item as any) : item;
}

/**
 * How long a write retries transaction conflicts, at most, before the conflict surfaces (a
 * request then answers 503 with Retry-After). A conflict clears when the transactions holding
 * the item end, so the bound is time, not attempts. Within a request the invocation's deadline
 * bounds it first (its last attempt starts LAST_ATTEMPT_MS before, so that the answer fits: in
 * AWS an API function's 10 s timeout leaves 8 s). This ceiling bounds the rest: the jobs, whose
 * functions run for up to a minute, the streams, `ops`, and the local source mode, whose
 * invocations have no timeout. There DynamoDB Local runs transactions one at a time, hundreds of
 * milliseconds each on a loaded machine, so 50 writers of one item can take tens of seconds to
 * take their turns (docs/decisions.md); in AWS a transaction holds its items for tens of ms.
 */
export const CONFLICT_RETRY_MS = 60_000;
const LAST_ATTEMPT_MS = 2_000;

/**
 * Retries `attempt` on writes lost to contention (transaction conflicts, and throttles of a hot
 * partition: `lostToContention`) with exponential backoff and full jitter, 10 ms doubling up to 250 ms: a low cap, so that a writer that has lost many times still retries
 * about as often as a newcomer and is not starved by it (docs/decisions.md); until
 * CONFLICT_RETRY_MS or the invocation's deadline.
 */
export async function withConflictRetry<T>(attempt: () => Promise<T>): Promise<T> {
  const giveUpAt = Math.min(Date.now() + CONFLICT_RETRY_MS, invocationDeadline() - LAST_ATTEMPT_MS);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = backoffMs(n, 10, 250);
      if (!lostToContention(error) || Date.now() + wait >= giveUpAt) throw error;
      await sleep(wait);
    }
  }
}

type TransactActions = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * One TransactWriteItems of `actions` (marked carried out inside an idempotent request, with the
 * request's audit record: shared/db/side-effects.ts), retried on writes lost to contention,
 * every attempt under the same ClientRequestToken. A commit whose answer was lost, then a retry
 * that met a conflict or a throttle, is so answered as the success it was when sent again, and
 * never applied twice nor refused by its own effect (docs/decisions.md 88).
 */
export async function transactRetried(db: DynamoDBDocumentClient, actions: TransactActions) {
  const write = randomUUID();
  return withConflictRetry(() => transactWrite(db, actions, write));
}

/** `transactRetried`: false when a condition in it failed, and then nothing was written. */
export async function transactUnlessRefused(db: DynamoDBDocumentClient, actions: TransactActions): Promise<boolean> {
  try {
    await transactRetried(db, actions);
    return true;
  } catch (error) {
    if (cancellationReasons(error)?.some((reason) => reason.code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}
