/**
 * A write DynamoDB refused because of other traffic, with nothing written: a transaction in
 * flight holds one of its items (TransactionConflictException of PutItem, UpdateItem and
 * DeleteItem; a transaction cancelled with a `TransactionConflict` reason), or its partition's
 * throughput is spent (ThrottlingException, ProvisionedThroughputExceededException; a transaction
 * cancelled with `ThrottlingError` or `ProvisionedThroughputExceeded`). Worth retrying after a
 * backoff. The SDK retries a throttled single request by itself (three attempts), but neither a
 * conflict nor a cancelled transaction, which are client faults to it (bin/local/contention.ts).
 * Told by the error's name and reasons, so that the HTTP layer tells it without the DynamoDB client.
 */
const CONTENDED_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);
const CONTENDED_ERRORS = new Set(['TransactionConflictException', 'ThrottlingException', 'ProvisionedThroughputExceededException']);

export function lostToContention(error: unknown): boolean {
  const { name, CancellationReasons } = (error ?? {}) as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (CONTENDED_ERRORS.has(name ?? '')) return true;
  return name === 'TransactionCanceledException' && (CancellationReasons ?? []).some((reason) => CONTENDED_REASONS.has(reason.Code ?? ''));
}
