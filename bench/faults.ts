/**
 * `npm run bench:faults`: the service against what `cdk deploy` ships (artifact mode), with the
 * faults of `FAULTS` on (bin/local/faults.ts; by default DEFAULT_PLAN), under a mixed workload
 * for BENCH_FAULTS_SECONDS (180): in each of BENCH_FAULTS_ORGS (2) organizations, customers
 * paying limited and unlimited links in test and live mode (the checkout page, its Pay, the
 * local Adyen's hosted form), the merchant refunding, cancelling refunds, and answering
 * chargebacks (test mode's test helper, live mode's disputes raised at the local Adyen), and a
 * webhook endpoint per organization and mode receiving every event. The service is restarted
 * once in the middle (`stack.restart`). Then a quiet period with the faults off, at most
 * BENCH_FAULTS_QUIET_SECONDS (240), until every credit is rolled, every owed capture and cancel
 * taken, every refund settled and every event delivered. Then the invariants, from the API and
 * the table:
 * - oversold: a limited link with more paid payments than its limit;
 * - double_captures: a live payment Adyen authorised and captured more than once;
 * - uncaptured: one authorised and neither captured nor cancelled;
 * - ledger_mismatches: a balance (organization, mode, currency) not the sum of its ledger;
 * - over_refunded: a payment refunded or charged back beyond its amount;
 * - events_lost: an event not delivered to its endpoint, or delivered under another webhook-id;
 * - stuck_open: an open payment past its expiry, or without the due entry that expires it;
 * - unresolved_5xx: a 5xx (or a dropped connection) a client saw that its retries, with the same
 *   Idempotency-Key or the same form, never turned into an answer.
 * It ends with one JSON line, `{"faults":{"injected":{…},"requests":n,…}}`, and exits 1 when any
 * count but `injected` and `requests` is above zero.
 */
import '../shared/quiet-sdk';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES, type Mode } from '../shared/auth/principal';
import { pendingCreditsOf, readBalance } from '../shared/db/balance';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import { scopeOf } from '../shared/db/entities';
import * as keys from '../shared/db/keys';
import { queryMerged } from '../shared/db/query-all';
import { INDEXES } from '../shared/db/table';
import { LOCAL_MERCHANT_ACCOUNT } from '../bin/local/acquirer';
import { contentionStats } from '../bin/local/contention';
import { ensureDynamoDbLocal } from '../bin/local/dynamodb-local';
import { addCounts, faultPlanFrom, faultsOf, type FaultPlan, type Faults } from '../bin/local/faults';
import { freePort } from '../bin/local/free-port';
import { startLocalStack, type LocalStack } from '../bin/local/stack';
import { synthesizedArtifacts } from '../test/support/artifacts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver';
import { runWhenMain } from './script';

const SECONDS = Number(process.env.BENCH_FAULTS_SECONDS ?? 180);
const QUIET_SECONDS = Number(process.env.BENCH_FAULTS_QUIET_SECONDS ?? 240);
const ORGS = Number(process.env.BENCH_FAULTS_ORGS ?? 2);
/** Customers paying at once, per organization and mode. */
const PAYERS = Number(process.env.BENCH_FAULTS_PAYERS ?? 3);
const LIMIT = 25;

/**
 * The faults of a run when FAULTS sets none: every kind, at rates that make each happen many
 * times in a few minutes without drowning the workload; a function runs to its timeout a few
 * times at most (each costs its timeout), and the service restarts once.
 */
export const DEFAULT_PLAN: FaultPlan = {
  seed: 39,
  rates: {
    'dynamodb.provisioned-throughput': 0.005,
    'dynamodb.throttling': 0.01,
    'dynamodb.internal-error': 0.005,
    'dynamodb.lost-answer': 0.005,
    'lambda.kill': 0.005,
    'lambda.timeout': 0.002,
    'stream.redelivery': 0.05,
    'sqs.redelivery': 0.05,
    'adyen.error': 0.05,
    'adyen.timeout': 0.03,
    'adyen.duplicate-notification': 0.1,
    'adyen.reordered-notification': 0.1,
    'receiver.failure': 0.05,
    'receiver.hang': 0.01,
    'stack.restart': 1,
  },
  limits: { 'lambda.timeout': 4, 'stack.restart': 1 },
};

