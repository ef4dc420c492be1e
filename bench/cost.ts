/**
 * `npm run bench:cost`: what BENCH_COST_PAID (1,000) paid checkouts cost in AWS, counted on the
 * local stack running what `cdk deploy` ships (artifact mode), at eu-west-1's list prices
 * (PRICES), beside the floor: what a paid checkout cannot avoid. Counted, after a warm-up:
 * - Lambda: each function's invocations, their CPU time and their inits' (bin/local/aws/workers.ts,
 *   each worker's own process), and its calls to AWS by operation (the edge, bin/local/usage.ts);
 *   an invocation's duration in Lambda at a memory size is its CPU stretched by Lambda's CPU
 *   share, which grows with memory to one vCPU at 1,769 MB ("Lambda function memory",
 *   configuration-memory.html), plus what its calls wait for AWS (CALL_MS) and its POSTs for the
 *   receiver (WEBHOOK_POST_MS), each kind times how much its requests overlapped (`overlap`), plus
 *   the rest of its local wall time (`otherMs`). The requests' local wall times are not used:
 *   they are DynamoDB Local's and this shared machine's, not AWS's;
 * - DynamoDB: the read and write request units the contention layer meters as DynamoDB bills
 *   them (bin/local/partition-limits.ts), stream reads by Lambda being free;
 * - API Gateway's requests, EventBridge's events and SQS's requests (bin/local/usage.ts), and
 *   CloudWatch Logs' ingestion of what the functions wrote;
 * - each function's memory chosen as AWS Lambda Power Tuning chooses it ("balanced", weight
 *   0.5: the least of cost and duration, each over its largest across MEMORY_SIZES), checked
 *   against the template's MemorySize.
 * The customers: the checkout page, its Pay, the thank-you page, on unlimited links of one
 * organization with a webhook endpoint receiving every event. Ends with one JSON line:
 * `{"cost":{"per_1000_paid_usd":…,"floor_usd":…,"ratio":…}}` (goal: ratio ≤ 1.5).
 */
import '../shared/quiet-sdk';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '../shared/auth/principal';
import { pendingCreditsOf } from '../shared/db/balance';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import { LOCAL_MERCHANT_ACCOUNT } from '../bin/local/acquirer';
import { configureTable, contentionStats } from '../bin/local/contention';
import { ensureDynamoDbLocal } from '../bin/local/dynamodb-local';
import { freePort } from '../bin/local/free-port';
import type { FunctionPoolStats } from '../bin/local/aws/workers';
import { startLocalStack } from '../bin/local/stack';
import { synthesizedArtifacts } from '../test/support/artifacts';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { runWhenMain } from './script';

const PAID = Number(process.env.BENCH_COST_PAID ?? 1_000);
const WARM_UP = Number(process.env.BENCH_COST_WARM_UP ?? 50);
const AT_ONCE = Number(process.env.BENCH_COST_AT_ONCE ?? 6);
/** How many of the places DynamoDB's units go the bench prints. */
const UNITS_SHOWN = 15;

/**
 * eu-west-1 list prices in USD. From the AWS Price List API's regional offer files
 * (pricing.us-east-1.amazonaws.com/offers/v1.0/aws/<service>/<catalog>/eu-west-1/index.json) as
 * a snapshot of 4 October 2026 quotes them: DynamoDB on-demand (catalog 20260911124422),
 * Lambda requests and x86 GB-seconds (20261001184746), API Gateway HTTP API (20261002231501),
 * CloudWatch Logs ingestion (20260922021715). Lambda's Arm GB-second is the x86 one less the 20 %
 * the Lambda pricing page gives Arm, and SQS standard and EventBridge custom events are the
 * pricing pages' rates (aws.amazon.com/sqs/pricing, /eventbridge/pricing), not read from an
 * offer file here. Free tiers are left out.
 */
