/**
 * A write refused because a transaction in flight holds one of its items: DynamoDB's
 * TransactionConflictException (PutItem, UpdateItem, DeleteItem), or a transaction cancelled
 * with a `TransactionConflict` reason. Worth retrying; the SDK does not (bin/local/contention.ts).
 * Told by the error's name and reasons, so that the HTTP layer tells it without the DynamoDB client.
 */
export function isTransactionConflict(error: unknown): boolean {
  const { name, CancellationReasons } = (error ?? {}) as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (name === 'TransactionConflictException') return true;
  return name === 'TransactionCanceledException' && (CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
}