const CARD = { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' };

interface Counts {
  requests: number;
  /** 5xx answers (or dropped connections) seen, and those a retry never resolved. */
  fivexx: number;
  unresolved: number;
}

/**
 * An HTTP client that retries what a careful client retries, the same request again (same
 * Idempotency-Key, same form): a 5xx or a dropped connection, with backoff, and a 409 that says
 * the key's first request is still in flight; until `deadline()`.
 */
function httpClient(counts: Counts, deadline: () => number) {
  return async function send(url: string, init: RequestInit = {}): Promise<Response> {
    let failed = false;
    for (let attempt = 1; ; attempt++) {
      counts.requests++;
      let answer: Response | undefined;
      try {
        answer = await fetch(url, { ...init, redirect: 'manual' });
      } catch {
        answer = undefined;
      }
      const serverFault = !answer || answer.status >= 500;
      if (serverFault && !failed) {
        failed = true;
        counts.fivexx++;
      }
      const inFlight = answer?.status === 409 && (await answer.clone().text()).includes('still in progress');
      if (answer && !serverFault && !inFlight) return answer;
      if (Date.now() > deadline()) {
        if (serverFault) counts.unresolved++;
        if (answer) return answer;
        throw new Error(`${init.method ?? 'GET'} ${url}: no answer`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5)) * Math.random() + 50));
    }
  };
}

type Send = ReturnType<typeof httpClient>;

interface Org {
  id: string;
  acceptorId: string;
  tokens: Record<Mode, string>;
  links: { id: string; mode: Mode; limit: number | null; href: string }[];
  receivers: Record<Mode, WebhookReceiver>;
  /** Paid payments seen, by mode. */
  paid: Record<Mode, string[]>;
}

async function setUp(stack: LocalStack, db: DynamoDBDocumentClient, tableName: string, send: Send, receiverFaults: Faults): Promise<Org> {
  const directory = createDirectory(db, tableName);
  const org = await directory.createOrganization(`Faults ${randomUUID().slice(0, 6)}`);
  const acceptor = await directory.createAcceptor(org.id, 'Shop', LOCAL_MERCHANT_ACCOUNT);
  const user = await directory.createUser(org.id);
  const tokens = {
    test: (await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: [...SCOPES] })).token,
    live: (await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'live', scopes: [...SCOPES] })).token,
  };
  const receivers = { test: await startWebhookReceiver(receiverFaults), live: await startWebhookReceiver(receiverFaults) };
  const links: Org['links'] = [];
  for (const mode of ['test', 'live'] as const) {
    const headers = { authorization: `Bearer ${tokens[mode]}`, 'content-type': 'application/json' };
    await send(`${stack.baseUrl}/v1/webhook_endpoints`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify({ url: receivers[mode].url, enabled_events: ['*'] }) });
    for (const limit of [LIMIT, null]) {
      const created = await send(`${stack.baseUrl}/v1/payment_links`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ amount: { value: '20.00', currency: 'EUR' }, acceptor_id: acceptor.id, ...(limit ? { payments_limit: limit } : {}) }),
      });
      const link = (await created.json()) as { id: string; links: { checkout: { href: string } } };
      links.push({ id: link.id, mode, limit, href: link.links.checkout.href });
    }
  }
  return { id: org.id, acceptorId: acceptor.id, tokens, links, receivers, paid: { test: [], live: [] } };
}