export const PRICES = {
  checked: '2026-10-04',
  lambdaRequest: 0.2 / 1e6,
  lambdaArmGbSecond: 0.0000166667 * 0.8,
  dynamoWriteUnit: 0.705 / 1e6,
  dynamoReadUnit: 0.1415 / 1e6,
  apiGatewayHttpRequest: 1.11 / 1e6,
  eventBridgeEvent: 1.0 / 1e6,
  sqsRequest: 0.4 / 1e6,
  logsIngestedGb: 0.57,
} as const;

/** Lambda gives a function a vCPU at this much memory, and a share in proportion below it. */
const ONE_VCPU_MB = 1_769;
export const MEMORY_SIZES = [128, 256, 512, 768, 1_024, 1_536, 1_769, 2_048];
/** What a Lambda writes to CloudWatch Logs per invocation besides the function's own lines (START, END, REPORT), about. */
const PLATFORM_LOG_BYTES = 350;

/**
 * What a call waits for AWS from Lambda, in ms: the medians Alex DeBrie measured from Lambda
 * (alexdebrie/dynamodb-performance-testing: PutItem 7.55, BatchWriteItem of 5 items 8.14,
 * TransactWriteItems of 5 items 25.3; the last is the contention layer's hold too). Other
 * single-item DynamoDB calls, and calls to EventBridge, SQS and Secrets Manager, are taken at
 * PutItem's; a webhook's POST to a merchant's endpoint at WEBHOOK_POST_MS. Assumptions, not
 * measurements of this service in AWS.
 */
export const CALL_MS: Record<string, number> = { 'DynamoDB_20120810.TransactWriteItems': 25.3, 'DynamoDB_20120810.BatchWriteItem': 8.14 };
const OTHER_CALL_MS = 7.55;
const WEBHOOK_POST_MS = 50;

/** A function's share of the run: invocations, CPU (its own and its inits'), and what its calls waited. */
interface Usage {
  invocations: number;
  cpuMs: number;
  initCpuMs: number;
  waitMs: number;
}

/** Milliseconds Lambda would bill for `usage` at `memoryMb`: the waiting, and the CPU stretched by Lambda's share. */
export function durationAt(usage: Usage, memoryMb: number): number {
  return usage.waitMs + (usage.cpuMs + usage.initCpuMs) * Math.max(1, ONE_VCPU_MB / memoryMb);
}

/** What `calls` (by operation) wait for AWS. */
const waitOf = (calls: Record<string, number> = {}) => Object.entries(calls).reduce((sum, [target, count]) => sum + count * (CALL_MS[target] ?? OTHER_CALL_MS), 0);

/** Lambda Power Tuning's "balanced" choice (weight 0.5): the size with the least cost and duration, each over its largest. */
export function balancedMemory(usage: Usage): { memoryMb: number; table: { memoryMb: number; ms: number; usd: number }[] } {
  const table = MEMORY_SIZES.map((memoryMb) => {
    const ms = durationAt(usage, memoryMb);
    return { memoryMb, ms, usd: (ms / 1000) * (memoryMb / 1024) * PRICES.lambdaArmGbSecond };
  });
  const maxUsd = Math.max(...table.map((row) => row.usd));
  const maxMs = Math.max(...table.map((row) => row.ms));
  const score = (row: (typeof table)[number]) => 0.5 * (row.usd / maxUsd) + 0.5 * (row.ms / maxMs);
  return { memoryMb: table.reduce((best, row) => (score(row) < score(best) ? row : best)).memoryMb, table };
}

const COUNTED = ['invocations', 'billedMs', 'cpuMs', 'initCpuMs', 'awsRequestSumMs', 'awsRequestBusyMs', 'otherRequestSumMs', 'otherRequestBusyMs'] as const;
type Counted = Pick<FunctionPoolStats, (typeof COUNTED)[number]>;
const minus = (after: Counted, before: Counted | undefined) => Object.fromEntries(COUNTED.map((name) => [name, after[name] - (before?.[name] ?? 0)])) as Counted;

