/**
 * `npm run bench:reports`: a report of many payments on the local stack (product-decisions §18),
 * with its own DynamoDB Local (source mode; the bundles with LAMBDA_ARTIFACTS set to a `cdk synth
 * -o` folder, the builder then in a worker process of its own).
 * - seeding: BENCH_REPORT_ROWS paid payments (default 100,000) of one organization, and 10,000 of
 *   another, written straight into DynamoDB Local by BatchWriteItem with the service's own items
 *   (`paymentItem`: the keys of shared/db/entities.ts, spread over the payments' sub-partitions);
 * - the report of each: from `POST /v1/reports` to `GET` answering `succeeded` (the stream, the
 *   bus, the build), and the build itself (the report item's `createdAt` to `completedAt`);
 * - the builder's peak memory during the build: in artifact mode its worker's resident set, in
 *   source mode the bench process's heap above what it used before the build (sampled every 10 ms);
 * - the floor: the same rows read by a bare Query loop (each sub-partition of the list, the same
 *   key range, page by page, all at once), nothing else done with them.
 * Prints one JSON object.
 */
import '../shared/quiet-sdk';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDynamoDbLocal } from '../bin/local/dynamodb-local';
import { freePort } from '../bin/local/free-port';
import { startLocalStack, type LocalStack } from '../bin/local/stack';
import { batchWriteAll } from '../shared/db/batch';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import { scopeOf } from '../shared/db/entities';
import * as keys from '../shared/db/keys';
import { paymentItem } from '../shared/db/payment-repository';
import { INDEXES } from '../shared/db/table';
import type { Payment } from '../shared/domain/payments';
import { firstIdAt, lastIdBefore, newId } from '../shared/ids';
import { isoMillis, sleep } from '../shared/time';
import { client } from '../test/support/http';
import { runWhenMain } from './script';

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 100_000);
const SMALL_ROWS = 10_000;
const SEED_SLICE = 5_000;
const WRITERS = 8;
const DEADLINE_MS = 600_000;

type Db = ReturnType<typeof createDocumentClient>;

/**
 * `count` paid payments of `orgId`, created one millisecond apart from `start` (ids count
 * milliseconds, and one process makes them in increasing order: each seeding starts after the
 * last), written by BatchWriteItem (`batchWriteAll`, WRITERS batches at once), a slice at a time.
 */
async function seed(db: Db, tableName: string, owner: { orgId: string; acceptorId: string }, count: number, start: number): Promise<{ gte: string; lt: string }> {
  for (let first = 0; first < count; first += SEED_SLICE) {
    const requests = Array.from({ length: Math.min(SEED_SLICE, count - first) }, (_, offset) => {
      const n = first + offset;
      const at = start + n;
      const payment: Payment = {
        id: newId('payment', at),
        orgId: owner.orgId,
        mode: 'test',
        acceptorId: owner.acceptorId,
        paymentLinkId: 'pl_01jbenchbenchbenchbenchbench',
        status: 'paid',
        amountMinor: 1000 + (n % 9000),
        currency: 'EUR',
        createdAt: isoMillis(at),
        paidAt: isoMillis(at),
        customer: { email: `customer-${n}@example.com` },
      };
      return { PutRequest: { Item: paymentItem(payment) } };
    });
    await batchWriteAll(db, tableName, requests, { concurrency: WRITERS });
  }
  return { gte: isoMillis(start), lt: isoMillis(start + count) };
}

/** The floor: every row of the range read by bare Queries, each sub-partition paged to its end, all at once. */
async function queryFloor(db: Db, tableName: string, orgId: string, range: { gte: string; lt: string }): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const counts = await Promise.all(
    keys.paymentList(scopeOf(orgId, 'test')).map(async (partition) => {
      let rows = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: INDEXES.gsi1.name,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
            ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk, '#sk': INDEXES.gsi1.sk },
            ExpressionAttributeValues: { ':pk': partition, ':lower': firstIdAt('payment', Date.parse(range.gte)), ':upper': lastIdBefore('payment', Date.parse(range.lt)) },
            ScanIndexForward: false,
            ExclusiveStartKey: start,
          }),
        );
        rows += page.Items?.length ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return rows;
    }),
  );
  return { ms: Math.round(performance.now() - started), rows: counts.reduce((sum, count) => sum + count, 0) };
}

/**
 * The builder's peak memory during one build: its worker's resident set (artifact mode; sampled
 * every 10 ms, since a warm worker's own high-water mark, VmHWM, keeps the largest build it ever
 * ran), or the heap this process grew by (source mode, where the builder runs in it).
 */
