import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { SettlementCodeTakenError, type SettlementDraft, type SettlementImportStore } from '../domain/settlement-import';
import {
  isSettlementCode,
  isSettlementId,
  recordId,
  transactionTime,
  type RecordType,
  type Settlement,
  type StoredRecord,
} from '../domain/settlements';
import { isOwned } from '../domain/scope';
import { ConflictError } from '../errors';
import { idBody, newId } from '../ids';
import { type PageRequest } from '../pagination';
import { listPage } from './list-page';
import { adjustmentMovement } from '../domain/balance';
import { balanceChange } from './balance';
import { batchWriteAll } from './batch';
import { cancellationReasons, withConflictRetry } from './conditional';
import { IF_NEW, stripKeys } from './entity';
import { settlementCodeEntity, settlementEntity, settlementRecordEntity } from './entities';
import * as keys from './keys';
import { INDEXES, KEY } from './table';

/** Newest first by creation: the list's sort key is the creation time, then the id. */
const listSortKey = (settlement: Pick<Settlement, 'createdAt' | 'id'>) => settlementEntity.sortKey('gsi1', { created_at: settlement.createdAt, stl: settlement.id });

export const settlementItem = (settlement: Settlement) => settlementEntity.item(settlement);

/** One record of one record set, sorted by transaction time (shared/db/entities.ts). */
export function settlementRecordItem(recordSet: string, settlementId: string, record: StoredRecord) {
  const id = recordId(record);
  const sortKey = `${transactionTime(record)}#${id ?? newId('settlementRecord')}`;
  return settlementRecordEntity.item({ settlementId, type: record.object, record }, { recordSet, sortKey, type: record.object, id });
}

const recordSetOf = (settlement: Pick<Settlement, 'id' | 'recordsVersion'>) =>
  keys.settlementRecordSet(settlement.id, settlement.recordsVersion);

const COMMIT_ATTEMPTS = 5;