/**
 * How much requests of one kind overlapped in a function's environments: the time at least one
 * was in flight over the sum of their durations (1 when each waited for the last). What they wait
 * in Lambda is their modelled latencies (CALL_MS, WEBHOOK_POST_MS) times this: requests sent
 * together are billed once. The overlap is measured on local latencies (DynamoDB Local's, a local
 * receiver's) and applied to modelled ones, an approximation; AWS calls and POSTs apart, their
 * overlap with each other is not credited.
 */
const overlap = (sumMs: number, busyMs: number) => (sumMs > 0 ? Math.min(1, busyMs / sumMs) : 1);

/**
 * What Lambda bills an invocation for besides its CPU and its requests: its wall time with neither
 * (timers, the event loop, and here also the wait for a busy machine's CPU, so this errs high),
 * measured locally: the wall time less the longer of its two kinds' in-flight times and its CPU.
 */
const otherMs = (counted: Counted) => Math.max(0, counted.billedMs - Math.max(counted.awsRequestBusyMs, counted.otherRequestBusyMs) - counted.cpuMs);

const callsBetween = (after: Record<string, number> = {}, before: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries(after).map(([target, count]) => [target, count - (before[target] ?? 0)]));

const logBytes = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
const usd = (value: number) => `$${value.toFixed(4)}`;

