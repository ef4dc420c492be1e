import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyStore, StoredApiKey } from '../auth/key-store';
import * as keys from './keys';

/*
 * The two point reads a request makes of the directory, apart from its writes and lists
 * (shared/db/directory.ts hands them out too), so an API function's bundle carries only these:
 * the key by its token's hash (the Authenticator's KeyStore port), and an acceptor.
 */

export interface Acceptor {
  id: string;
  orgId: string;
  name: string;
  createdAt: string;
}

/** One consistent GetItem: the directory's every point read. */
export const getItem = async <T>(db: DynamoDBDocumentClient, tableName: string, key: Record<string, string>) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item as T | undefined;

export function createKeyStore(db: DynamoDBDocumentClient, tableName: string): KeyStore {
  return { findKeyByTokenHash: (tokenHash) => getItem<StoredApiKey>(db, tableName, keys.apiKeyByTokenHash(tokenHash)) };
}

export function createAcceptorLookup(db: DynamoDBDocumentClient, tableName: string) {
  return { getAcceptor: (orgId: string, acceptorId: string) => getItem<Acceptor>(db, tableName, keys.acceptor(orgId, acceptorId)) };
}

export type AcceptorLookup = ReturnType<typeof createAcceptorLookup>;
