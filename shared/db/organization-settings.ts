import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { transactUnlessRefused } from './conditional';
import { IF_EXISTS } from './entity';
import * as keys from './keys';

/** The organization's security settings on its item (the sign-in reads them: createOrganizationLookup). */
export function createOrganizationSettings(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Sets or clears `requireTwoFactor`; false when the organization does not exist. */
    setRequireTwoFactor: (orgId: string, required: boolean): Promise<boolean> =>
      // A transaction of one Update, so that its audit record rides it (decisions 130).
      transactUnlessRefused(db, [
        {
          Update: {
            TableName: tableName,
            Key: keys.organization(orgId),
            UpdateExpression: required ? 'SET #required = :on' : 'REMOVE #required',
            ConditionExpression: IF_EXISTS.ConditionExpression,
            ExpressionAttributeNames: { ...IF_EXISTS.ExpressionAttributeNames, '#required': 'requireTwoFactor' },
            ...(required ? { ExpressionAttributeValues: { ':on': true } } : {}),
          },
        },
      ]),
  };
}

export type OrganizationSettings = ReturnType<typeof createOrganizationSettings>;