export async function benchCost(): Promise<string[]> {
  process.env.LOG_LEVEL ??= 'INFO';
  const artifacts = await synthesizedArtifacts();
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
  const tableName = `bench-cost-${Date.now()}`;
  const logDir = mkdtempSync(join(tmpdir(), 'bench-cost-logs-'));
  delete process.env.BASE_URL;
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:', s3Port: 0, artifacts: artifacts.dir, background: true, logDir });
  const db = createDocumentClient({ endpoint });
  const receiver = await startWebhookReceiver();
  try {
    await configureTable(endpoint, tableName, { meter: true });
    const directory = createDirectory(db, tableName);
    const org = await directory.createOrganization('Cost');
    const acceptor = await directory.createAcceptor(org.id, 'Shop', LOCAL_MERCHANT_ACCOUNT);
    const user = await directory.createUser(org.id);
    const { token } = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: [...SCOPES] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${stack.baseUrl}/v1/webhook_endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, enabled_events: ['*'] }) });
    // The checkout page opens at most 100 new payments a link a minute (LIMITS.checkoutOpenings): enough links that none reaches it.
    const links = await Promise.all(
      Array.from({ length: Math.max(AT_ONCE, Math.ceil((PAID + WARM_UP) / 50)) }, async () => {
        const created = await fetch(`${stack.baseUrl}/v1/payment_links`, { method: 'POST', headers, body: JSON.stringify({ amount: { value: '30.00', currency: 'EUR' }, acceptor_id: acceptor.id }) });
        return ((await created.json()) as { links: { checkout: { href: string } } }).links.checkout.href;
      }),
    );

    /** A request as a customer's browser retries it: again after a 5xx (a cold environment over its timeout on a loaded machine). */
    const retried = async (url: string | URL, init: RequestInit) => {
      for (let attempt = 1; ; attempt++) {
        const answer = await fetch(url, init);
        if (answer.status < 500 || attempt === 5) return answer;
        await answer.text();
      }
    };
    /** One customer: the checkout page, its Pay, the thank-you page it is sent to. */
    const customer = async (href: string) => {
      const page = await retried(href, { headers: { accept: 'text/html' } });
      const cookie = page.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
      const paymentId = /name="payment_id" value="([^"]+)"/.exec(await page.text())?.[1];
      if (!paymentId) throw new Error(`the checkout page answered ${page.status} without a payment`);
      const pay = await retried(href, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: new URLSearchParams({ payment_id: paymentId, outcome: 'paid' }),
        redirect: 'manual',
      });
      if (pay.status !== 303) throw new Error(`Pay answered ${pay.status}`);
      await (await retried(new URL(pay.headers.get('location')!, href), { headers: { cookie, accept: 'text/html' } })).text();
    };
    const sale = async (count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          while (next < count) await customer(links[next++ % links.length]);
        }),
      );
    };
    const settled = async (events: number) => {
      for (const started = Date.now(); Date.now() - started < 120_000; ) {
        if ((await pendingCreditsOf(db, tableName, org.id, 'test')).length === 0 && receiver.delivered().length >= events) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('the pipeline did not settle within two minutes');
    };
    const snapshot = async () => ({
      functions: stack.aws.stats(),
      usage: stack.aws.usage(),
      ...(({ units, unitsBy }) => ({ units, unitsBy }))((await contentionStats(endpoint, tableName))!),
      logBytes: logBytes(logDir),
      delivered: receiver.delivered().length,
      posts: receiver.requests.length,
    });

    // Warm-up: every function on the path started (its init counted apart), the pipeline settled.
    await sale(WARM_UP);
    await settled(0);
    const before = await snapshot();
    const started = Date.now();
    await sale(PAID);
    const eventsPerPaid = (receiver.requests.length - before.delivered) / PAID;
    await settled(before.delivered + Math.floor(eventsPerPaid * PAID));
    const seconds = (Date.now() - started) / 1000;
    const after = await snapshot();

    // Lambda, per function, at its template's MemorySize and at the size Power Tuning would choose.
    const posts = receiver.requests.length - before.posts;
    const functions = Object.entries(after.functions)
      .map(([name, stats]) => {
        const counted = minus(stats, before.functions[name]);
        const calls = callsBetween(after.usage.calls[name], before.usage.calls[name]);
        const posting = /Deliverer/.test(name) ? posts * WEBHOOK_POST_MS : 0;
        const waitMs = waitOf(calls) * overlap(counted.awsRequestSumMs, counted.awsRequestBusyMs) + posting * overlap(counted.otherRequestSumMs, counted.otherRequestBusyMs) + otherMs(counted);
        return { name, counted, usage: { ...counted, waitMs }, memoryMb: stats.memoryMb };
      })
      .filter((fn) => fn.usage.invocations > 0);
    const lambdaUsd = functions.reduce(
      (sum, fn) => sum + fn.usage.invocations * PRICES.lambdaRequest + (durationAt(fn.usage, fn.memoryMb) / 1000) * (fn.memoryMb / 1024) * PRICES.lambdaArmGbSecond,
      0,
    );
    const units = { read: after.units.read - before.units.read, write: after.units.write - before.units.write };
    const unitsWhere = Object.entries(after.unitsBy)
      .map(([where, count]) => [where, ((count ?? 0) - (before.unitsBy[where] ?? 0)) / PAID] as const)
      .sort(([, a], [, b]) => b - a);
    const requests = {
      api: after.usage.apiRequests - before.usage.apiRequests,
      events: after.usage.eventBridgeEvents - before.usage.eventBridgeEvents,
      sqs: after.usage.sqsRequests - before.usage.sqsRequests,
    };
    const invocations = functions.reduce((sum, fn) => sum + fn.usage.invocations, 0);
    const logGb = (after.logBytes - before.logBytes + invocations * PLATFORM_LOG_BYTES) / 1024 ** 3;
    const parts = {
      lambda: lambdaUsd,
      dynamodb: units.write * PRICES.dynamoWriteUnit + units.read * PRICES.dynamoReadUnit,
      apiGateway: requests.api * PRICES.apiGatewayHttpRequest,
      eventBridge: requests.events * PRICES.eventBridgeEvent,
      sqs: requests.sqs * PRICES.sqsRequest,
      s3: 0,
      logs: logGb * PRICES.logsIngestedGb,
    };
    const per1000 = (value: number) => (value * 1000) / PAID;
    const total = per1000(Object.values(parts).reduce((sum, value) => sum + value, 0));

    // The floor, per paid checkout (FLOOR): what the contract makes it do at the least.
    const floorPerPaid = floorCost();
    const floor = Object.values(floorPerPaid).reduce((sum, value) => sum + value, 0) * 1000;

    const chosen = functions.map((fn) => ({ ...fn, choice: balancedMemory(fn.usage).memoryMb }));
    const lines = [
      `## Cost of ${PAID} paid checkouts (artifact mode, eu-west-1 list prices of ${PRICES.checked}; ${seconds.toFixed(0)} s, ${eventsPerPaid.toFixed(1)} events a paid checkout)`,
      '',
      '| part | counted | per 1,000 paid | floor per 1,000 |',
      '|---|---|---|---|',
      `| Lambda | ${invocations} invocations: CPU ${functions.reduce((sum, fn) => sum + fn.usage.cpuMs, 0).toFixed(0)} ms, waiting ${functions.reduce((sum, fn) => sum + fn.usage.waitMs, 0).toFixed(0)} ms (local wall ${functions.reduce((sum, fn) => sum + fn.counted.billedMs, 0)} ms) | ${usd(per1000(parts.lambda))} | ${usd(floorPerPaid.lambda * 1000)} |`,
      `| DynamoDB | ${units.write} WRU, ${units.read} RRU | ${usd(per1000(parts.dynamodb))} | ${usd(floorPerPaid.dynamodb * 1000)} |`,
      `| API Gateway | ${requests.api} requests | ${usd(per1000(parts.apiGateway))} | ${usd(floorPerPaid.apiGateway * 1000)} |`,
      `| EventBridge | ${requests.events} events | ${usd(per1000(parts.eventBridge))} | ${usd(floorPerPaid.eventBridge * 1000)} |`,
      `| SQS | ${requests.sqs} requests | ${usd(per1000(parts.sqs))} | ${usd(floorPerPaid.sqs * 1000)} |`,
      `| S3 | 0 requests | ${usd(0)} | ${usd(0)} |`,
      `| CloudWatch Logs | ${(logGb * 1024).toFixed(2)} MB | ${usd(per1000(parts.logs))} | ${usd(floorPerPaid.logs * 1000)} |`,
      `| total | | **${usd(total)}** | **${usd(floor)}** |`,
      '',
      '| function | invocations | local ms each: wall (AWS requests in flight, other requests in flight, CPU) | request time billed, AWS / other (in flight ÷ summed) | other time billed, ms each | MemorySize | Power Tuning (balanced) | ms each in Lambda at 128 / 512 / 1,024 / 1,769 MB |',
      '|---|---|---|---|---|---|---|---|',
      ...chosen.map((fn) => {
        const each = (ms: number) => (ms / fn.usage.invocations).toFixed(1);
        return `| ${fn.name.replace(/^PaymentOperations-/, '').replace(/NestedStack.*Resource[0-9A-F]{8}/, '')} | ${fn.usage.invocations} | ${each(fn.counted.billedMs)} (${each(fn.counted.awsRequestBusyMs)}, ${each(fn.counted.otherRequestBusyMs)}, ${each(fn.counted.cpuMs)}) | ${overlap(fn.counted.awsRequestSumMs, fn.counted.awsRequestBusyMs).toFixed(2)} / ${overlap(fn.counted.otherRequestSumMs, fn.counted.otherRequestBusyMs).toFixed(2)} | ${each(otherMs(fn.counted))} | ${fn.memoryMb} | ${fn.choice} | ${[128, 512, 1_024, 1_769].map((size) => (durationAt(fn.usage, size) / fn.usage.invocations).toFixed(1)).join(' / ')} |`;
      }),
      '',
      `Where DynamoDB's units go, per paid checkout (the ${UNITS_SHOWN} largest of ${unitsWhere.length}; \`table\` or an index, and the partition with its ids as \`*\`, its sub-partition as \`#n\`):`,
      '',
      '| units | direction, where |',
      '|---|---|',
      ...unitsWhere.slice(0, UNITS_SHOWN).map(([where, perPaid]) => `| ${perPaid.toFixed(2)} | ${where} |`),
      '',
      JSON.stringify({ cost: { per_1000_paid_usd: round(total), floor_usd: round(floor), ratio: Math.round((total / floor) * 100) / 100 } }),
    ];
    return lines;
  } finally {
    await receiver.close();
    db.destroy();
    await stack.stop();
    await dynamo.stop();
    artifacts.remove();
    if (!process.env.BENCH_KEEP_LOGS) rmSync(logDir, { recursive: true, force: true });
  }
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The write units a paid checkout cannot avoid (`floorCost`), 1 KB items: one write of each item
 * the contract keeps and one entry in each list it must show in. A page costs what §2 allows
 * whatever its filter (§18), so a filter the contract names that no key range serves is a list of
 * its own (`created[gte]`, `created[lt]` are key ranges of a list; `customer_email` is none here:
 * the bench's links collect no email).
 */
const FLOOR_WRITE_UNITS = {
  /** The payment opened, then paid; the link's count; the ledger entry; the three events: each in its transaction, twice over. */
  transactionalWrites: 7 * 2,
  /** The payment in the organization's list and its link's (§18's `payment_link`, `GET /v1/payment_links/:id/payments`), at its opening and again paid. */
  paymentLists: 2 * 2,
  /** The payment in its status's list (§5, §18's `status`): `open` at its opening, moved to `paid` (a delete and a put). */
  paymentStatusList: 1 + 2,
  /** The ledger entry in its type's and its source's lists (§15's filters); the entry itself can sit in the whole ledger's list, as no request reads one entry by its id. */
  ledgerLists: 2,
  /** Each event among the organization's events (§2). */
  eventList: 3,
  /** One record of each event's delivery (§2: `GET /v1/events/:id/deliveries`), and its place among its endpoint's recent deliveries (§14's dashboard). */
  deliveryRecords: 3 + 3,
  /** The credit in the balance (§15: `available` is the sum of the ledger): one Update of the balance for ten credits at least. */
  balanceCredit: 0.1,
};

/**
 * A paid checkout at the least the contract lets it cost, at the smallest memory (128 MB: an
 * invocation that only waits needs no more):
 * - the customer's two requests (the page, its Pay) through API Gateway to two invocations of
 *   1 ms of CPU each: the page reads the link and opens the payment with its two events
 *   (`checkout.requested`, `payment.created`: §4) in one transaction, the Pay reads the link and
 *   pays in one TransactWriteItems (§4) with its paid event;
 * - DynamoDB: `FLOOR_WRITE_UNITS` (32.1); the link read twice and the payment once, eventually
 *   consistent (the transactions' conditions guard what they read): 1.5 read units;
 * - the three events put on the bus, sent to the endpoint's queue, and delivered ten to a batch
 *   (a tenth of a receive, a delete and an invocation each, its POST), the ten at once;
 * - no logs beyond Lambda's own lines.
 */
function floorCost() {
  const invocation = (usage: Usage) => PRICES.lambdaRequest + (durationAt(usage, 128) / 1000) * (128 / 1024) * PRICES.lambdaArmGbSecond;
  const page = invocation({ invocations: 1, cpuMs: 1, initCpuMs: 0, waitMs: OTHER_CALL_MS + CALL_MS['DynamoDB_20120810.TransactWriteItems'] });
  const pay = invocation({ invocations: 1, cpuMs: 1, initCpuMs: 0, waitMs: OTHER_CALL_MS + CALL_MS['DynamoDB_20120810.TransactWriteItems'] });
  const deliveries = 0.3 * invocation({ invocations: 1, cpuMs: 1, initCpuMs: 0, waitMs: WEBHOOK_POST_MS + OTHER_CALL_MS });
  return {
    lambda: page + pay + deliveries,
    dynamodb: Object.values(FLOOR_WRITE_UNITS).reduce((sum, units) => sum + units, 0) * PRICES.dynamoWriteUnit + 1.5 * PRICES.dynamoReadUnit,
    apiGateway: 2 * PRICES.apiGatewayHttpRequest,
    eventBridge: 3 * PRICES.eventBridgeEvent,
    sqs: 3 * 1.2 * PRICES.sqsRequest,
    logs: (2.3 * PLATFORM_LOG_BYTES * PRICES.logsIngestedGb) / 1024 ** 3,
  };
}

runWhenMain(module, benchCost);
