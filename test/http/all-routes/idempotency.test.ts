import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { invokedFunction } from '../../../bin/local/invocation';
import { hashToken } from '../../../shared/auth/tokens';
import { documentClient } from '../../../shared/db/client';
import * as keys from '../../../shared/db/keys';
import { paymentLinkEntity } from '../../../shared/db/entities';
import { createPaymentLinkRepository } from '../../../shared/db/payment-link-repository';
import { runWatchingWrites } from '../../../shared/db/side-effects';
import { newPaymentLink } from '../../../shared/domain/payment-links';
import { requestFingerprint } from '../../../shared/http/idempotency';
import { newId } from '../../../shared/ids';
import { IN_FLIGHT_LEASE_MS, createIdempotencyStore } from '../../../shared/db/idempotency-store';
import { client, expectEnvelope } from '../../support/http';
import { inProcess } from '../../support/mode';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let api: Api;
/**
 * The API functions' timeout in source mode, instead of the deployed ROUTE_TIMEOUT_SECONDS:
 * three tests below wait one out or retry conflicts until shortly before it
 * (shared/db/conditional.ts), and what they check holds for any timeout.
 */
const TIMEOUT_SECONDS = 5;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack({ routeTimeoutSeconds: TIMEOUT_SECONDS }));
});
afterAll(() => stack.stop());

const body = () => ({ amount: { value: '7.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, description: 'Idempotent' });
const countLinks = async () => (await api.get('/v1/payment_links?limit=100')).body.data.length;

test('idempotency: the same key and body replays the first response with Idempotent-Replayed', async () => {
  const first = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'order-1' });
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'order-1' });
  expect(again.status).toBe(201);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
});

test('idempotency: the same key with a different body -> 422', async () => {
  await api.post('/v1/payment_links', body(), { 'idempotency-key': 'order-2' });
  expectEnvelope(await api.post('/v1/payment_links', { ...body(), description: 'Other' }, { 'idempotency-key': 'order-2' }), 422, 'Idempotency-Key');
});

test('idempotency: keys belong to their API key; another key runs the request anew', async () => {
  const other = await merchant.key();
  const first = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'order-3' });
  const second = await client(stack.baseUrl, other).post('/v1/payment_links', body(), { 'idempotency-key': 'order-3' });
  expect(second.status).toBe(201);
  expect(second.body.id).not.toBe(first.body.id);
});

test('idempotency: 4xx responses are stored and replayed too', async () => {
  const bad = { amount: { value: '0', currency: 'EUR' }, acceptor_id: merchant.acceptorId };
  const first = await api.post('/v1/payment_links', bad, { 'idempotency-key': 'order-4' });
  expectEnvelope(first, 422);
  const again = await api.post('/v1/payment_links', bad, { 'idempotency-key': 'order-4' });
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
});

test('idempotency: a key longer than 255 characters -> 400; without the header a repeat creates a second link', async () => {
  expectEnvelope(await api.post('/v1/payment_links', body(), { 'idempotency-key': 'k'.repeat(256) }), 400);
  const before = await countLinks();
  await api.post('/v1/payment_links', body());
  await api.post('/v1/payment_links', body());
  expect(await countLinks()).toBe(before + 2);
});

test('idempotency: 20 parallel identical requests with one key create exactly one link', async () => {
  const before = await countLinks();
  const results = await Promise.all(
    Array.from({ length: 20 }, () => api.post('/v1/payment_links', body(), { 'idempotency-key': 'burst-1' })),
  );
  expect(await countLinks()).toBe(before + 1);
  const created = results.filter((result) => result.status === 201);
  expect(new Set(created.map((result) => result.body.id)).size).toBe(1);
  for (const result of results.filter((r) => r.status !== 201)) expectEnvelope(result, 409);
  const replay = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'burst-1' });
  expect(replay.body.id).toBe(created[0].body.id);
});