/** One customer on one link: the checkout page, Pay, and in live mode the local Adyen's hosted form; the payment's id when it went through. */
async function customer(send: Send, link: Org['links'][number]): Promise<string | undefined> {
  const page = await send(link.href, { headers: { accept: 'text/html' } });
  if (page.status !== 200) return undefined;
  const cookie = page.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  const paymentId = /name="payment_id" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!paymentId) return undefined;
  const form = { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: new URLSearchParams({ payment_id: paymentId, outcome: 'paid' }).toString() };
  const pay = await send(link.href, form);
  if (pay.status !== 303) return undefined;
  if (link.mode === 'test') return paymentId;
  const hosted = pay.headers.get('location');
  if (!hosted?.includes('/checkoutshopper/')) return undefined;
  const back = await send(hosted, { method: 'POST', body: new URLSearchParams(CARD).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  return back.status === 303 ? paymentId : undefined;
}

/** What the merchants did that went through. */
const moves = { refunds: 0, refund_cancels: 0, chargebacks: 0, chargeback_answers: 0 };

/** The merchant's side, once: a refund of a paid payment (sometimes cancelled at once), or a chargeback answered. */
async function merchantMove(stack: LocalStack, send: Send, org: Org, mode: Mode, step: number) {
  const paid = org.paid[mode];
  if (paid.length === 0) return;
  const paymentId = paid[step % paid.length];
  const post = (path: string, body: unknown) =>
    send(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.tokens[mode]}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
  if (step % 3 !== 2) {
    const refund = await post(`/v1/payments/${paymentId}/refunds`, { amount: { value: '3.00', currency: 'EUR' } });
    if (refund.status !== 201) return;
    moves.refunds++;
    if (step % 2 === 0 && (await post(`/v1/refunds/${((await refund.json()) as { id: string }).id}/cancel`, {})).status === 200) moves.refund_cancels++;
    return;
  }
  if (mode === 'test') {
    const opened = await post(`/v1/test_helpers/payments/${paymentId}/chargebacks`, { amount: { value: '5.00', currency: 'EUR' } });
    if (opened.status !== 201) return;
    moves.chargebacks++;
    const chargebackId = ((await opened.json()) as { id: string }).id;
    const answered = await post(`/v1/chargebacks/${chargebackId}/${step % 2 ? 'accept' : 'dispute'}`, step % 2 ? {} : { evidence: { product_description: 'Delivered as described.' } });
    if (answered.status === 200) moves.chargeback_answers++;
    return;
  }
  const payment = (await (await send(`${stack.baseUrl}/v1/payments/${paymentId}`, { headers: { authorization: `Bearer ${org.tokens.live}` } })).json()) as { acquirer_reference?: string };
  if (!payment.acquirer_reference) return;
  const raised = await send(`${stack.acquirer.url}/_test/chargebacks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pspReference: payment.acquirer_reference }) });
  if (raised.status === 201) moves.chargebacks++;
}

/** Every item of a list (all its pages), through the API. */
async function everything<T>(stack: LocalStack, send: Send, token: string, path: string): Promise<T[]> {
  const all: T[] = [];
  for (let cursor = ''; ; ) {
    const page = (await (await send(`${stack.baseUrl}${path}${path.includes('?') ? '&' : '?'}limit=100${cursor}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: (T & { id: string })[]; has_more: boolean };
    all.push(...page.data);
    if (!page.has_more) return all;
    cursor = `&starting_after=${page.data.at(-1)!.id}`;
  }
}

interface Payment {
  id: string;
  status: string;
  payment_link_id: string;
  amount: { value: string };
  amount_refunded: { value: string };
  amount_chargedback: { value: string };
  acquirer_reference: string | null;
  mode: Mode;
}

