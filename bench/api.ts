/**
 * Payment-link API latency against the raw DynamoDB calls each request makes, measured in one
 * run on the local stack (DynamoDB Local + the Lambda handlers behind the local HTTP adapter).
 * Reports ratios, not lone absolute times: a ratio is the cost of the service's own layers
 * (HTTP, middy, auth with its cache, validation, mapping) relative to its storage calls.
 */
import '../shared/quiet-sdk';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SCOPES } from '../shared/auth/principal';
import { batchWriteAll } from '../shared/db/batch';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import * as keys from '../shared/db/keys';
import { scopeOf } from '../shared/db/entities';
import { paymentLinkItem } from '../shared/db/payment-link-repository';
import { INDEXES } from '../shared/db/table';
import { newPaymentLink } from '../shared/domain/payment-links';
import { newEvent } from '../shared/events';
import { outboxPut } from '../shared/db/outbox';
import { newId } from '../shared/ids';
import { freePort } from '../bin/local/free-port';
import { startLocalStack } from '../bin/local/stack';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const LARGE_LIST = Number(process.env.BENCH_LARGE_LIST ?? 50_000);
const PAYERS = Number(process.env.BENCH_PAYERS ?? 16);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200);

export interface Sample {
  name: string;
  p50: number;
  p99: number;
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
  return { name, p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** The sample at `share` (0..1) of ascending `sorted`. */
export const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];

/** An organization with `count` links written straight to the table (25 per BatchWriteItem). */
export async function seedOrganization(db: DynamoDBDocumentClient, tableName: string, count: number) {
  const directory = createDirectory(db, tableName);
  const org = await directory.createOrganization(`Bench ${count}`);
  const acceptor = await directory.createAcceptor(org.id, 'Bench shop');
  const user = await directory.createUser(org.id);
  const { token } = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: [...SCOPES] });
  const now = new Date();
  const items = Array.from({ length: count }, () =>
    paymentLinkItem(
      newPaymentLink({ id: newId('paymentLink'), orgId: org.id, mode: 'test', acceptorId: acceptor.id, body: { amount: { value: '10.00', currency: 'EUR' } }, now }),
      1,
    ),
  );
  await batchWriteAll(db, tableName, items.map((Item) => ({ PutRequest: { Item } })));
  return { org, acceptor, token };
}

export async function benchApi(): Promise<string[]> {
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const tableName = 'bench';
  delete process.env.BASE_URL;
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:' });
  try {
    const db = createDocumentClient({ endpoint });
    const small = await seedOrganization(db, tableName, 1_000);
    const large = await seedOrganization(db, tableName, LARGE_LIST);
    const headersOf = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const headers = headersOf(small.token);
    const call = (method: string, path: string, body?: unknown, token = small.token) =>
      fetch(`${stack.baseUrl}${path}`, { method, headers: headersOf(token), body: body === undefined ? undefined : JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ id: string }>,
      );
    const link = await call('POST', '/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: small.acceptor.id });

    // The raw calls each operation makes (docs/architecture.md, round trips per request).
    const rawGet = () => db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(link.id), ConsistentRead: true }));
    const rawAcceptor = () => db.send(new GetCommand({ TableName: tableName, Key: keys.acceptor(small.org.id, small.acceptor.id), ConsistentRead: true }));
    const rawCreate = async () => {
      await rawAcceptor();
      const created = newPaymentLink({ id: newId('paymentLink'), orgId: small.org.id, mode: 'test', acceptorId: small.acceptor.id, body: { amount: { value: '10.00', currency: 'EUR' } }, now: new Date() });
      const event = newEvent({ type: 'transactions.payment_link.created', orgId: small.org.id, mode: 'test', data: { id: created.id } });
      await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: paymentLinkItem(created, 1) } }, outboxPut(tableName, event)] }));
    };
    let version = 0;
    const rawUpdate = async () => {
      const current = (await rawGet()).Item!;
      version = Number(current.version);
      const event = newEvent({ type: 'transactions.payment_link.properties.changed', orgId: small.org.id, mode: 'test', data: { id: link.id } });
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...current, version: version + 1 }, ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': version } } },
            outboxPut(tableName, event),
          ],
        }),
      );
    };
    const rawList = (orgId: string) => () =>
      db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
          ExpressionAttributeValues: { ':pk': keys.paymentLinkList(scopeOf(orgId, 'test')) },
          ScanIndexForward: false,
          Limit: 11,
        }),
      );

    const pairs: [Sample, Sample, string][] = [
      [await measure('raw GetItem + TransactWriteItems', ITERATIONS, rawCreate), await measure('POST /v1/payment_links', ITERATIONS, () => call('POST', '/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: small.acceptor.id })), 'create'],
      [await measure('raw GetItem', ITERATIONS, rawGet), await measure('GET /v1/payment_links/:id', ITERATIONS, () => call('GET', `/v1/payment_links/${link.id}`)), 'retrieve'],
      [await measure('raw GetItem + TransactWriteItems', ITERATIONS, rawUpdate), await measure('POST /v1/payment_links/:id', ITERATIONS, () => call('POST', `/v1/payment_links/${link.id}`, { description: 'bench' })), 'update'],
      [await measure('raw Query (11 links)', ITERATIONS, rawList(small.org.id)), await measure('GET /v1/payment_links', ITERATIONS, () => call('GET', '/v1/payment_links')), 'list, 1,000 links'],
      [await measure('raw Query (11 links)', ITERATIONS, rawList(large.org.id)), await measure('GET /v1/payment_links', ITERATIONS, () => call('GET', '/v1/payment_links', undefined, large.token)), `list, ${LARGE_LIST.toLocaleString('en')} links`],
    ];

    // Paid-checkout throughput: PAYERS customers at a time on one link limited to PAYMENTS.
    const limited = await call('POST', '/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: small.acceptor.id, payments_limit: PAYMENTS });
    let remaining = PAYMENTS;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: PAYERS }, async () => {
        while (remaining > 0) {
          remaining--;
          await fetch(`${stack.baseUrl}/v1/test_helpers/payment_links/${limited.id}/checkout`, { method: 'POST', headers, body: '{}' }).then((r) => r.text());
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;

    const row = ([raw, api, name]: [Sample, Sample, string]) =>
      `| ${name} | ${api.p50.toFixed(2)} / ${api.p99.toFixed(2)} | ${raw.p50.toFixed(2)} / ${raw.p99.toFixed(2)} (${raw.name}) | ${(api.p50 / raw.p50).toFixed(2)}× / ${(api.p99 / raw.p99).toFixed(2)}× |`;
    return [
      `## Payment links: API vs the raw DynamoDB calls it makes (${ITERATIONS} sequential requests each, ms)`,
      '',
      '| operation | API p50 / p99 | raw p50 / p99 | ratio p50 / p99 |',
      '|---|---|---|---|',
      ...pairs.map(row),
      '',
      `Paid-checkout throughput on one link limited to ${PAYMENTS}, ${PAYERS} payers at a time: ${(PAYMENTS / seconds).toFixed(1)} paid checkouts/s (${seconds.toFixed(1)} s, open + paid each).`,
    ];
  } finally {
    await stack.stop();
  }
}