export function createSettlementRepository(db: DynamoDBDocumentClient, tableName: string) {
  const getItem = async (key: Record<string, string>) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

  async function getById(id: string): Promise<Settlement | undefined> {
    if (!isSettlementId(id)) return undefined;
    return stripKeys<Settlement>(await getItem(keys.settlement(id)));
  }

  /** Code alias (strongly consistent), then the settlement. */
  async function getByCode(orgId: string, code: string): Promise<Settlement | undefined> {
    if (!isSettlementCode(code)) return undefined;
    const alias = await getItem(keys.settlementCode(orgId, code));
    const settlement = alias ? await getById(alias.settlementId as string) : undefined;
    return settlement?.orgId === orgId ? settlement : undefined;
  }

  /** A settlement as the caller sees it, by `stl_` id or code: live keys of its organization only. */
  async function find(principal: Principal, codeOrId: string): Promise<Settlement | undefined> {
    if (principal.mode !== 'live') return undefined;
    const byId = isSettlementId(codeOrId) ? await getById(codeOrId) : undefined;
    if (isOwned(byId, principal)) return byId;
    return getByCode(principal.orgId, codeOrId);
  }

  /** Items of one partition of the table or an index; every page unless `limit` is given. */
  async function queryPartition(
    partition: string,
    options: { index?: 'gsi3'; limit?: number; keysOnly?: boolean; newestFirst?: boolean } = {},
  ): Promise<Record<string, unknown>[]> {
    const pk = options.index ? INDEXES[options.index].pk : KEY.pk;
    const input = {
      TableName: tableName,
      ...(options.index ? { IndexName: INDEXES[options.index].name } : {}),
      KeyConditionExpression: '#pk = :pk',
      ...(options.keysOnly ? { ProjectionExpression: '#pk, #sk' } : {}),
      ExpressionAttributeNames: { '#pk': pk, ...(options.keysOnly ? { '#sk': KEY.sk } : {}) },
      ExpressionAttributeValues: { ':pk': partition },
      ...(options.newestFirst ? { ScanIndexForward: false } : {}),
      ...(options.limit ? { Limit: options.limit } : {}),
    };
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = options.limit ? undefined : page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** Deletes every item of a record set that is no longer (or never was) shown. */
  async function dropRecordSet(recordSet: string): Promise<void> {
    const items = await queryPartition(keys.settlementRecords(recordSet), { keysOnly: true });
    await batchWriteAll(db, tableName, items.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })));
  }

  /** The balance moves by the difference between what the settlement debited before and now. */
  function balanceActions(draft: SettlementDraft, current: Settlement | undefined) {
    const ref = (currency: string) => ({ orgId: draft.orgId, mode: 'live' as const, currency });
    const change = (currency: string, deltaMinor: number) => (deltaMinor === 0 ? [] : balanceChange(tableName, ref(currency), adjustmentMovement(deltaMinor)));
    if (current && current.currency !== draft.currency) return [...change(current.currency, current.amountMinor), ...change(draft.currency, -draft.amountMinor)];
    return change(draft.currency, (current?.amountMinor ?? 0) - draft.amountMinor);
  }

  /** Settlement (on the version it replaces), code alias and balance, in one transaction. */
  async function commit(draft: SettlementDraft, version: string, current: Settlement | undefined): Promise<void> {
    const settlement: Settlement = { ...draft, recordsVersion: version };
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: settlementItem(settlement),
              ...(current
                ? {
                    ConditionExpression: '#version = :previous',
                    ExpressionAttributeNames: { '#version': 'recordsVersion' },
                    ExpressionAttributeValues: { ':previous': current.recordsVersion },
                  }
                : { ...IF_NEW }),
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: settlementCodeEntity.item({ settlementId: draft.id, orgId: draft.orgId, code: draft.code }, undefined),
              ConditionExpression: 'attribute_not_exists(#pk) OR #id = :id',
              ExpressionAttributeNames: { '#pk': KEY.pk, '#id': 'settlementId' },
              ExpressionAttributeValues: { ':id': draft.id },
            },
          },
          ...balanceActions(draft, current),
        ],
      }),
    );
  }

  /** Another import committed first (a transaction conflict is retried in place, not re-read). */
  const isLostRace = (error: unknown) => cancellationReasons(error)?.some((reason) => reason.code === 'ConditionalCheckFailed') ?? false;

  /**
   * The versioned import (SettlementImportStore.save):
   * 1. nothing to do when the stored settlement already has this content;
   * 2. write the records as a new record set, invisible until the settlement points at it;
   * 3. commit: settlement item (conditioned on the version it replaces), code alias and balance
   *    difference in one transaction; a concurrent import makes it re-read and try again;
   * 4. drop the replaced record set.
   * A crash before 3 leaves an unreferenced set no read can reach; the settlement never shows
   * a partial or mixed set of records, and its balance effect is applied exactly once.
   */
  async function save(draft: SettlementDraft, records: StoredRecord[]): Promise<void> {
    let current = await getById(draft.id);
    if (current?.contentHash === draft.contentHash) return;
    const version = idBody();
    const recordSet = keys.settlementRecordSet(draft.id, version);
    await batchWriteAll(
      db,
      tableName,
      records.map((record) => ({ PutRequest: { Item: settlementRecordItem(recordSet, draft.id, record) } })),
    );
    for (let attempt = 1; ; attempt++) {
      try {
        // The balance item is shared with every live payment of the organization: conflicts on it are retried.
        await withConflictRetry(() => commit(draft, version, current));
        break;
      } catch (error) {
        if (!isLostRace(error)) throw error;
        const alias = await getItem(keys.settlementCode(draft.orgId, draft.code));
        if (alias && alias.settlementId !== draft.id) {
          await dropRecordSet(recordSet);
          throw new SettlementCodeTakenError(alias.settlementId as string);
        }
        current = await getById(draft.id);
        const identityChanged = current && (current.orgId !== draft.orgId || current.code !== draft.code);
        if (identityChanged || attempt >= COMMIT_ATTEMPTS || current?.contentHash === draft.contentHash) {
          await dropRecordSet(recordSet);
          if (current?.contentHash === draft.contentHash) return;
          throw new ConflictError(`Settlement ${draft.code} was changed by a concurrent import; import the file again`);
        }
      }
    }
    if (current) await dropRecordSet(recordSetOf(current));
  }

  const store: SettlementImportStore = {
    organizationExists: async (orgId) => (await getItem(keys.organization(orgId))) !== undefined,
    findByCode: getByCode,
    findById: getById,
    save,
  };

  return {
    store,
    getById,
    find,

    /** Newest first by creation; cursors are a code or an id of this organization's settlements. */
    async list(principal: Principal, page: PageRequest) {
      const result = await listPage<Record<string, unknown>>(
        db,
        tableName,
        {
          index: 'gsi1',
          partitions: [keys.settlementList(principal.orgId)],
          resolveCursor: async (codeOrId) => {
            const settlement = await find(principal, codeOrId);
            return settlement ? listSortKey(settlement) : undefined;
          },
        },
        page,
      );
      return { items: result.items.map((item) => stripKeys<Settlement>(item)!), hasMore: result.hasMore };
    },

    /** Newest first by transaction time, optionally one type; cursors are record ids. */
    async listRecords(settlement: Settlement, page: PageRequest, type?: RecordType) {
      const recordSet = recordSetOf(settlement);
      const result = await listPage<{ record: StoredRecord }>(
        db,
        tableName,
        {
          index: type ? 'gsi2' : 'table',
          partitions: [type ? keys.settlementRecordsOfType(recordSet, type) : keys.settlementRecords(recordSet)],
          resolveCursor: async (id) => {
            const [item] = await queryPartition(keys.settlementRecordById(recordSet, id), { index: 'gsi3', limit: 1 });
            return item && (!type || item.type === type) ? (item.SK as string) : undefined;
          },
        },
        page,
      );
      return { items: result.items.map((item) => item.record), hasMore: result.hasMore };
    },

    /** Every record, newest first (the accountants' export). */
    async allRecords(settlement: Settlement): Promise<StoredRecord[]> {
      const items = await queryPartition(keys.settlementRecords(recordSetOf(settlement)), { newestFirst: true });
      return items.map((item) => item.record as StoredRecord);
    },

    /** Every organization's settlement with this code (ops, when no organization is given). */
    async findAllByCode(code: string): Promise<Settlement[]> {
      if (!isSettlementCode(code)) return [];
      const items = await queryPartition(keys.settlementByCode(code), { index: 'gsi3' });
      return items.map((item) => stripKeys<Settlement>(item)!);
    },
  };
}

export type SettlementRepository = ReturnType<typeof createSettlementRepository>;
