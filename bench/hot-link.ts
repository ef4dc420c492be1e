/**
 * `npm run bench:hot-link`: a flash sale. PAYERS customers at once on one link limited to LIMIT,
 * against the synthesized bundles (artifact mode: the checkout function runs in worker
 * processes, LAMBDA_MAX_WORKERS of them at most, the way Lambda runs execution environments),
 * measured beside its floor: as many raw payers at once, each doing the least a paid checkout
 * needs on that one item — read the link, then one conditional TransactWriteItems (the count it
 * read, still active; the last seat inactivates) with its outbox event, again on a conflict.
 * The raw payers run twice: all at once, and as many at once as the checkout has environments
 * (the service's own concurrency here). All run against the same DynamoDB Local, in turn, ROUNDS
 * times.
 */
import '../shared/quiet-sdk';
import { runWhenMain } from './script';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons } from '../shared/db/conditional';
import { createDocumentClient } from '../shared/db/client';
import * as keys from '../shared/db/keys';
import { outboxPut } from '../shared/db/outbox';
import { newEvent } from '../shared/events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../bin/local/free-port';
import { startLocalStack } from '../bin/local/stack';
import { functionOfRoute, readSynthesizedStack } from '../bin/local/artifacts/template';
import { synthesizedArtifacts } from '../test/support/artifacts';
import { seedOrganization } from './api';

const PAYERS = Number(process.env.BENCH_HOT_PAYERS ?? 500);
const LIMIT = Number(process.env.BENCH_HOT_LIMIT ?? 100);
const ROUNDS = Number(process.env.BENCH_HOT_ROUNDS ?? 2);
const WORKERS = Number(process.env.LAMBDA_MAX_WORKERS ?? 16);
const CHECKOUT_ROUTE = 'POST /v1/test_helpers/payment_links/{id}/checkout';

interface Round {
  seconds: number;
  paid: number;
  answers: Record<string, number>;
  slowestAnswerMs: number;
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** PAYERS payers, `atOnce` of them at a time; a round lasts until the last payer has its answer. */
async function flashSale(pay: () => Promise<string>, atOnce = PAYERS): Promise<Omit<Round, 'paid'>> {
  const answers: Record<string, number> = {};
  let slowestAnswerMs = 0;
  let waiting = PAYERS;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      for (; waiting > 0; ) {
        waiting--;
        const start = process.hrtime.bigint();
        const answer = await pay();
        slowestAnswerMs = Math.max(slowestAnswerMs, elapsedMs(start));
        answers[answer] = (answers[answer] ?? 0) + 1;
      }
    }),
  );
  return { seconds: elapsedMs(started) / 1000, answers, slowestAnswerMs };
}

/** The floor's payer: read, then the conditional write on the count it read, until paid or sold out. */
async function rawPayer(db: DynamoDBDocumentClient, tableName: string, linkId: string, orgId: string): Promise<string> {
  for (;;) {
    const link = (await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(linkId), ConsistentRead: true }))).Item!;
    if (link.status !== 'active') return 'sold out';
    const last = link.paidCount + 1 === LIMIT;
    const event = newEvent({ type: 'transactions.payment_link.remaining_payments.decremented', orgId, mode: 'test', data: { id: linkId, remaining_payments: LIMIT - link.paidCount - 1 } });
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.paymentLink(linkId),
                UpdateExpression: `SET #paidCount = #paidCount + :one${last ? ', #status = :inactive' : ''}`,
                ConditionExpression: '#status = :active AND #paidCount = :read',
                ExpressionAttributeNames: { '#paidCount': 'paidCount', '#status': 'status' },
                ExpressionAttributeValues: { ':one': 1, ':active': 'active', ':read': link.paidCount, ...(last ? { ':inactive': 'inactive' } : {}) },
              },
            },
            outboxPut(tableName, event),
          ],
        }),
      );
      return 'paid';
    } catch (error) {
      if (!cancellationReasons(error)) throw error;
    }
  }
}

