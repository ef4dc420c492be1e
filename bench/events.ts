/**
 * `npm run bench:events`: the event pipeline as deployed (commit → table stream → outbox
 * processor → bus → queue → deliverer → signed POST → receiver on 127.0.0.1), on the local stack
 * with its own in-memory DynamoDB Local (source mode; the bundles with LAMBDA_ARTIFACTS set to a
 * `cdk synth -o` folder).
 * - throughput: BENCH_EVENTS events (default 500) committed BENCH_CONCURRENCY at a time
 *   (default 8), each in its own TransactWriteItems with a payment, like a real state change;
 *   events per second from the first commit to the last delivery;
 * - latency: BENCH_LATENCY_EVENTS events (default 50) one at a time, each committed once the
 *   previous one was delivered; the delay from commit to delivery, p50/p99;
 * - latency under load: BENCH_EVENT_RATE events a second (default 50) for BENCH_RATE_SECONDS
 *   (default 10), each committed at its time whatever the pipeline does; the delay from commit to
 *   delivery, p50/p99/max (issue 28's goal: p99 ≤ 2 s at 50 events a second).
 * - a KMS Decrypt of a signing secret (what an attempt would pay without the deliverer's kept
 *   secrets, docs/decisions.md 98): BENCH_DECRYPTS opens (default 200) one after another
 *   through the local edge, p50/p99, beside the commit-to-delivery latency.
 * Bounded (every wait has a deadline); a short warm-up first. Prints one JSON object.
 */
