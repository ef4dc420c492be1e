import { ensureDynamoDbLocal } from '../../bin/local/dynamodb-local';
import { freePort } from '../../bin/local/free-port';

/**
 * One in-memory DynamoDB Local for the whole run, behind the contention layer (every test file
 * goes through it, in both modes); every test file gets its own table in it.
 */
export default async function globalSetup(): Promise<void> {
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
  process.env.DYNAMODB_ENDPOINT = endpoint;
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
