import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emailKey, isTeamUser, type TeamUser } from '../domain/team';
import { BusinessRuleError } from '../errors';
import { hashToken } from '../auth/tokens';
import { cancellationReasons, withConflictRetry } from './conditional';
import { getItem } from './directory-lookups';
import { userEmailEntity, userEntity } from './entities';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import * as keys from './keys';
import { transactWrite } from './side-effects';

/** The refusal when an email already has a user (§16: 422 beside the field). */
export const EMAIL_TAKEN = 'This email address already has a user';

/**
 * The people of the directory (product-decisions §16): users with their team fields, found by
 * id or by email through the email's uniqueness item (two consistent GetItems), created
 * together with that item in one transaction.
 */
export function createTeamDirectory(db: DynamoDBDocumentClient, tableName: string) {
  const person = async (userId: string): Promise<TeamUser | undefined> => {
    const user = stripKeys<TeamUser>(await getItem(db, tableName, keys.user(userId)));
    return isTeamUser(user) ? user : undefined;
  };

  return {
    person,

    /** The person whose email this is (compared case-insensitively), or undefined. */
    async personByEmail(email: string): Promise<TeamUser | undefined> {
      const claim = await getItem<{ userId: string }>(db, tableName, keys.userEmail(emailKey(email)));
      return claim ? person(claim.userId) : undefined;
    },

    /**
     * Creates a person and claims their email, in one transaction: an email that already has a
     * user is a BusinessRuleError on `email` (nothing written).
     */
    async createPerson(user: TeamUser): Promise<TeamUser> {
      try {
        await withConflictRetry(() =>
          transactWrite(db, [
            { Put: { TableName: tableName, Item: userEntity.item(user), ...IF_NEW } },
            { Put: { TableName: tableName, Item: userEmailEntity.item({ userId: user.userId, orgId: user.orgId }, { email: emailKey(user.email) }), ...IF_NEW } },
          ]),
        );
      } catch (error) {
        if (cancellationReasons(error)?.[1]?.code === 'ConditionalCheckFailed') throw new BusinessRuleError(EMAIL_TAKEN, 'email');
        throw error;
      }
      return user;
    },

    /** Notes a sign-in's time (the team page's "last sign-in"). */
    async recordSignIn(userId: string, at: string): Promise<void> {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.user(userId),
          UpdateExpression: 'SET #lastSignInAt = :at',
          ConditionExpression: IF_EXISTS.ConditionExpression,
          ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#lastSignInAt': 'lastSignInAt' },
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    },

    /**
     * Ends every session of a person whose sessions are at `sessionVersion` by raising it, in
     * one transaction with, when given, their new password and the session that stays (`keep`,
     * its id: raised with them). False when the version moved meanwhile (another change won)
     * or the kept session is gone: nothing written.
     */
    async endSessions(userId: string, sessionVersion: number, options: { passwordHash?: string; keep?: string } = {}): Promise<boolean> {
      const { passwordHash, keep } = options;
      const raise = { '#sessionVersion': 'sessionVersion' };
      try {
        await withConflictRetry(() =>
          transactWrite(db, [
            {
              Update: {
                TableName: tableName,
                Key: keys.user(userId),
                UpdateExpression: `SET #sessionVersion = :next${passwordHash ? ', #passwordHash = :hash' : ''}`,
                ConditionExpression: '#sessionVersion = :version',
                ExpressionAttributeNames: { ...raise, ...(passwordHash ? { '#passwordHash': 'passwordHash' } : {}) },
                ExpressionAttributeValues: { ':version': sessionVersion, ':next': sessionVersion + 1, ...(passwordHash ? { ':hash': passwordHash } : {}) },
              },
            },
            ...(keep
              ? [
                  {
                    Update: {
                      TableName: tableName,
                      Key: keys.dashboardSession(hashToken(keep)),
                      UpdateExpression: 'SET #sessionVersion = :next',
                      ConditionExpression: IF_EXISTS.ConditionExpression,
                      ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, ...raise },
                      ExpressionAttributeValues: { ':next': sessionVersion + 1 },
                    },
                  },
                ]
              : []),
          ]),
        );
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.some((reason) => reason.code === 'ConditionalCheckFailed')) return false;
        throw error;
      }
    },
  };
}

export type TeamDirectory = ReturnType<typeof createTeamDirectory>;

/**
 * The change a factor's write makes to its person's item, as one action of the factor's
 * transaction (decisions 114): the item keeps what the sign-in and the team page read of the
 * person's factors (`twoFactorEnabledAt`, `passkeyCount`), under the condition that the person
 * exists.
 */
export const personFactorUpdate = (tableName: string, userId: string, update: { expression: string; names: Record<string, string>; values?: Record<string, unknown> }) => ({
  Update: {
    TableName: tableName,
    Key: keys.user(userId),
    UpdateExpression: update.expression,
    ConditionExpression: IF_EXISTS.ConditionExpression,
    ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, ...update.names },
    ...(update.values ? { ExpressionAttributeValues: update.values } : {}),
  },
});
