import {
  DescribeTableCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { addMissingIndexes, createTable, tableSetupClient } from '../dynamodb-local';
import type { CfnResource } from './template';

/** Creates the template's tables in DynamoDB Local (unless they exist) and returns each one's stream label. */
export async function ensureTables(endpoint: string, tables: [string, CfnResource][], nameOf: (logicalId: string) => string): Promise<Map<string, string>> {
  const client = tableSetupClient(endpoint);
  const labels = new Map<string, string>();
  try {
    for (const [logicalId, table] of tables) {
      const name = nameOf(logicalId);
      const properties = table.Properties ?? {};
      const describe = () => client.send(new DescribeTableCommand({ TableName: name }));
      const existing = await describe().catch((error) => {
        if ((error as Error).name !== 'ResourceNotFoundException') throw error;
        return undefined;
      });
      // The properties CreateTable takes (a template may add others, such as contributor insights).
      const indexOf = (index: Record<string, unknown>) => ({ IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection });
      const globalIndexes = ((properties.GlobalSecondaryIndexes ?? []) as Record<string, unknown>[]).map(indexOf) as GlobalSecondaryIndex[];
      if (existing?.Table) await addMissingIndexes(client, existing.Table, globalIndexes, properties.AttributeDefinitions as AttributeDefinition[]);
      if (!existing) {
        const stream = properties.StreamSpecification as { StreamViewType?: string } | undefined;
        await createTable(client, {
          TableName: name,
          AttributeDefinitions: properties.AttributeDefinitions,
          KeySchema: properties.KeySchema,
          // DynamoDB Local ignores capacity.
          BillingMode: 'PAY_PER_REQUEST',
          ...(globalIndexes.length > 0 ? { GlobalSecondaryIndexes: globalIndexes } : {}),
          ...(properties.LocalSecondaryIndexes ? { LocalSecondaryIndexes: (properties.LocalSecondaryIndexes as Record<string, unknown>[]).map(indexOf) } : {}),
          ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream.StreamViewType } } : {}),
        } as CreateTableCommandInput);
      }
      const streamArn = (existing ?? (await describe())).Table?.LatestStreamArn;
      if (streamArn) labels.set(name, streamArn.split('/stream/')[1]);
    }
  } finally {
    client.destroy();
  }
  return labels;
}
