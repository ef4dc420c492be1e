import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CreatorStanding, StoredUser } from '../auth/key-store';
import { EMAIL_TAKEN, emailKey, isTeamUser, LastSecondFactorError, type Invitation, type TeamUser } from '../domain/team';
import type { TeamRole } from '../domain/team-roles';
import { BusinessRuleError } from '../errors';
import { hashToken } from '../auth/tokens';
import { cancellationReasons, transactRetried, transactUnlessRefused } from './conditional';
import { getItem } from './directory-lookups';
import { invitationEntity, passwordResetEntity, userEmailEntity, userEntity } from './entities';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import * as keys from './keys';
import { queryAll } from './query-all';
import { INDEXES, TTL_ATTRIBUTE } from './table';

/** An invitation as stored: with its link's token hash, which only a link check reads. */
type StoredInvitation = Invitation & { tokenHash: string };
const withoutTokenHash = ({ tokenHash: _hash, ...invitation }: StoredInvitation): Invitation => invitation;
const ttlOf = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

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

  /** Every item of a GSI1 partition (an organization's people, its invitations), in sort key order. */
  const gsi1Partition = (pk: string) =>
    queryAll(db, { TableName: tableName, IndexName: INDEXES.gsi1.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk }, ExpressionAttributeValues: { ':pk': pk } });

  /** A transaction of conditional writes: false when a condition refused it (nothing written). */
  const conditionally = (actions: Parameters<typeof transactUnlessRefused>[1]) => transactUnlessRefused(db, actions);

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
      const items = await gsi1Partition(keys.usersOfOrganization(orgId));
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
        await transactRetried(db, [
          { Put: { TableName: tableName, Item: userEntity.item(user), ...IF_NEW } },
          { Put: { TableName: tableName, Item: userEmailEntity.item({ userId: user.userId, orgId: user.orgId }, { email: emailKey(user.email) }), ...IF_NEW } },
        ]);
      } catch (error) {
        if (cancellationReasons(error)?.[1]?.code === 'ConditionalCheckFailed') throw new BusinessRuleError(EMAIL_TAKEN, 'email');
        throw error;
      }
      return user;
    },

    /** An organization's pending invitations (unexpired), oldest first (GSI1: a moment behind the writes). */
    async invitationsOf(orgId: string, now: Date): Promise<Invitation[]> {
      const items = await gsi1Partition(keys.invitationsOfOrganization(orgId));
      return items.map((item) => withoutTokenHash(stripKeys<StoredInvitation>(item)!)).filter((invitation) => Date.parse(invitation.expiresAt) > now.getTime());
    },

    /** An invitation by its id, with its token's hash (to check a link against). */
    invitation: async (invitationId: string) => stripKeys<StoredInvitation>(await getItem(db, tableName, keys.invitation(invitationId))),

    /** A new invitation and the hash of its link's token; DynamoDB TTL removes it after it expires. */
    async createInvitation(invitation: Invitation, tokenHash: string): Promise<void> {
      // A transaction of one Put, so that its audit record rides it (decisions 130).
      await transactRetried(db, [{ Put: { TableName: tableName, Item: { ...invitationEntity.item(invitation), tokenHash, [TTL_ATTRIBUTE]: ttlOf(invitation.expiresAt) }, ...IF_NEW } }]);
    },

    /** The invitation with a new link (its old one no longer works) and a new expiry; undefined when it is not `orgId`'s any more. */
    async renewInvitation(invitationId: string, orgId: string, tokenHash: string, expiresAt: string): Promise<Invitation | undefined> {
      const stored = stripKeys<StoredInvitation>(await getItem(db, tableName, keys.invitation(invitationId)));
      if (!stored || stored.orgId !== orgId) return undefined;
      const renewed = await conditionally([
        {
          Update: {
            TableName: tableName,
            Key: keys.invitation(invitationId),
            UpdateExpression: 'SET #tokenHash = :tokenHash, #expiresAt = :expiresAt, #ttl = :ttl',
            ConditionExpression: '#orgId = :orgId',
            ExpressionAttributeNames: { '#tokenHash': 'tokenHash', '#expiresAt': 'expiresAt', '#ttl': TTL_ATTRIBUTE, '#orgId': 'orgId' },
            ExpressionAttributeValues: { ':tokenHash': tokenHash, ':expiresAt': expiresAt, ':ttl': ttlOf(expiresAt), ':orgId': orgId },
          },
        },
      ]);
      return renewed ? withoutTokenHash({ ...stored, tokenHash, expiresAt }) : undefined;
    },

    /** Ends an invitation of `orgId`: false when there was none. */
    revokeInvitation: (invitationId: string, orgId: string): Promise<boolean> =>
      conditionally([
        {
          Delete: {
            TableName: tableName,
            Key: keys.invitation(invitationId),
            ConditionExpression: '#orgId = :orgId',
            ExpressionAttributeNames: { '#orgId': 'orgId' },
            ExpressionAttributeValues: { ':orgId': orgId },
          },
        },
      ]),

    /**
     * Accepts an invitation, in one transaction: the invitation taken (it must still hold this
     * token and not have expired: single use), the person created, their email claimed.
     * `'used'` when the link no longer works, `'email taken'` when the email got a user
     * meanwhile (nothing written either way).
     */
    async acceptInvitation(invitationId: string, tokenHash: string, person: TeamUser, now: Date): Promise<'accepted' | 'used' | 'email taken'> {
      try {
        await transactRetried(db, [
          {
            Delete: {
              TableName: tableName,
              Key: keys.invitation(invitationId),
              ConditionExpression: '#tokenHash = :tokenHash AND #expiresAt > :now',
              ExpressionAttributeNames: { '#tokenHash': 'tokenHash', '#expiresAt': 'expiresAt' },
              ExpressionAttributeValues: { ':tokenHash': tokenHash, ':now': now.toISOString() },
            },
          },
          { Put: { TableName: tableName, Item: userEntity.item(person), ...IF_NEW } },
          { Put: { TableName: tableName, Item: userEmailEntity.item({ userId: person.userId, orgId: person.orgId }, { email: emailKey(person.email) }), ...IF_NEW } },
        ]);
        return 'accepted';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons?.[0]?.code === 'ConditionalCheckFailed') return 'used';
        if (reasons?.[2]?.code === 'ConditionalCheckFailed') return 'email taken';
        throw error;
      }
    },

    /** A person's password reset (replacing any earlier one, whose link then no longer works); TTL after it expires. */
    async createReset(userId: string, tokenHash: string, expiresAt: string): Promise<void> {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...passwordResetEntity.item({ userId }), tokenHash, expiresAt, [TTL_ATTRIBUTE]: ttlOf(expiresAt) } }));
    },

    /** A person's pending reset, with its token's hash. */
    reset: async (userId: string) => stripKeys<{ userId: string; tokenHash: string; expiresAt: string }>(await getItem(db, tableName, keys.passwordReset(userId))),

    /**
     * A reset's new password, in one transaction: the reset taken (this token, not expired:
     * single use), the password set and the person's sessions ended (their version raised, as
     * read). False when the link no longer works or the person changed meanwhile.
     */
    resetPassword: (user: TeamUser, tokenHash: string, passwordHash: string, now: Date) =>
      conditionally([
        {
          Delete: {
            TableName: tableName,
            Key: keys.passwordReset(user.userId),
            ConditionExpression: '#tokenHash = :tokenHash AND #expiresAt > :now',
            ExpressionAttributeNames: { '#tokenHash': 'tokenHash', '#expiresAt': 'expiresAt' },
            ExpressionAttributeValues: { ':tokenHash': tokenHash, ':now': now.toISOString() },
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.user(user.userId),
            UpdateExpression: 'SET #passwordHash = :hash, #sessionVersion = :next',
            ConditionExpression: '#sessionVersion = :version AND #status = :active',
            ExpressionAttributeNames: { '#passwordHash': 'passwordHash', '#sessionVersion': 'sessionVersion', '#status': 'status' },
            ExpressionAttributeValues: { ':hash': passwordHash, ':version': user.sessionVersion, ':next': user.sessionVersion + 1, ':active': 'active' },
          },
        },
      ]),

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

