import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../auth/principal';
import { isAuditEventId, type AuditFilter, type AuditRecord } from '../domain/audit';
import type { PageRequest } from '../pagination';
import { scopeOf } from './entities';
import { stripKeys } from './entity';
import * as keys from './keys';
import { listPage, type ListSource, type Page } from './list-page';

/** Whose trail is read: an organization, in the list of one mode (a key's, a dashboard page's). */
export interface AuditReader {
  orgId: string;
  mode: Mode;
}

/** The list a filter reads: its own partition (shared/db/entities.ts `auditEventEntity`), so a page is one Query. */
function listOf(scope: string, filter: AuditFilter): Pick<ListSource, 'index' | 'partitions'> {
  if ('action' in filter) return { index: 'gsi2', partitions: [keys.auditEventsOfAction(scope, filter.action)] };
  if ('actor_id' in filter) return { index: 'gsi3', partitions: [keys.auditEventsOfActor(scope, filter.actor_id)] };
  if ('target_id' in filter) return { index: 'gsi4', partitions: [keys.auditEventsOfTarget(scope, filter.target_id)] };
  return { index: 'gsi1', partitions: [keys.auditEventList(scope)] };
}

/** Whether a record is one the filter keeps (a cursor must be an item of the list asked for). */
function keeps(record: AuditRecord, filter: AuditFilter): boolean {
  if ('action' in filter) return record.action === filter.action;
  if ('actor_id' in filter) return record.actor.type !== 'system' && record.actor.id === filter.actor_id;
  if ('target_id' in filter) return record.target?.id === filter.target_id;
  return true;
}

/** The audit trail's reads (its writes ride the changes' transactions: shared/db/audit-trail.ts). */
export function createAuditRepository(db: DynamoDBDocumentClient, tableName: string) {
  /** A record as the list of `mode` holds it (one of no mode is in both). */
  async function get(id: string, mode: Mode): Promise<AuditRecord | undefined> {
    if (!isAuditEventId(id)) return undefined;
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.auditEvent(id, mode), ConsistentRead: true }));
    return stripKeys<AuditRecord & { view: Mode }>(Item);
  }

  return {
    get,

    /** Newest first: the reader's list of its mode, or the list of one filter; a cursor must be a record of that list. */
    page(reader: AuditReader, request: PageRequest, filter: AuditFilter): Promise<Page<AuditRecord>> {
      return listPage<AuditRecord>(
        db,
        tableName,
        {
          ...listOf(scopeOf(reader.orgId, reader.mode), filter),
          resolveCursor: async (id) => {
            const record = await get(id, reader.mode);
            return record && record.orgId === reader.orgId && keeps(record, filter) ? id : undefined;
          },
        },
        request,
      );
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