test('idempotency: a request killed after its commit is not run again after the lease: the repeat answers 409 carried out', async () => {
  const store = createIdempotencyStore(stack.db, stack.tableName);
  // What a function killed by its timeout right after its transaction leaves: the claim in
  // flight, marked by that transaction.
  const fingerprint = requestFingerprint({ requestContext: { http: { method: 'POST' } }, rawPath: '/v1/payment_links', body: JSON.stringify(body()) } as never);
  const keyId = (await stack.directory.keyStore.findKeyByTokenHash(hashToken(merchant.test)))!.keyId;
  const start = Date.now() - IN_FLIGHT_LEASE_MS - 1_000;
  expect((await store.claim(keyId, 'killed-after-commit', fingerprint, start)).kind).toBe('claimed');
  await runWatchingWrites(async () => {
    const link = newPaymentLink({ id: newId('paymentLink'), orgId: merchant.orgId, mode: 'test', acceptorId: merchant.acceptorId, body: body(), now: new Date() });
    await createPaymentLinkRepository(stack.db, stack.tableName).create(link, []);
  }, store.carriedOutMark(keyId, 'killed-after-commit'));
  const before = await countLinks();
  const repeat = await api.call('POST', '/v1/payment_links', JSON.stringify(body()), { 'content-type': 'application/json', 'idempotency-key': 'killed-after-commit' });
  expectEnvelope(repeat, 409);
  expect(repeat.body.detail).toMatch(/carried out/);
  expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  expect(await countLinks()).toBe(before);
  // Without the mark (killed before its commit) the lease frees the key, as below.
});

test('idempotency: a claim left in flight by a crashed request frees itself after its lease', async () => {
  const store = createIdempotencyStore(stack.db, stack.tableName);
  const start = Date.now();
  expect((await store.claim('key_crash', 'k1', 'fp', start)).kind).toBe('claimed');
  expect((await store.claim('key_crash', 'k1', 'fp', start + 1_000)).kind).toBe('in_flight');
  expect((await store.claim('key_crash', 'k1', 'fp', start + IN_FLIGHT_LEASE_MS + 1)).kind).toBe('claimed');
});

// Injects failures into this process's document client.
inProcess('idempotency: a 5xx', () => {
  /** Fails the next `command` the handlers send, after it reached DynamoDB (`after`) or before. */
  let failNext: { command: string; after: boolean } | undefined;
  /** While set, after that many more pass, every TransactWriteItems is refused as DynamoDB refuses one that conflicts (HTTP 400). */
  let conflictsAfter: number | undefined;
  beforeAll(() => {
    // Only the calls of the routes these tests post to: the stream's functions share this process's client.
    const posted = new Set(['POST /v1/payment_links', 'POST /v1/test_helpers/payment_links/{id}/checkout'].map((route) => stack.aws.functionOfRoute(route)));
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        if (!posted.has(invokedFunction()!)) return next(args);
        if (conflictsAfter !== undefined && context.commandName === 'TransactWriteItemsCommand' && conflictsAfter-- <= 0) {
          throw new TransactionCanceledException({
            message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
            CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
            $metadata: { httpStatusCode: 400 },
          });
        }
        const failing = failNext?.command === context.commandName ? failNext : undefined;
        if (failing) failNext = undefined;
        if (failing && !failing.after) throw Object.assign(new Error('injected before'), { name: 'InternalServerError' });
        const output = await next(args);
        if (failing) throw Object.assign(new Error('answer lost after commit'), { name: 'TimeoutError' });
        return output;
      },
      { step: 'initialize', name: 'injectFailure' },
    );
  });

  test('after the write was sent keeps the key: a repeat answers 409 (replayed) and never creates a second link', async () => {
    const before = await countLinks();
    failNext = { command: 'TransactWriteItemsCommand', after: true };
    expect((await api.post('/v1/payment_links', body(), { 'idempotency-key': 'lost-answer' })).status).toBe(500);
    const again = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'lost-answer' });
    expectEnvelope(again, 409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.detail).toMatch(/carried out/);
    expect(await countLinks()).toBe(before + 1);
  });

  test('after conflicts that outlasted their retries (503) frees the key: DynamoDB applied nothing, and the repeat runs', async () => {
    // Prepare
    const before = await countLinks();
    conflictsAfter = 0;
    // Act
    const refused = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'conflicted' });
    conflictsAfter = undefined;
    const again = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'conflicted' });
    // Assess
    expectEnvelope(refused, 503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await countLinks()).toBe(before + 1);
  });

  test('of a checkout whose paid step lost every round to conflicts frees the key: the repeat runs and pays', async () => {
    // Prepare: the open payment commits, then every paid round conflicts until the invocation's deadline.
    const link = (await api.post('/v1/payment_links', body())).body;
    const checkout = `/v1/test_helpers/payment_links/${link.id}/checkout`;
    conflictsAfter = 1;
    // Act
    const refused = await api.post(checkout, { outcome: 'paid' }, { 'idempotency-key': 'outrun' });
    conflictsAfter = undefined;
    const again = await api.post(checkout, { outcome: 'paid' }, { 'idempotency-key': 'outrun' });
    // Assess: the client's retry is paid, not told the request was carried out.
    expectEnvelope(refused, 503);
    expect(again.status).toBe(201);
    expect(again.body.status).toBe('paid');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count).toBe(1);
  });

  test('before any write frees the key: the repeat runs', async () => {
    const before = await countLinks();
    failNext = { command: 'GetItemCommand', after: false };
    expect((await api.post('/v1/payment_links', body(), { 'idempotency-key': 'failed-early' })).status).toBeGreaterThanOrEqual(500);
    expect((await api.post('/v1/payment_links', body(), { 'idempotency-key': 'failed-early' })).status).toBe(201);
    expect(await countLinks()).toBe(before + 1);
  });
});

