import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { webAuthnKeyHash, type Passkey, type PasskeyStore } from '../domain/passkeys';
import { conditionalWrite, transactUnlessRefused } from './conditional';
import { IF_EXISTS, IF_NEW } from './entity';
import { passkeyEntity, webAuthnChallengeEntity } from './entities';
import * as keys from './keys';
import { KEEPS_ANOTHER_FACTOR, personFactorUpdate, removeFactor } from './team-directory';
import { KEY, TTL_ATTRIBUTE } from './table';

const asPasskey = (item: Record<string, unknown>): Passkey => {
  const { credentialId, publicKey, counter, transports, name, createdAt, lastUsedAt, deviceType, backedUp } = passkeyEntity.fromItem(item)!;
  return { credentialId, publicKey, counter: Number(counter), transports: [...(transports ?? [])], name, createdAt, ...(lastUsedAt ? { lastUsedAt } : {}), deviceType, backedUp };
};

/**
 * WebAuthn in the table: a user's passkeys in the user's partition (`USER#{usr}` /
 * `PASSKEY#{sha256(credential id)}`), and challenges in partitions of their own, taken with one
 * conditional DeleteItem (the purpose, the user, the browser and the expiry all in its
 * condition), so that a challenge answers at most one ceremony however many race for it. Adding
 * or removing a passkey moves the person's `passkeyCount` in the same transaction.
 */
export function createPasskeyStore(db: DynamoDBDocumentClient, tableName: string): PasskeyStore {
  /** The person's `passkeyCount`, moved by `by` in the transaction that adds or removes a passkey. */
  const countPasskeys = (userId: string, by: 1 | -1, keep?: (typeof KEEPS_ANOTHER_FACTOR)['passkey']) =>
    personFactorUpdate(tableName, userId, { expression: 'ADD #count :by', names: { '#count': 'passkeyCount', ...keep?.names }, values: { ':by': by, ...keep?.values }, condition: keep?.condition });
  return {
    async saveChallenge(challenge, issued) {
      const item = webAuthnChallengeEntity.item(issued, { challengeHash: webAuthnKeyHash(challenge) });
      await db.send(new PutCommand({ TableName: tableName, Item: { ...item, [TTL_ATTRIBUTE]: Math.ceil(Date.parse(issued.expiresAt) / 1000) }, ...IF_NEW }));
    },

    takeChallenge: (challenge, expected) =>
      conditionalWrite(
        async () => {
          await db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: keys.webAuthnChallenge(webAuthnKeyHash(challenge)),
              ConditionExpression: `attribute_exists(#pk) AND purpose = :purpose AND binding = :binding AND expiresAt > :now AND ${expected.userId ? 'userId = :user' : 'attribute_not_exists(userId)'}`,
              ExpressionAttributeNames: { '#pk': KEY.pk },
              ExpressionAttributeValues: {
                ':purpose': expected.purpose,
                ':binding': expected.binding,
                ':now': expected.now.toISOString(),
                ...(expected.userId ? { ':user': expected.userId } : {}),
              },
            }),
          );
          return true;
        },
        () => false,
      ),

    add: (userId, passkey) =>
      transactUnlessRefused(db, [
        { Put: { TableName: tableName, Item: passkeyEntity.item(passkey, { userId, credentialHash: webAuthnKeyHash(passkey.credentialId) }), ...IF_NEW } },
        countPasskeys(userId, 1),
      ]),

    async list(userId) {
      const { pk, skPrefix } = keys.passkeysOf(userId);
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ConsistentRead: true,
        }),
      );
      return Items.map(asPasskey).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async find(userId, credentialId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.passkey(userId, webAuthnKeyHash(credentialId)), ConsistentRead: true }));
      return Item ? asPasskey(Item) : undefined;
    },

    recordUse: (userId, credentialId, counter, at) =>
      conditionalWrite(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.passkey(userId, webAuthnKeyHash(credentialId)),
              UpdateExpression: 'SET #counter = :counter, lastUsedAt = :at',
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: { '#pk': KEY.pk, '#counter': 'counter' },
              ExpressionAttributeValues: { ':counter': counter, ':at': at },
            }),
          );
        },
        // Removed between its check and this write: the sign-in it proved still stands.
        () => undefined,
      ),

    remove: (userId, credentialId, keepASecondFactor) =>
      removeFactor(db, [
        { Delete: { TableName: tableName, Key: keys.passkey(userId, webAuthnKeyHash(credentialId)), ...IF_EXISTS } },
        countPasskeys(userId, -1, keepASecondFactor ? KEEPS_ANOTHER_FACTOR.passkey : undefined),
      ]),
  };
}
