import { createServer } from 'node:net';
import { ensureDynamoDbLocal } from '../../shared/local/dynamodb-local';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One in-memory DynamoDB Local for the whole run; every test file gets its own table in it. */
export default async function globalSetup(): Promise<void> {
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
  process.env.DYNAMODB_ENDPOINT = endpoint;
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
