/**
 * `npm run bench:flash-sale`: flash sales against what `cdk deploy` ships (artifact mode: the
 * checkout function's bundle in worker processes, LAMBDA_MAX_WORKERS at most, every table call
 * through the contending local DynamoDB), with the payers in processes of their own
 * (`bench/flash-sale-payers.ts`), measured beside floors taken in the same run:
 * 1. one merchant vs many: PAYERS payers over LINKS links of one organization, against the same
 *    payers over LINKS links of LINKS organizations (each link limited to its share of payers,
 *    so every payer is paid and a link sold past its limit shows); the ratio of paid per second
 *    says whether one organization's payments wait on each other;
 * 2. the hot limited link: HOT_PAYERS payers on one link limited to HOT_LIMIT: exactly the limit
 *    paid, every request answered within the function's timeout, and paid per second beside
 *    what the uncontended path can answer: the many organizations' rate, at which the hot sale's
 *    payers, each answered once, would take HOT_PAYERS / that rate (a ceiling of
 *    `many_orgs_per_s × HOT_LIMIT / HOT_PAYERS` paid/s);
 * 3. the hot unlimited link: HOT_PAYERS payers on one unlimited link, all paid, its count on its
 *    shards (decisions 69): paid per second beside the uncontended sale of 1;
 * 4. the partitions: the sales of 1 again with DynamoDB's partition limits scaled down
 *    (bin/local/partition-limits.ts) to DYNAMODB_PARTITION_SCALE, by default the uncontended
 *    rate over 1,000: the one organization then asks of its partitions what 1,000 paid/s ask in
 *    AWS, and the sub-partitioned lists (docs/architecture.md, Capacity) must carry it.
 * Ends with one JSON line: {"flash_sale": {...}, "hot_link": {...}, "hot_unlimited_link": {...}, "partitions": {...}}.
 */
import '../shared/quiet-sdk';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pendingCreditsOf, readBalance } from '../shared/db/balance';
import { createDocumentClient } from '../shared/db/client';
import * as keys from '../shared/db/keys';
import { scopeOf } from '../shared/db/entities';
import { queryMerged } from '../shared/db/query-all';
import { INDEXES } from '../shared/db/table';
import { configureTable, contentionStats } from '../bin/local/contention';
import { freePort } from '../bin/local/free-port';
import { PARTITION_SCALE_VARIABLE, partitionScaleFrom, PARTITION_LIMITS } from '../bin/local/partition-limits';
import { startLocalStack } from '../bin/local/stack';
import { functionOfRoute, readSynthesizedStack } from '../bin/local/aws/template';
import { synthesizedArtifacts } from '../test/support/artifacts';
import { seedOrganization } from './api';
import type { PayersResult, PayersShare } from './flash-sale-payers';
import { runWhenMain } from './script';

const PAYERS = Number(process.env.BENCH_FLASH_PAYERS ?? 1000);
const LINKS = Number(process.env.BENCH_FLASH_LINKS ?? 20);
const HOT_PAYERS = Number(process.env.BENCH_HOT_PAYERS ?? 500);
const HOT_LIMIT = Number(process.env.BENCH_HOT_LIMIT ?? 100);
const WORKERS = Number(process.env.LAMBDA_MAX_WORKERS ?? 16);
/** Payer processes, and payers at once in each. */
const PROCESSES = Number(process.env.BENCH_PAYER_PROCESSES ?? 4);
const AT_ONCE = Number(process.env.BENCH_PAYERS_AT_ONCE ?? 25);
const CHECKOUT_ROUTE = 'POST /v1/test_helpers/payment_links/{id}/checkout';

interface Sale {
  answers: Record<string, number>;
  seconds: number;
  paid: number;
  slowestMs: number;
}

/** A sale's checkouts dealt out to PROCESSES payer processes; its time runs from the first request to the last answer. */
async function sell(baseUrl: string, checkouts: PayersShare['checkouts']): Promise<Omit<Sale, 'paid'>> {
  const shares = Array.from({ length: PROCESSES }, (_, index) => checkouts.filter((_checkout, i) => i % PROCESSES === index));
  const results = await Promise.all(shares.map((share) => payerProcess({ baseUrl, checkouts: share, concurrency: AT_ONCE })));
  const answers: Record<string, number> = {};
  for (const result of results) for (const [answer, count] of Object.entries(result.answers)) answers[answer] = (answers[answer] ?? 0) + count;
  const seconds = (Math.max(...results.map((result) => result.lastMs)) - Math.min(...results.map((result) => result.firstMs))) / 1000;
  return { answers, seconds, slowestMs: Math.max(...results.map((result) => result.slowestMs)) };
}

