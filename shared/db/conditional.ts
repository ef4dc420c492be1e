import { backoff } from '../time';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

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

export function isTransactionConflict(error: unknown): boolean {
  const reasons = cancellationReasons(error);
  return (
    (error as { name?: string })?.name === 'TransactionConflictException' ||
    (reasons?.some((reason) => reason.code === 'TransactionConflict') ?? false)
  );
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

/** Retries `attempt` on transaction conflicts with exponential backoff and full jitter. */
export async function withConflictRetry<T>(attempt: () => Promise<T>, maxAttempts = 6): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= maxAttempts || !isTransactionConflict(error)) throw error;
      await backoff(n, 10, 500);
    }
  }
}
