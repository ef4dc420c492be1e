import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { StreamRecordLike } from '../webhooks/stream-records';
import { PENDING_CREDIT, type PendingCredit } from './balance';
import { balanceTransactionEntity } from './entities';
import { literalPrefix } from './entity';

const ENTRY_PARTITION = literalPrefix(balanceTransactionEntity.definition.key.pk);
const ENTRY_SORT_KEY = balanceTransactionEntity.definition.key.sk;

/**
 * What the outbox processor takes from the table stream for the balances: new ledger entries
 * whose credit is pending (a paid payment's). Also its event-source filter, so the function is
 * not invoked for the removal of the mark, nor for any other entry.
 */
export const PENDING_CREDIT_RECORD_FILTERS = [
  {
    eventName: ['INSERT'],
    dynamodb: { Keys: { PK: { S: [{ prefix: ENTRY_PARTITION }] }, SK: { S: [ENTRY_SORT_KEY] } }, NewImage: { [PENDING_CREDIT]: { BOOL: [true] } } },
  },
];

export function isPendingCredit(record: StreamRecordLike): boolean {
  const image = record.dynamodb?.NewImage as Record<string, { BOOL?: boolean } | undefined> | undefined;
  return record.eventName === 'INSERT' && !!record.dynamodb?.Keys?.PK?.S?.startsWith(ENTRY_PARTITION) && image?.[PENDING_CREDIT]?.BOOL === true;
}

export function pendingCreditOf(record: StreamRecordLike): PendingCredit {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const entry = unmarshall(record.dynamodb!.NewImage as any);
  return { id: entry.id, ref: { orgId: entry.orgId, mode: entry.mode, currency: entry.currency }, amountMinor: entry.amountMinor, ...(entry.shardedLinkId ? { shardedLinkId: entry.shardedLinkId } : {}) };
}