function payerProcess(share: PayersShare): Promise<PayersResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'flash-sale-payers.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as PayersResult) : reject(new Error(`a payer process exited with ${code}`))));
    child.stdin.end(JSON.stringify(share));
  });
}

/**
 * How long after the sale's last answer every credit of these organizations is in its balance
 * (the outbox processor rolls them in: product-decisions §15), checking that each balance is then
 * the sum of its ledger.
 */
async function untilCredited(db: DynamoDBDocumentClient, tableName: string, orgIds: string[]): Promise<number> {
  const start = Date.now();
  for (;;) {
    const pending = await Promise.all(orgIds.map((orgId) => pendingCreditsOf(db, tableName, orgId, 'test')));
    if (pending.every((credits) => credits.length === 0)) break;
    if (Date.now() - start > 60_000) throw new Error('credits still pending a minute after the sale');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const waited = Date.now() - start;
  for (const orgId of orgIds) {
    const ledger = await queryMerged(
      db,
      keys.balanceTransactionList(scopeOf(orgId, 'test')),
      (partition) => ({ TableName: tableName, IndexName: INDEXES.gsi1.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk }, ExpressionAttributeValues: { ':pk': partition } }),
      { sortKey: INDEXES.gsi1.sk },
    );
    const sum = ledger.reduce((total, entry) => total + (entry.amountMinor as number), 0);
    const available = await readBalance(db, tableName, { orgId, mode: 'test', currency: 'EUR' });
    if (available !== sum) throw new Error(`${orgId}: available ${available} is not the sum of its ledger, ${sum}`);
  }
  return waited;
}

