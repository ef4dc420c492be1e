import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CreatorStanding, StoredUser } from '../auth/key-store';
import { emailKey, isTeamUser, type TeamUser } from '../domain/team';
import type { TeamRole } from '../domain/team-roles';
import { BusinessRuleError } from '../errors';
import { hashToken } from '../auth/tokens';
import { cancellationReasons, withConflictRetry } from './conditional';
import { getItem } from './directory-lookups';
import { userEmailEntity, userEntity } from './entities';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import * as keys from './keys';
import { queryAll } from './query-all';
import { transactWrite } from './side-effects';
import { INDEXES } from './table';

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

  /** A transaction of conditional writes: false when a condition refused it (nothing written). */
  async function conditionally(actions: Parameters<typeof transactWrite>[1]): Promise<boolean> {
    try {
      await withConflictRetry(() => transactWrite(db, actions));
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.some((reason) => reason.code === 'ConditionalCheckFailed')) return false;
      throw error;
    }
  }

  /** An update of an active person of `orgId` who holds `role` now (a condition, not a read: concurrent changes meet on it). */
  const personUpdate = (user: { userId: string; orgId: string }, role: { is?: TeamRole; isNot?: TeamRole }, set: Record<string, unknown>) => ({
    Update: {
      TableName: tableName,
      Key: keys.user(user.userId),
      UpdateExpression: `SET ${Object.keys(set).map((name, index) => `#set${index} = :set${index}`).join(', ')}`,
      ConditionExpression: `#orgId = :orgId AND #status = :active AND #teamRole ${role.is ? '= :role' : '<> :role'}`,
      ExpressionAttributeNames: { '#orgId': 'orgId', '#status': 'status', '#teamRole': 'teamRole', ...Object.fromEntries(Object.keys(set).map((name, index) => [`#set${index}`, name])) },
      ExpressionAttributeValues: {
        ':orgId': user.orgId,
        ':active': 'active',
        ':role': role.is ?? role.isNot,
        ...Object.fromEntries(Object.values(set).map((value, index) => [`:set${index}`, value])),
      },
    },
  });

  return {
    person,

    /** An organization's people who have not been removed, oldest first (GSI1: a moment behind the writes). */
    async peopleOf(orgId: string): Promise<TeamUser[]> {
      const items = await queryAll(db, {
        TableName: tableName,
        IndexName: INDEXES.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
        ExpressionAttributeValues: { ':pk': keys.usersOfOrganization(orgId) },
      });
      return items.map((item) => stripKeys<TeamUser>(item)).filter((user): user is TeamUser => isTeamUser(user) && user.status !== 'removed');
    },

    /**
     * Rewrites the creator's standing on each of their keys (found through GSI2), so the next
     * lookup of any of them (at most 4 s later, with the authenticator's cache) sees the change.
     */
    async copyStandingToKeys(user: StoredUser): Promise<void> {
      const standing: CreatorStanding = { orgId: user.orgId, role: user.role, orgPermission: user.orgPermission };
      const owned = await queryAll(db, {
        TableName: tableName,
        IndexName: INDEXES.gsi2.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi2.pk },
        ExpressionAttributeValues: { ':pk': keys.apiKeysOfCreator(user.userId) },
      });
      for (const item of owned) {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET #creator = :creator',
            ExpressionAttributeNames: { '#creator': 'creator' },
            ExpressionAttributeValues: { ':creator': standing },
          }),
        );
      }
    },

    /** A new role for an active person of `orgId` who is not the owner: false when they are not (any more). */
    changeRole: (user: { userId: string; orgId: string }, teamRole: Exclude<TeamRole, 'owner'>) =>
      conditionally([personUpdate(user, { isNot: 'owner' }, { teamRole })]),

    /**
     * Removes an active person of `orgId` who is not the owner, in one transaction: their status
     * `removed`, the organization permission gone (their keys' standing), their sessions ended
     * (the version raised) and their email given back (it may be invited again). False when
     * they are not such a person (any more).
     */
    remove: (user: TeamUser) =>
      conditionally([
        personUpdate(user, { isNot: 'owner' }, { status: 'removed', orgPermission: false, sessionVersion: user.sessionVersion + 1 }),
        {
          Delete: {
            TableName: tableName,
            Key: keys.userEmail(emailKey(user.email)),
            ConditionExpression: '#userId = :userId',
            ExpressionAttributeNames: { '#userId': 'userId' },
            ExpressionAttributeValues: { ':userId': user.userId },
          },
        },
      ]),

    /**
     * Ownership from the owner to an admin of the organization, in one transaction that meets
     * both as they are now: the owner becomes an admin, the admin the owner, so there is always
     * exactly one. False when either is not what it was (another handover, a role change).
     */
    handOver: (owner: { userId: string; orgId: string }, admin: { userId: string; orgId: string }) =>
      conditionally([personUpdate(owner, { is: 'owner' }, { teamRole: 'admin' }), personUpdate(admin, { is: 'admin' }, { teamRole: 'owner' })]),

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
      return conditionally([
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
      ]);
    },
  };
}

export type TeamDirectory = ReturnType<typeof createTeamDirectory>;