import '../shared/quiet-sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWhenMain } from './script';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import { paymentItem } from '../shared/db/payment-repository';
import { createWebhookRepository, openSigningSecrets } from '../shared/db/webhook-repository';
import { newEvent } from '../shared/events';
import { outboxPut } from '../shared/db/outbox';
import { newId } from '../shared/ids';
import { startLocalStack } from '../bin/local/stack';
import { isoMillis, sleep } from '../shared/time';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { operatorSealer } from '../test/support/sealer';
import { freePort } from '../bin/local/free-port';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 50);
const RATE = Number(process.env.BENCH_EVENT_RATE ?? 50);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const DECRYPTS = Number(process.env.BENCH_DECRYPTS ?? 200);
const WARM_UP_EVENTS = 20;
const DEADLINE_MS = 180_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  process.env.LOG_LEVEL ??= 'ERROR';
  const dynamodbEndpoint = process.env.DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${await freePort()}`;
  const tableName = `bench-events-${Date.now()}`;
  // LAMBDA_ARTIFACTS (a `cdk synth -o` folder): the pipeline as deployed, through artifact mode's stand-ins.
  const artifacts = process.env.LAMBDA_ARTIFACTS;
  const stack = await startLocalStack({
    port: 0,
    dynamodbEndpoint,
    tableName,
    dataDir: ':memory:',
    background: true,
    artifacts,
    // The functions' lines to a file each, as to their log groups, not into the bench's output.
    logDir: artifacts ? mkdtempSync(join(tmpdir(), 'bench-events-logs-')) : undefined,
    maxWorkersPerFunction: process.env.LAMBDA_MAX_WORKERS ? Number(process.env.LAMBDA_MAX_WORKERS) : undefined,
  });
  const receiver = await startWebhookReceiver();
  try {
    const db = createDocumentClient({ endpoint: dynamodbEndpoint });
    const directory = createDirectory(db, tableName);
    const org = await directory.createOrganization('Bench');
    const acceptor = await directory.createAcceptor(org.id, 'Bench shop');
    const sealer = operatorSealer(() => stack.aws);
    const subscription = await createWebhookRepository(db, tableName, sealer).create({ orgId: org.id, mode: 'test', url: receiver.url, events: ['transactions.payment_link.*'] });

    const committedAt = new Map<string, number>();
    /** One state change: a payment and its event in one transaction. */
    const commit = async () => {
      const now = isoMillis();
      const linkId = newId('paymentLink');
      const event = newEvent({ type: 'transactions.payment_link.payment.created', orgId: org.id, mode: 'test', data: { id: linkId, object: 'payment_link' } });
      const payment = { id: newId('payment'), orgId: org.id, mode: 'test' as const, acceptorId: acceptor.id, paymentLinkId: linkId };
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: paymentItem({ ...payment, status: 'open', amountMinor: 1000, currency: 'EUR', createdAt: now }) } },
            outboxPut(tableName, event),
          ],
        }),
      );
      committedAt.set(event.envelope.id, Date.now());
      return event.envelope.id;
    };
    const delivered = () => receiver.delivered().length;
    const delayOf = (id: string) => receiver.delivered().find((request) => request.envelope.id === id)!.receivedAt - committedAt.get(id)!;

    for (let n = 0; n < WARM_UP_EVENTS; n++) await commit();
    await receiver.waitFor(() => delivered() >= WARM_UP_EVENTS, 'the warm-up deliveries', DEADLINE_MS);

    // Throughput: a burst of commits.
    const before = delivered();
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < EVENTS) await commit();
      }),
    );
    const committedIn = Date.now() - started;
    await receiver.waitFor(() => delivered() >= before + EVENTS, `${EVENTS} deliveries`, DEADLINE_MS);
    const lastDelivery = Math.max(...receiver.delivered().map((request) => request.receivedAt));

    // Latency: one event at a time.
    const delays: number[] = [];
    for (let n = 0; n < LATENCY_EVENTS; n++) {
      const id = await commit();
      await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.id === id), `delivery ${n + 1}`, DEADLINE_MS);
      delays.push(delayOf(id));
    }
    delays.sort((a, b) => a - b);

    // Latency under load: commits on a fixed schedule, RATE a second.
    const paced: Promise<string>[] = [];
    const paceStart = Date.now();
    for (let n = 0; n < RATE * RATE_SECONDS; n++) {
      await sleep(Math.max(0, paceStart + (n * 1000) / RATE - Date.now()));
      paced.push(commit());
    }
    const pacedIds = await Promise.all(paced);
    const committedRate = (pacedIds.length / (Date.now() - paceStart)) * 1000;
    await receiver.waitFor(
      () => {
        const deliveredIds = new Set(receiver.delivered().map((request) => request.envelope.id));
        return pacedIds.every((id) => deliveredIds.has(id));
      },
      `${pacedIds.length} deliveries at ${RATE}/s`,
      DEADLINE_MS,
    );
    const pacedDelays = pacedIds.map(delayOf).sort((a, b) => a - b);

    // One Decrypt of the subscription's secret, as an attempt without the kept secrets would make it.
    const decrypts: number[] = [];
    for (let n = 0; n < DECRYPTS; n++) {
      const opening = performance.now();
      await openSigningSecrets(sealer, subscription, new Date());
      decrypts.push(performance.now() - opening);
    }
    decrypts.sort((a, b) => a - b);
    sealer.close();

    const result = {
      bench: 'events',
      events: EVENTS,
      concurrency: CONCURRENCY,
      commits_per_second: Math.round((EVENTS / committedIn) * 1000),
      events_per_second: Math.round((EVENTS / (lastDelivery - started)) * 1000),
      commit_to_delivery_ms: { samples: delays.length, p50: percentile(delays, 50), p99: percentile(delays, 99) },
      at_rate: {
        events_per_second: Math.round(committedRate),
        samples: pacedDelays.length,
        commit_to_delivery_ms: { p50: percentile(pacedDelays, 50), p99: percentile(pacedDelays, 99), max: pacedDelays.at(-1) },
      },
      kms_decrypt_ms: { samples: decrypts.length, p50: Number(percentile(decrypts, 50).toFixed(2)), p99: Number(percentile(decrypts, 99).toFixed(2)) },
      duplicates: receiver.requests.length - new Set(receiver.requests.map((request) => request.envelope.id)).size,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await receiver.close();
    await stack.stop();
  }
}

runWhenMain(module, main);
