import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LAST_USE_STEP_MS, type KeyStore, type StoredApiKey } from '../auth/key-store';
import { isoMillis } from '../time';
import { conditionalWrite } from './conditional';
import { IF_EXISTS } from './entity';
import { stripKeys } from './entity';
import * as keys from './keys';
import { queryAll } from './query-all';
import { KEY } from './table';

/*
 * The reads a request makes of the directory, apart from its writes (shared/db/directory.ts
 * hands them out too), so a function's bundle carries only these: the key by its token's hash
 * (the Authenticator's KeyStore port), an acceptor, and an organization's acceptors.
 */

export interface Acceptor {
  id: string;
  orgId: string;
  name: string;
  /** The acceptor's merchant account at the acquirer: its live payments are taken there (product-decisions §12). */
  merchantAccount?: string;
  createdAt: string;
}

/** One consistent GetItem: the directory's every point read. */
export const getItem = async <T>(db: DynamoDBDocumentClient, tableName: string, key: Record<string, string>) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item as T | undefined;

export function createKeyStore(db: DynamoDBDocumentClient, tableName: string): KeyStore {
  return {
    findKeyByTokenHash: (tokenHash) => getItem<StoredApiKey>(db, tableName, keys.apiKeyByTokenHash(tokenHash)),
    // The functions that read only hold this one write, on key items (lib/route-area.ts).
    async noteUse(tokenHash, at) {
      await conditionalWrite(
        () =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.apiKeyByTokenHash(tokenHash),
              UpdateExpression: 'SET #lastUsedAt = :at',
              ConditionExpression: `${IF_EXISTS.ConditionExpression} AND (attribute_not_exists(#lastUsedAt) OR #lastUsedAt <= :stale)`,
              ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#lastUsedAt': 'lastUsedAt' },
              ExpressionAttributeValues: { ':at': at, ':stale': isoMillis(Date.parse(at) - LAST_USE_STEP_MS) },
            }),
          ),
        () => undefined, // noted within the minute already (another function), or the key is gone
      );
    },
  };
}

/** An organization's settings (the owner's "require two-factor"), by id. */
export function createOrganizationLookup(db: DynamoDBDocumentClient, tableName: string) {
  return (orgId: string) => getItem<{ id: string; name: string; requireTwoFactor?: boolean }>(db, tableName, keys.organization(orgId));
}

export function createAcceptorLookup(db: DynamoDBDocumentClient, tableName: string) {
  return { getAcceptor: (orgId: string, acceptorId: string) => getItem<Acceptor>(db, tableName, keys.acceptor(orgId, acceptorId)) };
}

export type AcceptorLookup = ReturnType<typeof createAcceptorLookup>;

/** An organization's acceptors, oldest first (the dashboard's create form offers them). */
export function createAcceptorList(db: DynamoDBDocumentClient, tableName: string) {
  return async (orgId: string): Promise<Acceptor[]> => {
    const { PK, SK } = keys.acceptor(orgId, '');
    const items = await queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SK },
    });
    return items.map((item) => stripKeys<Acceptor>(item)!);
  };
}
