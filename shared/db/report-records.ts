import type { StreamRecordLike } from '../webhooks/stream-records';
import { reportEntity } from './entities';
import { literalPrefix } from './entity';

const REPORT_PARTITION = literalPrefix(reportEntity.definition.key.pk);
const REPORT_SORT_KEY = reportEntity.definition.key.sk;

/**
 * What the outbox processor takes from the table stream for the reports: a report's INSERT, put
 * once when it is asked for (its outcome is an update, which no filter takes). Also its
 * event-source filter.
 */
export const REPORT_RECORD_FILTERS = [{ eventName: ['INSERT'], dynamodb: { Keys: { PK: { S: [{ prefix: REPORT_PARTITION }] }, SK: { S: [REPORT_SORT_KEY] } } } }];

export function isReportRequest(record: StreamRecordLike): boolean {
  return record.eventName === 'INSERT' && !!record.dynamodb?.Keys?.PK?.S?.startsWith(REPORT_PARTITION) && record.dynamodb?.Keys?.SK?.S === REPORT_SORT_KEY;
}

/** The id of the report a record asks for (its key is `RPT#{id}`). */
export const requestedReportOf = (record: StreamRecordLike) => record.dynamodb!.Keys!.PK!.S!.slice(REPORT_PARTITION.length);
