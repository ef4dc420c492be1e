import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/** The floor of `npm run bench:cold`: the smallest function that answers a GetItem through lib-dynamodb. */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { pathParameters?: { id?: string } }) => {
  const result = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: `PL#${event.pathParameters?.id}`, SK: 'PL' } }));
  return { statusCode: result.Item ? 200 : 404, body: JSON.stringify(result.Item ?? {}) };
};