function memoryProbe(stack: LocalStack, artifacts: boolean) {
  let timer: NodeJS.Timeout | undefined;
  if (artifacts) {
    const builderPids = () =>
      Object.entries(stack.aws.stats())
        .filter(([name]) => /ReportBuilder/.test(name))
        .flatMap(([, stats]) => stats.pids);
    const rssMb = (pid: number) => {
      try {
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      } catch {
        return 0; // a worker that went away
      }
    };
    let peakRss = 0;
    return {
      start() {
        timer = setInterval(() => (peakRss = Math.max(peakRss, ...builderPids().map(rssMb))), 10);
      },
      stop() {
        clearInterval(timer);
        return { builder_peak_rss_mb: Math.round(peakRss) };
      },
    };
  }
  let baseline = 0;
  let peak = 0;
  return {
    start() {
      global.gc?.();
      baseline = process.memoryUsage().heapUsed;
      peak = baseline;
      timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 10);
    },
    stop() {
      clearInterval(timer);
      return { heap_peak_above_baseline_mb: Math.round((peak - baseline) / 1024 / 1024), heap_baseline_mb: Math.round(baseline / 1024 / 1024) };
    },
  };
}

async function main() {
  process.env.LOG_LEVEL ??= 'ERROR';
  const artifacts = process.env.LAMBDA_ARTIFACTS;
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
  const tableName = `bench-reports-${Date.now()}`;
  delete process.env.BASE_URL;
  const stack = await startLocalStack({
    port: 0,
    dynamodbEndpoint: dynamo.endpoint,
    tableName,
    dataDir: ':memory:',
    s3Port: 0,
    background: true,
    artifacts,
    logDir: artifacts ? mkdtempSync(join(tmpdir(), 'bench-reports-logs-')) : undefined,
  });
  const db = createDocumentClient({ endpoint: dynamo.endpoint });
  const directory = createDirectory(db, tableName);
  try {
    const results: Record<string, unknown>[] = [];
    let start = Date.now() + 1000;
    for (const rows of [...new Set([SMALL_ROWS, ROWS])].sort((a, b) => a - b)) {
      const org = await directory.createOrganization(`Bench ${rows}`);
      const acceptor = await directory.createAcceptor(org.id, 'Bench shop');
      const user = await directory.createUser(org.id, 'member');
      const { token } = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: ['report:create', 'report:read'] });
      const api = client(stack.baseUrl, token);
      const seedStarted = performance.now();
      const range = await seed(db, tableName, { orgId: org.id, acceptorId: acceptor.id }, rows, start);
      start += rows + 1000;
      const seedMs = Math.round(performance.now() - seedStarted);
      const floor = await queryFloor(db, tableName, org.id, range);

      const probe = memoryProbe(stack, Boolean(artifacts));
      probe.start();
      const asked = performance.now();
      const created = await api.post('/v1/reports', { type: 'payments', created: range });
      if (created.status !== 201) throw new Error(`POST /v1/reports answered ${created.status}: ${JSON.stringify(created.body)}`);
      let report = created.body;
      while (report.status === 'pending') {
        if (performance.now() - asked > DEADLINE_MS) throw new Error(`report of ${rows} rows still pending after ${DEADLINE_MS} ms`);
        await sleep(100);
        report = (await api.get(`/v1/reports/${report.id}`)).body;
      }
      const endToEndMs = Math.round(performance.now() - asked);
      const memory = probe.stop();
      if (report.status !== 'succeeded' || report.row_count !== rows || floor.rows !== rows) throw new Error(`report ${JSON.stringify(report)}; floor read ${floor.rows} of ${rows} rows`);
      const item = (await db.send(new GetCommand({ TableName: tableName, Key: keys.report(report.id) }))).Item!;
      const buildMs = Date.parse(item.completedAt) - Date.parse(item.createdAt);
      const file = await fetch(report.url);
      const bytes = (await file.arrayBuffer()).byteLength;
      results.push({ rows, seed_ms: seedMs, file_mb: Math.round((bytes / 1024 / 1024) * 10) / 10, report_ms: endToEndMs, build_ms: buildMs, floor_query_ms: floor.ms, build_vs_floor: Math.round((buildMs / floor.ms) * 10) / 10, ...memory });
    }
    process.stdout.write(`${JSON.stringify({ bench: 'reports', mode: artifacts ? 'artifacts' : 'source', date: new Date().toISOString().slice(0, 10), results })}\n`);
  } finally {
    await stack.stop();
    await dynamo.stop();
  }
}

runWhenMain(module, main);
