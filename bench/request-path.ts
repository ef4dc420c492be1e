/**
 * `npm run bench:request-path`: GET a payment link on the local stack (the handler behind the
 * local HTTP adapter, in this process) against its floor: a bare `node:http` server on loopback
 * whose handler makes the same GetItem and answers the item as JSON. The two are requested
 * alternately, one at a time, after a warm-up, so both see the same machine; p50 and p99 of
 * BENCH_ITERATIONS each. Run it with `node --cpu-prof` to see where the service's extra time goes
 * (docs/benchmarks.md).
 */
import '../shared/quiet-sdk';
import { runWhenMain } from './script';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '../shared/db/client';
import * as keys from '../shared/db/keys';
import { freePort } from '../bin/local/free-port';
import { startLocalStack } from '../bin/local/stack';
import { percentile, seedOrganization } from './api';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2_000);
const WARM_UP = 200;

export async function benchRequestPath(): Promise<string[]> {
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const tableName = 'bench-request-path';
  delete process.env.BASE_URL;
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:' });
  let floor: Server | undefined;
  try {
    const db = createDocumentClient({ endpoint });
    const merchant = await seedOrganization(db, tableName, 0);
    const headers = { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${stack.baseUrl}/v1/payment_links`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptor.id }),
    });
    const link = (await created.json()) as { id: string };

    floor = createServer(async (_request, response) => {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(link.id), ConsistentRead: true }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Item));
    });
    await new Promise<void>((resolve) => floor!.listen(0, '127.0.0.1', resolve));
    const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`;
    const serviceUrl = `${stack.baseUrl}/v1/payment_links/${link.id}`;

    const timed = async (url: string, init: RequestInit) => {
      const start = process.hrtime.bigint();
      const answer = await fetch(url, init);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const samples = { service: [] as number[], floor: [] as number[] };
    for (let i = 0; i < WARM_UP + ITERATIONS; i++) {
      const service = await timed(serviceUrl, { headers });
      const bare = await timed(floorUrl, {});
      if (i >= WARM_UP) {
        samples.service.push(service);
        samples.floor.push(bare);
      }
    }
    const [service, bare] = [samples.service.sort((a, b) => a - b), samples.floor.sort((a, b) => a - b)];
    const cell = (sorted: number[]) => `${percentile(sorted, 0.5).toFixed(2)} / ${percentile(sorted, 0.99).toFixed(2)}`;
    return [
      `## Request path: GET a payment link vs loopback HTTP + one GetItem (${ITERATIONS} alternate requests each, ms)`,
      '',
      '| | p50 / p99 |',
      '|---|---|',
      `| GET /v1/payment_links/:id (local stack) | ${cell(service)} |`,
      `| floor: bare node:http + GetItem | ${cell(bare)} |`,
      `| ratio | ${(percentile(service, 0.5) / percentile(bare, 0.5)).toFixed(2)}× / ${(percentile(service, 0.99) / percentile(bare, 0.99)).toFixed(2)}× |`,
    ];
  } finally {
    floor?.close();
    await stack.stop();
  }
}

runWhenMain(module, benchRequestPath);
