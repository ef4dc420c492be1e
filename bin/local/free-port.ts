import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a DynamoDB Local of its own). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
