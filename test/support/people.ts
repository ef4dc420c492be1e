import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../shared/db/keys';
import { newId } from '../../shared/ids';

/**
 * A person's item in a table of the test's own (its keys only): a factor's write changes its
 * person's item in the same transaction, under the condition that the person exists.
 */
export async function personInTable(db: DynamoDBDocumentClient, tableName: string): Promise<string> {
  const userId = newId('user');
  await db.send(new PutCommand({ TableName: tableName, Item: keys.user(userId) }));
  return userId;
}

/** What the person's item says of their factors (the sign-in and the team page read these). */
export async function personFactors(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<{ twoFactorEnabledAt?: string; passkeyCount?: number }> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.user(userId), ConsistentRead: true }));
  return { twoFactorEnabledAt: Item?.twoFactorEnabledAt, passkeyCount: Item?.passkeyCount };
}