async function main() {
  const artifacts = await synthesizedArtifacts();
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const tableName = 'bench-hot-link';
  delete process.env.BASE_URL;
  // The functions' request lines go to their own files, as to their log groups in AWS, not above the table.
  const logDir = mkdtempSync(join(tmpdir(), 'bench-hot-link-logs-'));
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:', artifacts: artifacts.dir, maxWorkersPerFunction: WORKERS, logDir, acquirerPort: 0 });
  try {
    const db = createDocumentClient({ endpoint });
    const merchant = await seedOrganization(db, tableName, 0);
    const headers = { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' };
    const createLink = async () =>
      (
        (await (
          await fetch(`${stack.baseUrl}/v1/payment_links`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptor.id, payments_limit: LIMIT }),
          })
        ).json()) as { id: string }
      ).id;
    const paidCount = async (linkId: string) =>
      (await db.send(new GetCommand({ TableName: tableName, Key: keys.paymentLink(linkId), ConsistentRead: true }))).Item!.paidCount as number;

    const raw = async (atOnce = PAYERS): Promise<Round> => {
      const linkId = await createLink();
      const round = await flashSale(() => rawPayer(db, tableName, linkId, merchant.org.id), atOnce);
      return { ...round, paid: await paidCount(linkId) };
    };
    const service = async (): Promise<Round> => {
      const linkId = await createLink();
      const round = await flashSale(async () => {
        const answer = await fetch(`${stack.baseUrl}/v1/test_helpers/payment_links/${linkId}/checkout`, { method: 'POST', headers, body: '{}' });
        const body = (await answer.json()) as { status?: string | number };
        // 201 is a payment (paid, or canceled when the link filled up after it opened); else the envelope's status.
        return answer.status === 201 ? String(body.status) : `${answer.status}`;
      });
      return { ...round, paid: await paidCount(linkId) };
    };

    // Warm both sides (environments started, connections open) before anything is timed.
    await raw(WORKERS);
    await service();
    const rounds: { raw: Round; rawAtEnvironments: Round; service: Round }[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push({ raw: await raw(), rawAtEnvironments: await raw(WORKERS), service: await service() });

    const { resources } = readSynthesizedStack(artifacts.dir);
    const checkout = functionOfRoute(resources, CHECKOUT_ROUTE);
    const timeoutMs = Number(resources[checkout].Properties!.Timeout) * 1000;
    const environments = stack.artifacts!.stats()[stack.artifacts!.functionOfRoute(CHECKOUT_ROUTE)];
    const rate = (round: Round) => round.paid / round.seconds;
    const answers = (round: Round) =>
      Object.entries(round.answers)
        .sort()
        .map(([answer, count]) => `${count}× ${answer}`)
        .join(', ');
    const lines = [
      `## A hot link: ${PAYERS} payers at once on a link limited to ${LIMIT} (artifact mode, ≤ ${WORKERS} checkout environments)`,
      '',
      `| round | service: paid/s (paid; answers; slowest answer) | raw, ${PAYERS} at once: paid/s (slowest) | raw, ${WORKERS} at once: paid/s (slowest) | ratio to each raw |`,
      '|---|---|---|---|---|',
      ...rounds.map(
        ({ raw: floor, rawAtEnvironments: floorAtEnvironments, service: api }, index) =>
          `| ${index + 1} | ${rate(api).toFixed(1)} (${api.paid}; ${answers(api)}; ${(api.slowestAnswerMs / 1000).toFixed(1)} s) | ${rate(floor).toFixed(1)} (${(floor.slowestAnswerMs / 1000).toFixed(1)} s) | ${rate(floorAtEnvironments).toFixed(1)} (${(floorAtEnvironments.slowestAnswerMs / 1000).toFixed(1)} s) | ${(rate(api) / rate(floor)).toFixed(2)}× / ${(rate(api) / rate(floorAtEnvironments)).toFixed(2)}× |`,
      ),
      '',
      `Checkout environments: ${environments.started} started, ${environments.peakConcurrent} at once at most; slowest invocation ${(environments.slowestMs / 1000).toFixed(1)} s (function timeout ${timeoutMs / 1000} s).`,
      `The functions' logs: ${logDir}.`,
    ];
    console.log(lines.join('\n'));
    const oversold = rounds.some((round) => Object.values(round).some((side) => side.paid !== LIMIT));
    if (oversold) throw new Error('a round did not sell exactly the limit');
  } finally {
    await stack.stop();
    artifacts.remove();
  }
}

runWhenMain(module, main);
