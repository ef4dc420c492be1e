/**
 * `npm run bench:request-path`: two requests on the local stack (the handler behind the local
 * HTTP adapter, in this process) against their floors on a bare `node:http` server on loopback:
 * - GET a payment link against a handler that makes the same Query (the link and its paid
 *   shards) and answers the item;
 * - POST a payment link against a handler that parses the body, reads the acceptor (one GetItem)
 *   and writes two items in one TransactWriteItems (the link and its event), answering 201.
 * Service and floor are requested alternately, one at a time, after a warm-up, so both see the
 * same machine; p50 and p99 of BENCH_ITERATIONS each. Run it with `node --cpu-prof` to see where
 * the service's extra time goes (docs/benchmarks.md).
 */
import '../shared/quiet-sdk';
import { runWhenMain } from './script';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { KEY } from '../shared/db/table';
import { randomUUID } from 'node:crypto';
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

    floor = createServer(async (request, response) => {
      if (request.method === 'GET') {
        // The service's one read of a link: its item and its paid shards, in one Query of its partition.
        const { Items } = await db.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :shards AND :link',
            ExpressionAttributeNames: { '#pk': KEY.pk, '#sk': KEY.sk },
            ExpressionAttributeValues: { ':pk': keys.paymentLink(link.id).PK, ':shards': 'PAID#', ':link': keys.paymentLink(link.id).SK },
            ConsistentRead: true,
          }),
        );
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Items?.at(-1)));
        return;
      }
      let text = '';
      for await (const chunk of request) text += chunk;
      const body = JSON.parse(text) as { amount: { value: string; currency: string }; acceptor_id: string };
      await db.send(new GetCommand({ TableName: tableName, Key: keys.acceptor(merchant.org.id, body.acceptor_id), ConsistentRead: true }));
      const id = randomUUID();
      const item = { PK: `FLOOR#${id}`, SK: 'PL', GSI1PK: `${merchant.org.id}#test#PL`, GSI1SK: id, id, ...body, createdAt: new Date().toISOString() };
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
            { Put: { TableName: tableName, Item: { PK: `FLOOR#${id}`, SK: 'EVT', type: 'transactions.payment_link.created', data: item } } },
          ],
        }),
      );
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(item));
    });
    await new Promise<void>((resolve) => floor!.listen(0, '127.0.0.1', resolve));
    const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`;
    const createBody = JSON.stringify({ amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptor.id });
    const legs = [
      { name: 'GET /v1/payment_links/:id', floorName: 'bare node:http + the same Query', goal: 1.15, url: `${stack.baseUrl}/v1/payment_links/${link.id}`, init: { headers }, floorInit: {}, status: 200 },
      {
        name: 'POST /v1/payment_links',
        floorName: 'bare node:http + GetItem + two-item TransactWriteItems',
        goal: 1.2,
        url: `${stack.baseUrl}/v1/payment_links`,
        init: { method: 'POST', headers, body: createBody },
        floorInit: { method: 'POST', headers: { 'content-type': 'application/json' }, body: createBody },
        status: 201,
      },
    ];

    const timed = async (url: string, init: RequestInit, status: number) => {
      const start = process.hrtime.bigint();
      const answer = await fetch(url, init);
      await answer.arrayBuffer();
      if (answer.status !== status) throw new Error(`${url} answered ${answer.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const cell = (sorted: number[]) => `${percentile(sorted, 0.5).toFixed(2)} / ${percentile(sorted, 0.99).toFixed(2)}`;
    const lines = [
      `## Request path: the service against loopback HTTP + the same DynamoDB calls (${ITERATIONS} alternate requests each, ms)`,
      '',
      '| request | service p50 / p99 | floor p50 / p99 | ratio p50 / p99 | goal (p50) |',
      '|---|---|---|---|---|',
    ];
    for (const leg of legs) {
      const samples = { service: [] as number[], floor: [] as number[] };
      for (let i = 0; i < WARM_UP + ITERATIONS; i++) {
        const service = await timed(leg.url, leg.init, leg.status);
        const bare = await timed(floorUrl, leg.floorInit, leg.status);
        if (i >= WARM_UP) {
          samples.service.push(service);
          samples.floor.push(bare);
        }
      }
      const [service, bare] = [samples.service.sort((a, b) => a - b), samples.floor.sort((a, b) => a - b)];
      lines.push(
        `| ${leg.name} vs ${leg.floorName} | ${cell(service)} | ${cell(bare)} | ${(percentile(service, 0.5) / percentile(bare, 0.5)).toFixed(2)}× / ${(percentile(service, 0.99) / percentile(bare, 0.99)).toFixed(2)}× | ≤ ${leg.goal}× |`,
      );
    }
    return lines;
  } finally {
    floor?.close();
    await stack.stop();
  }
}

runWhenMain(module, benchRequestPath);
