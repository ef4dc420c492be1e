import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { hashToken } from '../auth/tokens';
import type { DashboardSession, DashboardSessionStore } from '../domain/dashboard';
import { dashboardSessionEntity } from './entities';
import * as keys from './keys';
import { TTL_ATTRIBUTE } from './table';
import { IF_NEW } from './entity';

/**
 * Dashboard sessions in the table, keyed by the SHA-256 of the cookie's random id (the same
 * one-way hash as API tokens), so that reading the table never yields a usable cookie. Each
 * item holds the token hash of the key that signed in, never the token; DynamoDB TTL removes
 * it some time after `expiresAt`, and the use case ignores it from `expiresAt` on.
 */
export function createDashboardSessionStore(db: DynamoDBDocumentClient, tableName: string): DashboardSessionStore {
  const keyOf = (sessionId: string) => keys.dashboardSession(hashToken(sessionId));
  return {
    async create(sessionId, session) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...dashboardSessionEntity.item(session, { sessionIdHash: hashToken(sessionId) }),
            [TTL_ATTRIBUTE]: Math.ceil(Date.parse(session.expiresAt) / 1000),
          },
          ...IF_NEW,
        }),
      );
    },

    async find(sessionId) {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(sessionId), ConsistentRead: true }));
      const item = result.Item;
      if (!item) return undefined;
      return { tokenHash: item.tokenHash, createdAt: item.createdAt, expiresAt: item.expiresAt } satisfies DashboardSession;
    },

    async remove(sessionId) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keyOf(sessionId) }));
    },
  };
}
