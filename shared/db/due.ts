import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INDEXES, type IndexName } from './table';

export interface DuePageOptions {
  /** Only entries whose DUE sort key is at most this (e.g. `{now}#~`). */
  upTo?: string;
  limit?: number;
  startKey?: Record<string, unknown>;
  /** The sparse index holding the partition (default DUE; a chargeback's reminder is in GSI4). */
  index?: IndexName;
}

/**
 * One page of a partition of the sparse DUE index, oldest (lowest sort key) first. Sweeps
 * read only this index: its items exist only while something is due, so no sweep scans.
 */
export async function queryDuePage(db: DynamoDBDocumentClient, tableName: string, partition: string, options: DuePageOptions = {}) {
  const index = INDEXES[options.index ?? 'due'];
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: index.name,
      KeyConditionExpression: options.upTo !== undefined ? '#pk = :pk AND #sk <= :upTo' : '#pk = :pk',
      ExpressionAttributeNames: { '#pk': index.pk, ...(options.upTo !== undefined ? { '#sk': index.sk } : {}) },
      ExpressionAttributeValues: { ':pk': partition, ...(options.upTo !== undefined ? { ':upTo': options.upTo } : {}) },
      ScanIndexForward: true,
      Limit: options.limit,
      ExclusiveStartKey: options.startKey,
    }),
  );
  return { items: result.Items ?? [], nextKey: result.LastEvaluatedKey };
}
