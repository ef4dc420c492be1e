/**
 * API latency against the raw DynamoDB call each request makes, measured in one run on the
 * local stack (DynamoDB Local + the Lambda handlers behind the local HTTP adapter). Reports
 * ratios, not lone absolute times: the ratio is the cost of the service's own layers (HTTP,
 * middy, auth with its cache, validation, mapping) relative to the storage call.
 */
import '../shared/quiet-sdk';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SCOPES } from '../shared/auth/principal';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import { keys, scopeOf } from '../shared/db/keys';
import { INDEXES } from '../shared/db/table';
import { freePort } from '../shared/local/free-port';
import { startLocalStack } from '../shared/local/stack';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);

export interface Sample {
  name: string;
  p50: number;
  p99: number;
  mean: number;
}

export async function measure(name: string, iterations: number, run: () => Promise<unknown>): Promise<Sample> {
  for (let i = 0; i < Math.min(20, iterations); i++) await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return {
    name,
    p50: times[Math.floor(times.length * 0.5)],
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
    mean: times.reduce((sum, t) => sum + t, 0) / times.length,
  };
}

export async function benchApi(): Promise<string[]> {
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  delete process.env.BASE_URL;
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName: 'bench', dataDir: ':memory:' });
  try {
    const db = createDocumentClient({ endpoint });
    const directory = createDirectory(db, 'bench');
    const org = await directory.createOrganization('Bench');
    const acceptor = await directory.createAcceptor(org.id, 'Bench shop');
    const user = await directory.createUser(org.id);
    const { token } = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: [...SCOPES] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const create = () =>
      fetch(`${stack.baseUrl}/v1/payment_links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: { value: '10.00', currency: 'EUR' }, acceptor_id: acceptor.id }),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const link = await create();
    for (let i = 0; i < 30; i++) await create();

    const rawGet = () => db.send(new GetCommand({ TableName: 'bench', Key: keys.paymentLink(link.id), ConsistentRead: true }));
    const rawQuery = () =>
      db.send(
        new QueryCommand({
          TableName: 'bench',
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
          ExpressionAttributeValues: { ':pk': keys.paymentLinkList(scopeOf(org.id, 'test')) },
          ScanIndexForward: false,
          Limit: 11,
        }),
      );
    const apiGet = () => fetch(`${stack.baseUrl}/v1/payment_links/${link.id}`, { headers }).then((r) => r.text());
    const apiList = () => fetch(`${stack.baseUrl}/v1/payment_links`, { headers }).then((r) => r.text());
    const pay = () =>
      fetch(`${stack.baseUrl}/v1/test_helpers/payment_links/${link.id}/checkout`, { method: 'POST', headers, body: '{}' }).then((r) => r.text());

    const samples = [
      await measure('raw GetItem (payment link)', ITERATIONS, rawGet),
      await measure('GET /v1/payment_links/:id', ITERATIONS, apiGet),
      await measure('raw Query (10 + 1 links)', ITERATIONS, rawQuery),
      await measure('GET /v1/payment_links', ITERATIONS, apiList),
      await measure('POST /v1/payment_links', ITERATIONS, create),
      await measure('test-helper checkout (open + paid)', Math.ceil(ITERATIONS / 3), pay),
    ];
    const [get, apiGetSample, query, listSample, createSample, paySample] = samples;
    const format = (s: Sample) => `| ${s.name} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.mean.toFixed(2)} |`;
    return [
      `API vs raw DynamoDB, ${ITERATIONS} sequential requests each (ms, this machine, one run)`,
      '',
      '| operation | p50 | p99 | mean |',
      '|---|---|---|---|',
      ...samples.map(format),
      '',
      `- GET /v1/payment_links/:id ÷ raw GetItem (p50): ${(apiGetSample.p50 / get.p50).toFixed(2)}×`,
      `- GET /v1/payment_links ÷ raw Query (p50): ${(listSample.p50 / query.p50).toFixed(2)}×`,
      `- POST /v1/payment_links ÷ raw GetItem (p50): ${(createSample.p50 / get.p50).toFixed(2)}× (one TransactWriteItems: link + created event, and an acceptor GetItem)`,
      `- paid checkout ÷ raw GetItem (p50): ${(paySample.p50 / get.p50).toFixed(2)}× (open: 2 transactions; paid: reads + one 6-item transaction)`,
    ];
  } finally {
    await stack.stop();
  }
}