async function invariants(stack: LocalStack, db: DynamoDBDocumentClient, tableName: string, send: Send, orgs: Org[]) {
  const found = { oversold: 0, double_captures: 0, uncaptured: 0, ledger_mismatches: 0, over_refunded: 0, events_lost: 0, stuck_open: 0 };
  const minor = (value: string) => Math.round(Number(value) * 100);
  for (const org of orgs) {
    for (const mode of ['test', 'live'] as const) {
      const token = org.tokens[mode];
      const payments = await everything<Payment>(stack, send, token, '/v1/payments');
      for (const link of org.links.filter((candidate) => candidate.mode === mode && candidate.limit !== null)) {
        if (payments.filter((payment) => payment.payment_link_id === link.id && payment.status === 'paid').length > link.limit!) found.oversold++;
      }
      for (const payment of payments) {
        if (minor(payment.amount_refunded.value) + minor(payment.amount_chargedback.value) > minor(payment.amount.value)) found.over_refunded++;
        if (payment.status === 'open') {
          const item = (await db.send(new GetCommand({ TableName: tableName, Key: keys.payment(payment.id), ConsistentRead: true }))).Item;
          const idleSince = Date.parse(String(item?.lastActivityAt ?? item?.createdAt));
          if (item?.[INDEXES.due.pk] === undefined || Date.now() - idleSince > 30 * 60_000 + 120_000) found.stuck_open++;
        }
      }
      // Adyen's books: every authorisation captured exactly once (its amount), or cancelled.
      if (mode === 'live') {
        for (const payment of payments.filter((candidate) => candidate.acquirer_reference)) {
          const state = (await (await send(`${stack.acquirer.url}/_test/payments/${payment.acquirer_reference}`)).json()) as { status: string; captured: number; amount: { value: number } };
          if (state.status !== 'authorised') continue;
          if (state.captured > state.amount.value) found.double_captures++;
          else if (state.captured < state.amount.value) found.uncaptured++;
        }
      }
      const balance = (await readBalance(db, tableName, { orgId: org.id, mode, currency: 'EUR' })) ?? 0;
      const ledger = await queryMerged(
        db,
        keys.balanceTransactionList(scopeOf(org.id, mode)),
        (partition) => ({ TableName: tableName, IndexName: INDEXES.gsi1.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk }, ExpressionAttributeValues: { ':pk': partition } }),
        { sortKey: INDEXES.gsi1.sk },
      );
      if (balance !== ledger.reduce((sum, entry) => sum + (entry.amountMinor as number), 0)) found.ledger_mismatches++;
      const events = await everything<{ id: string }>(stack, send, token, '/v1/events');
      const receiver = org.receivers[mode];
      for (const event of events) {
        const requests = receiver.requests.filter((request) => request.envelope?.id === event.id);
        if (!requests.some((request) => request.answeredWith !== undefined && request.answeredWith < 300) || requests.some((request) => request.headers['webhook-id'] !== event.id)) found.events_lost++;
      }
    }
  }
  return found;
}

