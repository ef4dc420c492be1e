import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { attemptNamed, type StoredAttempt } from '../domain/event-resources';
import type { PageRequest } from '../pagination';
import * as keys from './keys';
import { listPage, type Page } from './list-page';
import { KEY } from './table';

/**
 * The attempts of one event as the delivery records them (`EVT#{event}` / `DLV#{time}#…`), for
 * the events API: a reader apart from the delivery's repository, whose writes a read does not need.
 */
export function createAttemptReader(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** A page of the event's attempts, oldest first: one Query of at most limit + 1 items (a cursor adds one GetItem). */
    page(eventId: string, request: PageRequest): Promise<Page<StoredAttempt>> {
      return listPage<StoredAttempt>(
        db,
        tableName,
        {
          index: 'table',
          partition: keys.event(eventId).PK,
          sortKeyPrefix: keys.deliveryAttemptsPrefix,
          oldestFirst: true,
          async resolveCursor(id) {
            const name = attemptNamed(id);
            if (!name) return undefined;
            const key = keys.deliveryAttempt(eventId, name);
            const found = await db.send(new GetCommand({ TableName: tableName, Key: key, ProjectionExpression: '#sk', ExpressionAttributeNames: { '#sk': KEY.sk } }));
            return found.Item ? key.SK : undefined;
          },
        },
        request,
      );
    },
  };
}

export type AttemptReader = ReturnType<typeof createAttemptReader>;
