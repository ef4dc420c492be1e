import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../auth/principal';
import { keys, scopeOf } from './keys';

/**
 * The balance of one organization, mode and currency, in minor units. Changes are
 * TransactWriteItems actions so that they commit together with what causes them.
 */
export interface BalanceRef {
  orgId: string;
  mode: Mode;
  currency: string;
}

const balanceKey = (ref: BalanceRef) => keys.balance(scopeOf(ref.orgId, ref.mode), ref.currency.toUpperCase());

/**
 * An Update action adding `deltaMinor` (negative debits). With `mustCover`, the action's
 * condition fails unless the balance covers the debit: a refund can never drive it below zero.
 */
export function balanceChange(tableName: string, ref: BalanceRef, deltaMinor: number, options: { mustCover?: boolean } = {}) {
  return {
    Update: {
      TableName: tableName,
      Key: balanceKey(ref),
      UpdateExpression: 'SET #orgId = :orgId, #mode = :mode, #currency = :currency ADD #available :delta',
      ...(options.mustCover ? { ConditionExpression: '#available >= :needed' } : {}),
      ExpressionAttributeNames: { '#available': 'availableMinor', '#orgId': 'orgId', '#mode': 'mode', '#currency': 'currency' },
      ExpressionAttributeValues: {
        ':delta': deltaMinor,
        ':orgId': ref.orgId,
        ':mode': ref.mode,
        ':currency': ref.currency.toUpperCase(),
        ...(options.mustCover ? { ':needed': -deltaMinor } : {}),
      },
    },
  };
}

export async function readBalance(db: DynamoDBDocumentClient, tableName: string, ref: BalanceRef): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: balanceKey(ref), ConsistentRead: true }));
  return (result.Item?.availableMinor as number | undefined) ?? 0;
}