/**
 * The change a factor's write makes to its person's item, as one action of the factor's
 * transaction (decisions 114): the item keeps what the sign-in and the team page read of the
 * person's factors (`twoFactorEnabledAt`, `passkeyCount`), under the condition that the person
 * exists and, with `condition`, that their item holds it as the change requires (a removal keeping a
 * second factor: decisions 116).
 */
export const personFactorUpdate = (
  tableName: string,
  userId: string,
  update: { expression: string; names: Record<string, string>; values?: Record<string, unknown>; condition?: string },
) => ({
  Update: {
    TableName: tableName,
    Key: keys.user(userId),
    UpdateExpression: update.expression,
    ConditionExpression: update.condition ? `${IF_EXISTS.ConditionExpression} AND (${update.condition})` : IF_EXISTS.ConditionExpression,
    ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, ...update.names },
    ...(update.values ? { ExpressionAttributeValues: update.values } : {}),
  },
});

/** A second factor's write keeping one: the person's item still holds another (`passkeyCount`, `twoFactorEnabledAt`). */
export const KEEPS_ANOTHER_FACTOR = {
  /** Two-factor turned off: a passkey is left. */
  totp: { condition: '#passkeyCount > :none', names: { '#passkeyCount': 'passkeyCount' }, values: { ':none': 0 } },
  /** A passkey removed (the count before the removal): two-factor is on, or another passkey is left. */
  passkey: { condition: 'attribute_exists(#enabledAt) OR #passkeyCount > :one', names: { '#enabledAt': 'twoFactorEnabledAt', '#passkeyCount': 'passkeyCount' }, values: { ':one': 1 } },
} as const;

/**
 * A second factor's removal, its item's Delete first and its person's update (`personFactorUpdate`)
 * last: false when the factor was not there (nothing removed); LastSecondFactorError when the
 * person's condition refused it (their last second factor while one is required).
 */
export async function removeFactor(db: DynamoDBDocumentClient, actions: Parameters<typeof transactRetried>[1]): Promise<boolean> {
  try {
    await transactRetried(db, actions);
    return true;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[0]?.code === 'ConditionalCheckFailed') return false;
    if (reasons?.[actions.length - 1]?.code === 'ConditionalCheckFailed') throw new LastSecondFactorError();
    throw error;
  }
}
