import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite } from './conditional';
import { rateLimitEntity } from './entities';
import { TTL_ATTRIBUTE } from './table';

/**
 * Fixed-window counters, one item per subject and window, taken with one conditional update:
 * concurrent callers across functions share the count, and the item expires with its window.
 */
export function createRateLimiter(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Takes one of `limit` of `subject`'s current window: undefined, or the seconds until the window ends. */
    async take(subject: string, limit: number, windowSeconds: number, nowMs = Date.now()): Promise<number | undefined> {
      const nowSeconds = Math.floor(nowMs / 1000);
      const window = Math.floor(nowSeconds / windowSeconds);
      const endsAt = (window + 1) * windowSeconds;
      return conditionalWrite<number | undefined>(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: rateLimitEntity.key({ subject, window }),
              UpdateExpression: 'ADD #count :one SET #entity = :entity, #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
              ExpressionAttributeNames: { '#count': 'count', '#entity': 'entity', '#ttl': TTL_ATTRIBUTE },
              ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':entity': rateLimitEntity.definition.name, ':ttl': endsAt + windowSeconds },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return undefined;
        },
        () => Math.max(1, endsAt - nowSeconds),
      );
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
