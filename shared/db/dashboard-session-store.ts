import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { hashToken } from '../auth/tokens';
import { PENDING_SIGN_IN_FAILURES, sessionEndsAt, type DashboardSession, type PendingSignIn, type PendingSignIns, type SessionStore } from '../domain/team';
import { batchWriteAll } from './batch';
import { conditionalWrite } from './conditional';
import { dashboardSessionEntity, pendingSignInEntity } from './entities';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import * as keys from './keys';
import { transactWrite } from './side-effects';
import { queryAll } from './query-all';
import { INDEXES, TTL_ATTRIBUTE } from './table';

/** The most sessions one person is listed with (and signed out of at once): far more browsers than anyone signs in from in 12 hours. */
const LISTED_SESSIONS = 100;

const ttlOf = (endsAtMs: number) => Math.ceil(endsAtMs / 1000);

/**
 * Dashboard sessions in the table, keyed by the SHA-256 of the cookie's random id (the same
 * one-way hash as API tokens), so that reading the table never yields a usable cookie. DynamoDB
 * TTL removes an item some time after its idle or absolute end (the use case ignores it from
 * then on); each recorded request moves its TTL with its idle end.
 */
export function createSessionStore(db: DynamoDBDocumentClient, tableName: string): SessionStore {
  const keyOf = (sessionId: string) => keys.dashboardSession(hashToken(sessionId));
  return {
    /** A transaction of one item: a sign-in's audit record rides it (shared/db/audit-trail.ts). */
    async create(sessionId, session) {
      await transactWrite(db, [
        {
          Put: {
            TableName: tableName,
            Item: { ...dashboardSessionEntity.item(session, { sessionIdHash: hashToken(sessionId) }), [TTL_ATTRIBUTE]: ttlOf(sessionEndsAt(session)) },
            ...IF_NEW,
          },
        },
      ]);
    },

    async find(sessionId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(sessionId), ConsistentRead: true }));
      return dashboardSessionEntity.fromItem(Item);
    },

    async touch(sessionId, session) {
      await conditionalWrite(
        () =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOf(sessionId),
              // The TTL follows the idle end (never past the absolute end).
              UpdateExpression: 'SET #lastSeenAt = :at, #ttl = :ttl',
              ConditionExpression: IF_EXISTS.ConditionExpression,
              ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#lastSeenAt': 'lastSeenAt', '#ttl': TTL_ATTRIBUTE },
              ExpressionAttributeValues: { ':at': session.lastSeenAt, ':ttl': ttlOf(sessionEndsAt(session)) },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        () => undefined, // signed out meanwhile: nothing to record
      );
    },

    async switchMode(sessionId, mode) {
      return conditionalWrite(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOf(sessionId),
              UpdateExpression: 'SET #mode = :mode',
              ConditionExpression: IF_EXISTS.ConditionExpression,
              ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#mode': 'mode' },
              ExpressionAttributeValues: { ':mode': mode },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return true;
        },
        () => false,
      );
    },

    /** A transaction of one item: a sign-out's audit record rides it (shared/db/audit-trail.ts). */
    async remove(sessionId) {
      await transactWrite(db, [{ Delete: { TableName: tableName, Key: keyOf(sessionId) } }]);
    },

    async listOfUser(userId) {
      const items = await queryAll(
        db,
        {
          TableName: tableName,
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
          ExpressionAttributeValues: { ':pk': keys.sessionsOfUser(userId) },
          ScanIndexForward: false,
        },
        LISTED_SESSIONS,
      );
      return items.map((item) => ({ ...stripKeys<DashboardSession>(item)!, idHash: String(item.PK).slice(keys.dashboardSession('').PK.length) }));
    },

    async removeListed(idHashes) {
      await batchWriteAll(db, tableName, idHashes.map((hash) => ({ DeleteRequest: { Key: keys.dashboardSession(hash) } })));
    },
  };
}

/**
 * Pending sign-ins (between the password and the second factor), keyed by the SHA-256 of their
 * cookie's random id; single-use (taken with a conditional delete) and gone with their TTL.
 */
export function createPendingSignIns(db: DynamoDBDocumentClient, tableName: string): PendingSignIns {
  const keyOf = (pendingId: string) => keys.pendingSignIn(hashToken(pendingId));
  const unexpired = { ConditionExpression: `${IF_EXISTS.ConditionExpression} AND #expiresAt > :now`, names: { ...IF_EXISTS.ExpressionAttributeNames, '#expiresAt': 'expiresAt' } };
  return {
    async create(pendingId, pending) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...pendingSignInEntity.item(pending, { pendingIdHash: hashToken(pendingId) }), [TTL_ATTRIBUTE]: ttlOf(Date.parse(pending.expiresAt)) },
          ...IF_NEW,
        }),
      );
    },

    async find(pendingId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(pendingId), ConsistentRead: true }));
      const pending = pendingSignInEntity.fromItem(Item);
      return pending && Date.parse(pending.expiresAt) > Date.now() ? pending : undefined;
    },

    async fail(pendingId) {
      const failures = await conditionalWrite(
        async () => {
          const { Attributes } = await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOf(pendingId),
              UpdateExpression: 'ADD #failures :one',
              ConditionExpression: IF_EXISTS.ConditionExpression,
              ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#failures': 'failures' },
              ExpressionAttributeValues: { ':one': 1 },
              ReturnValues: 'ALL_NEW',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return (Attributes as PendingSignIn).failures;
        },
        () => PENDING_SIGN_IN_FAILURES,
      );
      if (failures < PENDING_SIGN_IN_FAILURES) return true;
      await db.send(new DeleteCommand({ TableName: tableName, Key: keyOf(pendingId) }));
      return false;
    },

    async take(pendingId) {
      return conditionalWrite(
        async () => {
          await db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: keyOf(pendingId),
              ConditionExpression: unexpired.ConditionExpression,
              ExpressionAttributeNames: unexpired.names,
              ExpressionAttributeValues: { ':now': new Date().toISOString() },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return true;
        },
        () => false,
      );
    },
  };
}
