import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttemptRecord } from '../domain/webhook-delivery';
import * as keys from './keys';
import { queryAll } from './query-all';

/**
 * The attempts of one event as the delivery records them (`EVT#{event}` / `DLV#…`), for the
 * events API: a reader apart from the delivery's repository, whose writes a read does not need.
 */
export function createAttemptReader(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Every attempt of the event, in key order. */
    async attemptsOf(eventId: string): Promise<(AttemptRecord & { targetKey: string; SK: string })[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
        ExpressionAttributeValues: { ':pk': keys.event(eventId).PK, ':prefix': keys.deliveryAttempt(eventId, '').SK },
      });
      return items as unknown as (AttemptRecord & { targetKey: string; SK: string })[];
    },
  };
}

export type AttemptReader = ReturnType<typeof createAttemptReader>;
