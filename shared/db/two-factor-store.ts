import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TotpEnrolment, TotpFactor, TwoFactorStore } from '../domain/two-factor';
import { conditionalWrite, transactUnlessRefused } from './conditional';
import { IF_EXISTS, IF_NEW } from './entity';
import { recoveryCodesEntity, totpEnrolmentEntity, totpFactorEntity } from './entities';
import * as keys from './keys';
import { KEEPS_ANOTHER_FACTOR, personFactorUpdate, removeFactor } from './team-directory';
import { KEY, TTL_ATTRIBUTE } from './table';

/**
 * Two-factor items in the user's partition (`USER#{usr}`): the pending enrolment (TTL), the TOTP
 * factor and the recovery codes' hashes. Every use of a code is one conditional write, so two
 * requests racing with the same code cannot both pass: a step is recorded only if later than
 * the last (`lastUsedStep < :step`), a recovery code's hash removed only if still there
 * (`contains`). Turning the factor on or off sets or removes the person's `twoFactorEnabledAt`
 * in the same transaction.
 */
export function createTwoFactorStore(db: DynamoDBDocumentClient, tableName: string): TwoFactorStore {
  const failedCondition = () => false as const;
  const transact = (actions: Parameters<typeof transactUnlessRefused>[1]) => transactUnlessRefused(db, actions);
  return {
    async startEnrolment(userId, enrolment) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...totpEnrolmentEntity.item(enrolment, { userId }), [TTL_ATTRIBUTE]: Math.ceil(Date.parse(enrolment.expiresAt) / 1000) },
        }),
      );
    },

    async pendingEnrolment(userId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.totpEnrolment(userId), ConsistentRead: true }));
      const enrolment = totpEnrolmentEntity.fromItem(Item);
      return enrolment && { sealedSecret: enrolment.sealedSecret, createdAt: enrolment.createdAt, expiresAt: enrolment.expiresAt } satisfies TotpEnrolment;
    },

    confirmEnrolment: (userId, factor, recoveryCodeHashes) =>
      transact([
        { Put: { TableName: tableName, Item: totpFactorEntity.item(factor, { userId }), ...IF_NEW } },
        { Put: { TableName: tableName, Item: recoveryCodesEntity.item({ codeHashes: new Set(recoveryCodeHashes) }, { userId }) } },
        {
          Delete: {
            TableName: tableName,
            Key: keys.totpEnrolment(userId),
            ConditionExpression: 'sealedSecret = :secret',
            ExpressionAttributeValues: { ':secret': factor.sealedSecret },
          },
        },
        personFactorUpdate(tableName, userId, { expression: 'SET #enabledAt = :at', names: { '#enabledAt': 'twoFactorEnabledAt' }, values: { ':at': factor.enabledAt } }),
      ]),

    async factorOf(userId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.totpFactor(userId), ConsistentRead: true }));
      const factor = totpFactorEntity.fromItem(Item);
      return factor && { sealedSecret: factor.sealedSecret, enabledAt: factor.enabledAt, lastUsedStep: Number(factor.lastUsedStep) } satisfies TotpFactor;
    },

    useStep: (userId, step) =>
      conditionalWrite(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.totpFactor(userId),
              UpdateExpression: 'SET lastUsedStep = :step',
              ConditionExpression: 'attribute_exists(#pk) AND lastUsedStep < :step',
              ExpressionAttributeNames: { '#pk': KEY.pk },
              ExpressionAttributeValues: { ':step': step },
            }),
          );
          return true;
        },
        failedCondition,
      ),

    useRecoveryCode: (userId, codeHash) =>
      conditionalWrite(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.recoveryCodes(userId),
              UpdateExpression: 'DELETE codeHashes :code',
              ConditionExpression: 'contains(codeHashes, :hash)',
              ExpressionAttributeValues: { ':code': new Set([codeHash]), ':hash': codeHash },
            }),
          );
          return true;
        },
        failedCondition,
      ),

    replaceRecoveryCodes: (userId, codeHashes) =>
      transact([
        { ConditionCheck: { TableName: tableName, Key: keys.totpFactor(userId), ...IF_EXISTS } },
        { Put: { TableName: tableName, Item: recoveryCodesEntity.item({ codeHashes: new Set(codeHashes) }, { userId }) } },
      ]),

    async recoveryCodesLeft(userId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.recoveryCodes(userId), ConsistentRead: true }));
      return (Item?.codeHashes as Set<string> | undefined)?.size ?? 0;
    },

    disable: (userId, keepASecondFactor) => {
      const keep = keepASecondFactor ? KEEPS_ANOTHER_FACTOR.totp : undefined;
      return removeFactor(db, [
        { Delete: { TableName: tableName, Key: keys.totpFactor(userId), ...IF_EXISTS } },
        { Delete: { TableName: tableName, Key: keys.recoveryCodes(userId) } },
        { Delete: { TableName: tableName, Key: keys.totpEnrolment(userId) } },
        personFactorUpdate(tableName, userId, { expression: 'REMOVE #enabledAt', names: { '#enabledAt': 'twoFactorEnabledAt', ...keep?.names }, values: keep?.values, condition: keep?.condition }),
      ]);
    },
  };
}