/** Waits for the pipeline to settle, the minute jobs running meanwhile: no credit pending, no refund or command still owed, every event delivered. */
async function quietPeriod(stack: LocalStack, db: DynamoDBDocumentClient, tableName: string, send: Send, orgs: Org[]) {
  const until = Date.now() + QUIET_SECONDS * 1000;
  const settled = async () => {
    for (const org of orgs) {
      for (const mode of ['test', 'live'] as const) {
        if ((await pendingCreditsOf(db, tableName, org.id, mode)).length > 0) return false;
        const events = await everything<{ id: string }>(stack, send, org.tokens[mode], '/v1/events');
        const delivered = new Set(org.receivers[mode].delivered().map((request) => request.envelope?.id));
        if (events.some((event) => !delivered.has(event.id))) return false;
      }
    }
    const owed = await db.send(new QueryCommand({ TableName: tableName, IndexName: INDEXES.due.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.due.pk }, ExpressionAttributeValues: { ':pk': keys.acquirerCommandsDue }, Limit: 1 }));
    const processing = await db.send(new QueryCommand({ TableName: tableName, IndexName: INDEXES.due.name, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': INDEXES.due.pk }, ExpressionAttributeValues: { ':pk': keys.refundProcessingDue }, Limit: 1 }));
    return (owed.Items ?? []).length === 0 && (processing.Items ?? []).length === 0;
  };
  while (Date.now() < until) {
    await stack.runMinuteJobs();
    if (await settled()) return (QUIET_SECONDS * 1000 - (until - Date.now())) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return QUIET_SECONDS;
}

export async function benchFaults(): Promise<string[]> {
  process.env.LOG_LEVEL ??= 'ERROR';
  const plan = faultPlanFrom() ?? DEFAULT_PLAN;
  const artifacts = await synthesizedArtifacts();
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  // In memory; the data folder keeps what the service keeps across its restart (queues, the streams' places).
  const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-faults-'));
  const tableName = `bench-faults-${Date.now()}`;
  delete process.env.BASE_URL;
  const stack = await startLocalStack({
    port: await freePort(),
    dynamodbEndpoint: endpoint,
    tableName,
    dataDir,
    s3Port: 0,
    artifacts: artifacts.dir,
    background: true,
    logDir: join(dataDir, 'logs'),
    faults: { seed: plan.seed, rates: {} },
  });
  const db = createDocumentClient({ endpoint });
  const counts: Counts = { requests: 0, fivexx: 0, unresolved: 0 };
  let deadline = Date.now() + (SECONDS + QUIET_SECONDS) * 1000;
  const send = httpClient(counts, () => deadline);
  const receiverFaults = faultsOf(undefined, 'receivers');
  const restarts = faultsOf(plan, 'stack');
  const orgs: Org[] = [];
  let broken = false;
  try {
    for (let i = 0; i < ORGS; i++) orgs.push(await setUp(stack, db, tableName, send, receiverFaults));
    // The run: faults on.
    await stack.setFaults(plan);
    receiverFaults.replan(plan);
    const runEnds = Date.now() + SECONDS * 1000;
    const restartAt = Date.now() + SECONDS * 1000 * (0.3 + 0.4 * restarts.draw());
    let restarted: Promise<void> | undefined;
    const running = () => Date.now() < runEnds;
    const payers = orgs.flatMap((org) =>
      (['test', 'live'] as const).flatMap((mode) =>
        Array.from({ length: PAYERS }, async (_, payer) => {
          for (let n = payer; running(); n++) {
            const links = org.links.filter((link) => link.mode === mode);
            const paymentId = await customer(send, links[n % links.length]).catch(() => undefined);
            if (paymentId) org.paid[mode].push(paymentId);
            if (!restarted && Date.now() > restartAt && restarts.strikes('stack.restart')) restarted = stack.restart();
            await restarted;
          }
        }),
      ),
    );
    const merchants = orgs.flatMap((org) =>
      (['test', 'live'] as const).map(async (mode) => {
        for (let step = 0; running(); step++) {
          await merchantMove(stack, send, org, mode, step).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
        }
      }),
    );
    await Promise.all([...payers, ...merchants]);
    await restarted;
    // The quiet period: faults off, the pipeline left to settle.
    await stack.setFaults(undefined);
    receiverFaults.replan(undefined);
    deadline = Date.now() + QUIET_SECONDS * 1000;
    const quietSeconds = await quietPeriod(stack, db, tableName, send, orgs);
    const found = await invariants(stack, db, tableName, send, orgs);
    const injected = addCounts((await contentionStats(endpoint, tableName))?.faults ?? {}, stack.faults(), receiverFaults.injected(), restarts.injected());
    const paid = orgs.reduce((sum, org) => sum + org.paid.test.length + org.paid.live.length, 0);
    const result = { faults: { injected, requests: counts.requests, unresolved_5xx: counts.unresolved, ...found } };
    const lines = [
      `${SECONDS} s with faults, then ${Math.round(quietSeconds)} s of quiet; ${paid} payments paid, ${counts.requests} requests, ${counts.fivexx} of them answered 5xx or dropped first; the merchants: ${Object.entries(moves).map(([move, count]) => `${count} ${move.replace('_', ' ')}`).join(', ')}.`,
      `Injected: ${Object.entries(injected).map(([kind, count]) => `${kind} ${count}`).join(', ')}.`,
      JSON.stringify(result),
    ];
    broken = Object.entries(result.faults).some(([name, value]) => name !== 'injected' && name !== 'requests' && (value as number) > 0);
    if (broken) {
      console.log(lines.join('\n'));
      throw new Error(`invariants broken; the functions' logs are kept: ${join(dataDir, 'logs')}`);
    }
    return lines;
  } finally {
    db.destroy();
    for (const org of orgs) await Promise.all(Object.values(org.receivers).map((receiver) => receiver.close()));
    await stack.stop();
    await dynamo.stop();
    artifacts.remove();
    if (!broken) rmSync(dataDir, { recursive: true, force: true });
  }
}

runWhenMain(module, benchFaults);
