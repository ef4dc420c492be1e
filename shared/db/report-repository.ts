import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import { REPORT_RETENTION_DAYS, type Report } from '../domain/reports';
import { isOwned } from '../domain/scope';
import type { OutboxEvent } from '../events';
import { isId } from '../ids';
import type { PageRequest } from '../pagination';
import { cancellationReasons, transactRetried } from './conditional';
import { dueAt } from './due';
import { IF_NEW, stripKeys } from './entity';
import { reportEntity, scopeOf } from './entities';
import * as keys from './keys';
import { cursorById, listPage } from './list-page';
import { outboxPut } from './outbox';
import { transactWrite } from './side-effects';
import { INDEXES, TTL_ATTRIBUTE } from './table';

/**
 * The reports (product-decisions §18): one item each (`RPT#{rpt}`), put once pending (the
 * request's audit record rides its transaction, and its INSERT on the table stream starts its
 * builder; the DUE index holds it by its build deadline while it is pending), then finished
 * once, with its event, under the condition that it is still pending;
 * DynamoDB's TTL removes it when its file goes (REPORT_RETENTION_DAYS after it was finished).
 */
export function createReportRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<Report | undefined> {
    if (!isId('report', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.report(id), ConsistentRead: true }));
    return stripKeys<Report>(result.Item);
  }

  return {
    get,

    async create(report: Report): Promise<void> {
      await transactWrite(db, [{ Put: { TableName: tableName, Item: reportEntity.item(report), ...IF_NEW } }]);
    },

    /** The caller's scope's reports, newest first. */
    list(principal: Principal, page: PageRequest) {
      return listPage<Report>(
        db,
        tableName,
        { index: 'gsi1', partitions: [keys.reportList(scopeOf(principal.orgId, principal.mode))], resolveCursor: cursorById(get, (report) => isOwned(report, principal)) },
        page,
      );
    },

    /** Pending reports whose build deadline is at or before `now`, the oldest first, page by page (the sparse DUE index). */
    overdue: (now: Date) => dueAt<Report>(db, tableName, keys.pendingReportsDue, now),

    /**
     * Writes a pending report's outcome with its event, in one transaction, and takes it out of
     * the pending reports' DUE partition: false when it was not pending any more (another run of
     * its builder, or the minute job, finished it first).
     */
    async finish(report: Report, event: OutboxEvent): Promise<boolean> {
      const outcome: Record<string, unknown> = {
        status: report.status,
        completedAt: report.completedAt,
        ...(report.rowCount !== undefined ? { rowCount: report.rowCount } : {}),
        ...(report.objectKey !== undefined ? { objectKey: report.objectKey } : {}),
        ...(report.failureReason !== undefined ? { failureReason: report.failureReason } : {}),
        [TTL_ATTRIBUTE]: Math.floor(Date.parse(report.completedAt!) / 1000) + REPORT_RETENTION_DAYS * 86_400,
      };
      const names = Object.keys(outcome);
      try {
        await transactRetried(db, [
          {
            Update: {
              TableName: tableName,
              Key: keys.report(report.id),
              UpdateExpression: `SET ${names.map((_, n) => `#a${n} = :a${n}`).join(', ')} REMOVE #duePk, #dueSk`,
              ConditionExpression: '#status = :pending',
              ExpressionAttributeNames: Object.fromEntries(
                names.map((name, n) => [`#a${n}`, name]).concat([['#status', 'status'], ['#duePk', INDEXES.due.pk], ['#dueSk', INDEXES.due.sk]]),
              ),
              ExpressionAttributeValues: Object.fromEntries(names.map((name, n) => [`:a${n}`, outcome[name]]).concat([[':pending', 'pending']])),
            },
          },
          outboxPut(tableName, event),
        ]);
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') return false;
        throw error;
      }
    },
  };
}

export type ReportRepository = ReturnType<typeof createReportRepository>;
