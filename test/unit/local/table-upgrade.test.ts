import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { localAwsConfig } from '../../../shared/db/client';
import { INDEXES, tableDefinition } from '../../../shared/db/table';
import { ensureTable } from '../../../bin/local/dynamodb-local';

test('a table kept from an earlier run gets the indexes added since (as a deploy adds them)', async () => {
  const endpoint = process.env.DYNAMODB_ENDPOINT!;
  const client = new DynamoDBClient(localAwsConfig(endpoint));
  const tableName = `test-${randomUUID()}`;
  const current = tableDefinition(tableName);
  const earlier = current.GlobalSecondaryIndexes.filter((index) => index.IndexName !== INDEXES.gsi4.name && index.IndexName !== INDEXES.gsi5.name);
  const earlierNames = new Set<string>(['PK', 'SK', ...earlier.flatMap((index) => index.KeySchema.map((key) => key.AttributeName))]);
  await client.send(
    new CreateTableCommand({
      ...current,
      GlobalSecondaryIndexes: earlier,
      AttributeDefinitions: current.AttributeDefinitions.filter((attribute) => earlierNames.has(attribute.AttributeName)),
    }),
  );
  await ensureTable(endpoint, tableName);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  expect(Table!.GlobalSecondaryIndexes!.map((index) => index.IndexName).sort()).toEqual(Object.values(INDEXES).map((index) => index.name).sort());
  client.destroy();
});