async function main(): Promise<string[]> {
  const artifacts = await synthesizedArtifacts();
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const tableName = 'bench-flash-sale';
  delete process.env.BASE_URL;
  // The functions' request lines go to their own files, as to their log groups in AWS.
  const logDir = mkdtempSync(join(tmpdir(), 'bench-flash-sale-logs-'));
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:', artifacts: artifacts.dir, maxWorkersPerFunction: WORKERS, logDir });
  try {
    const db = createDocumentClient({ endpoint });
    const createLink = async (merchant: Awaited<ReturnType<typeof seedOrganization>>, limit: number | null) => {
      const answer = await fetch(`${stack.baseUrl}/v1/payment_links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptor.id, payments_limit: limit }),
      });
      return { linkId: ((await answer.json()) as { id: string }).id, token: merchant.token, orgId: merchant.org.id };
    };
    const linkAfter = async (linkId: string) =>
      (await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(linkId), ConsistentRead: true }))).Item as { paidCount: number; paymentsLimit: number };
    /** PAYERS checkouts dealt round-robin over `links`, each limited to its share. */
    const saleOver = async (links: Awaited<ReturnType<typeof createLink>>[]): Promise<Sale & { oversold: number; creditedAfterMs: number }> => {
      const checkouts = Array.from({ length: PAYERS }, (_, i) => links[i % links.length]);
      const sale = await sell(stack.baseUrl, checkouts);
      const creditedAfterMs = await untilCredited(db, tableName, [...new Set(links.map((link) => link.orgId))]);
      const after = await Promise.all(links.map((link) => linkAfter(link.linkId)));
      return {
        ...sale,
        creditedAfterMs,
        paid: after.reduce((sum, link) => sum + link.paidCount, 0),
        oversold: after.reduce((sum, link) => sum + Math.max(0, link.paidCount - link.paymentsLimit), 0),
      };
    };
    const share = Math.ceil(PAYERS / LINKS);
    const oneOrganization = async () => {
      const merchant = await seedOrganization(db, tableName, 0);
      return saleOver(await Promise.all(Array.from({ length: LINKS }, () => createLink(merchant, share))));
    };
    const manyOrganizations = async () => {
      const merchants = await Promise.all(Array.from({ length: LINKS }, () => seedOrganization(db, tableName, 0)));
      return saleOver(await Promise.all(merchants.map((merchant) => createLink(merchant, share))));
    };

    // Warm the checkout's environments and the payers' connections before anything is timed.
    await manyOrganizations();
    const many = await manyOrganizations();
    const one = await oneOrganization();

    const hotMerchant = await seedOrganization(db, tableName, 0);
    const hot = await createLink(hotMerchant, HOT_LIMIT);
    const hotSale = { ...(await sell(stack.baseUrl, Array.from({ length: HOT_PAYERS }, () => hot))), paid: (await linkAfter(hot.linkId)).paidCount };
    const unlimited = await createLink(hotMerchant, null);
    const unlimitedSale = await sell(stack.baseUrl, Array.from({ length: HOT_PAYERS }, () => unlimited));
    // Its count is on its shards: the API sums them.
    const unlimitedAfter = await fetch(`${stack.baseUrl}/v1/payment_links/${unlimited.linkId}`, { headers: { authorization: `Bearer ${unlimited.token}` } });
    const hotUnlimited = { ...unlimitedSale, paid: ((await unlimitedAfter.json()) as { paid_count: number }).paid_count };

    // The same sales of 1 with every partition of the table at `scale` of DynamoDB's limits.
    const scale = partitionScaleFrom() || Math.round((perSecond(many) / PARTITION_LIMITS.writeUnits) * 10_000) / 10_000;
    const throttled = async () => Object.values((await contentionStats(endpoint, tableName))!.throttled).reduce((sum, count) => sum + count, 0);
    await configureTable(endpoint, tableName, { partitionScale: scale });
    const throttledBefore = await throttled();
    const manyLimited = await manyOrganizations();
    const oneLimited = await oneOrganization();
    const throttledDuring = (await throttled()) - throttledBefore;
    await configureTable(endpoint, tableName, { partitionScale: 0 });

    const { resources } = readSynthesizedStack(artifacts.dir);
    const checkoutFunction = functionOfRoute(resources, CHECKOUT_ROUTE);
    const timeoutMs = Number(resources[checkoutFunction].Properties!.Timeout) * 1000;
    const slowestInvocation = slowestInvocationMs(logDir, checkoutFunction);
    const ceiling = (perSecond(many) * HOT_LIMIT) / HOT_PAYERS;
    const answers = (sale: Omit<Sale, 'paid'>) =>
      Object.entries(sale.answers)
        .sort()
        .map(([answer, count]) => `${count}× ${answer}`)
        .join(', ');
    const result = {
      flash_sale: {
        one_org_per_s: round(perSecond(one)),
        many_orgs_per_s: round(perSecond(many)),
        ratio: round(perSecond(one) / perSecond(many)),
        oversold: one.oversold + many.oversold,
      },
      hot_link: { paid: hotSale.paid, paid_per_s: round(perSecond(hotSale)), ceiling_per_s: round(ceiling), ratio: round(perSecond(hotSale) / ceiling) },
      hot_unlimited_link: { paid: hotUnlimited.paid, paid_per_s: round(perSecond(hotUnlimited)), ratio: round(perSecond(hotUnlimited) / perSecond(many)) },
      partitions: {
        scale,
        one_org_per_s: round(perSecond(oneLimited)),
        many_orgs_per_s: round(perSecond(manyLimited)),
        ratio: round(perSecond(oneLimited) / perSecond(manyLimited)),
        throttled: throttledDuring,
      },
    };
    const lines = [
      `## Flash sales (artifact mode, ≤ ${WORKERS} checkout environments, ${PROCESSES} payer processes × ${AT_ONCE} at once, contending DynamoDB Local)`,
      '',
      '| sale | paid/s | paid | answers | slowest request |',
      '|---|---|---|---|---|',
      `| ${PAYERS} payers over ${LINKS} links of 1 organization | ${perSecond(one).toFixed(1)} | ${one.paid} | ${answers(one)} | ${(one.slowestMs / 1000).toFixed(1)} s |`,
      `| ${PAYERS} payers over ${LINKS} links of ${LINKS} organizations | ${perSecond(many).toFixed(1)} | ${many.paid} | ${answers(many)} | ${(many.slowestMs / 1000).toFixed(1)} s |`,
      `| ${HOT_PAYERS} payers on 1 link limited to ${HOT_LIMIT} | ${perSecond(hotSale).toFixed(1)} | ${hotSale.paid} | ${answers(hotSale)} | ${(hotSale.slowestMs / 1000).toFixed(1)} s |`,
      `| ${HOT_PAYERS} payers on 1 unlimited link | ${perSecond(hotUnlimited).toFixed(1)} | ${hotUnlimited.paid} | ${answers(hotUnlimited)} | ${(hotUnlimited.slowestMs / 1000).toFixed(1)} s |`,
      `| partitions at ${scale} of DynamoDB's (${PARTITION_SCALE_VARIABLE}): ${PAYERS} payers over ${LINKS} links of 1 organization | ${perSecond(oneLimited).toFixed(1)} | ${oneLimited.paid} | ${answers(oneLimited)} | ${(oneLimited.slowestMs / 1000).toFixed(1)} s |`,
      `| partitions at ${scale}: ${PAYERS} payers over ${LINKS} links of ${LINKS} organizations | ${perSecond(manyLimited).toFixed(1)} | ${manyLimited.paid} | ${answers(manyLimited)} | ${(manyLimited.slowestMs / 1000).toFixed(1)} s |`,
      '',
      `At ${scale} of DynamoDB's partition limits (${round(PARTITION_LIMITS.writeUnits * scale)} WCU/s and ${round(PARTITION_LIMITS.readUnits * scale)} RCU/s a partition) the layer throttled ${throttledDuring} requests.`,
      `Every credit in its balance (= the sum of its ledger) ${one.creditedAfterMs} ms after the one-organization sale's last answer, ${many.creditedAfterMs} ms after the twenty organizations'.`,
      // What this machine's whole checkout path carries with no item shared (each payer on a link and balance of its own organization's):
      // at that rate the hot sale's payers, each answered once, set the most the hot link could be paid per second here.
      `The checkout path uncontended (${LINKS} organizations) answers ${perSecond(many).toFixed(1)} payers/s; at that rate the hot sale's ${HOT_PAYERS} payers would take ${(HOT_PAYERS / perSecond(many)).toFixed(1)} s: a ceiling of ${ceiling.toFixed(1)} paid/s here, of which the hot link reached ${(perSecond(hotSale) / ceiling).toFixed(2)}.`,
      `Function timeout ${timeoutMs / 1000} s; the checkout's slowest invocation ${(slowestInvocation / 1000).toFixed(1)} s (a payer's "slowest request" adds its wait for one of ${WORKERS} local environments). The functions' logs: ${logDir}.`,
      JSON.stringify(result),
    ];
    if (result.flash_sale.oversold !== 0 || oneLimited.oversold + manyLimited.oversold !== 0 || hotSale.paid !== HOT_LIMIT || hotUnlimited.paid !== HOT_PAYERS) throw new Error(`${lines.join('\n')}\na sale sold past its limit or short of it (or an unlimited link's payer went unpaid)`);
    // An invocation the timeout ends writes no request line: its payer's answer is the gateway's 5xx.
    const failed = [one, many, hotSale, hotUnlimited, oneLimited, manyLimited].flatMap((sale) => Object.keys(sale.answers).filter((answer) => /^5\d\d$/.test(answer)));
    if (slowestInvocation > timeoutMs || failed.length > 0) throw new Error(`${lines.join('\n')}\nan invocation ran past the function timeout or failed (${failed.join(', ') || 'none'})`);
    return lines;
  } finally {
    await stack.stop();
    artifacts.remove();
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
const perSecond = (sale: Sale) => sale.paid / sale.seconds;

/**
 * The slowest invocation of a function, from its request lines (`latencyMs`, measured inside the
 * function): what the function timeout bounds. A payer's own wait also counts the time its
 * request queued for one of the LAMBDA_MAX_WORKERS local environments, where Lambda would have
 * started more.
 */
function slowestInvocationMs(logDir: string, logicalId: string): number {
  const file = readdirSync(logDir).find((name) => name.endsWith(`${logicalId}.log`));
  if (!file) throw new Error(`no log of ${logicalId} in ${logDir}`);
  const latencies = readFileSync(join(logDir, file), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"message":"request"'))
    .map((line) => (JSON.parse(line) as { latencyMs?: number }).latencyMs ?? 0);
  if (latencies.length === 0) throw new Error(`no request line of ${logicalId} in ${logDir}`);
  return Math.max(...latencies);
}

runWhenMain(module, main);