// Holds a request inside this process (source mode: its one process serves every invocation).
inProcess('idempotency: a request still queued past its function timeout', () => {
  /**
   * The next TransactWriteItems that creates a payment link waits here until released: a request
   * queued in the process. Only the link's: the pipeline's own transactions (a credit rolled
   * after an earlier test's payment) run in this process too.
   */
  let hold: { reached(): void; released: Promise<void> } | undefined;
  const createsLink = (input: unknown) =>
    ((input as { TransactItems?: { Put?: { Item?: Record<string, unknown> } }[] }).TransactItems ?? []).some((action) => action.Put?.Item?.entity === paymentLinkEntity.definition.name);
  beforeAll(() => {
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const held = context.commandName === 'TransactWriteItemsCommand' && createsLink(args.input) ? hold : undefined;
        if (held) {
          hold = undefined;
          held.reached();
          await held.released;
        }
        return next(args);
      },
      { step: 'initialize', name: 'holdNextTransaction' },
    );
  });

  /** The rest of the claim's 30 s lease, moved to now instead of waited for. */
  async function endLease(idempotencyKey: string) {
    const keyId = (await stack.directory.keyStore.findKeyByTokenHash(hashToken(merchant.test)))!.keyId;
    await stack.db.send(new UpdateCommand({ TableName: stack.tableName, Key: keys.idempotency(keyId, idempotencyKey), UpdateExpression: 'SET leaseUntil = :past', ExpressionAttributeValues: { ':past': Date.now() - 1 } }));
  }

  test('answers 500 at its function timeout and commits nothing after it: a retry with the same key after the lease runs once', async () => {
    // Prepare
    const before = await countLinks();
    let reached!: () => void;
    let release!: () => void;
    const atHold = new Promise<void>((resolve) => (reached = resolve));
    hold = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
    const timeoutMs = TIMEOUT_SECONDS * 1000;

    // Act
    const started = Date.now();
    const first = api.post('/v1/payment_links', body(), { 'idempotency-key': 'queued' });
    await atHold;
    let waiting: ReturnType<typeof setTimeout> | undefined;
    const answeredInTime = await Promise.race([first, new Promise<undefined>((resolve) => (waiting = setTimeout(() => resolve(undefined), timeoutMs + 5_000)))]);
    clearTimeout(waiting);
    const answeredAfterMs = Date.now() - started;
    await endLease('queued');
    const retry = await api.post('/v1/payment_links', body(), { 'idempotency-key': 'queued' });
    release();
    await first;

    // Assess
    // The function's own 500 (middy answers just before its timeout, as in Lambda), or the gateway's.
    expect(answeredInTime?.status).toBe(500);
    expect(answeredAfterMs).toBeGreaterThanOrEqual(timeoutMs - 100);
    expect(retry.status).toBe(201);
    expect(await countLinks()).toBe(before + 1);
  }, 60_000);
});
