import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../shared/db/client';
import * as keys from '../../../shared/db/keys';
import { createDirectory } from '../../../shared/db/directory';
import { ATTEMPTS_PER_EVENT, createDeliveryRepository } from '../../../shared/db/delivery-repository';
import { createSigningSecrets, createWebhookRepository, openSigningSecrets } from '../../../shared/db/webhook-repository';
import {
  SLOT_LEASE_MARGIN_MS,
  deliveryKey,
  firstAttempts,
  RECORD_TRIES,
  type AttemptRecord,
  type DeliveryPorts,
  type DeliveryStatus,
  type DeliveryTask,
  type SendResult,
} from '../../../shared/domain/webhook-delivery';
import { attemptDelivery } from '../../../shared/domain/webhook-attempt';
import { maxAttempts, minimumRetryWindowMs } from '../../../shared/domain/retry-policy';
import { endpointSecretContext, newSigningSecret, urlTargetKey, type WebhookSubscription } from '../../../shared/domain/webhooks';
import { newEvent } from '../../../shared/events';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { createHttpSender } from '../../../shared/webhooks/http-sender';
import { AWS_WEBHOOK_SETTINGS, LOCAL_WEBHOOK_SETTINGS, loadWebhookSettings, retryPolicyVariables } from '../../../shared/webhooks/settings';
import { webhookServiceFor } from '../../../shared/services/webhook-delivery';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { inProcessSealer } from '../../support/sealer';

const HOUR = 3_600_000;
const secret = newSigningSecret();
const urlSecret = newSigningSecret();
const sealer = inProcessSealer();
/** A secret of the fixtures' endpoint, sealed as the table holds it. */
const sealedForSub = (plaintext: string) => sealer.sealed(plaintext, endpointSecretContext({ orgId: 'org_1', id: 'whk_sub' }));

function subscription(overrides: Partial<WebhookSubscription> = {}): WebhookSubscription {
  return {
    id: 'whk_sub',
    orgId: 'org_1',
    mode: 'test',
    url: 'https://receiver.example/hooks',
    events: ['transactions.payment_link.*'],
    description: null,
    status: 'enabled',
    sealedSecret: sealedForSub(secret),
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

const event = newEvent({
  type: 'transactions.payment_link.created',
  orgId: 'org_1',
  mode: 'test',
  data: { id: 'pl_1', object: 'payment_link' },
  targetUrls: ['https://merchant.example/refund-hook'],
});

/** In-memory ports: a scripted sender and a journal that remembers what it was told. */
function fakes(answers: SendResult[], options: { settled?: boolean; endpoint?: WebhookSubscription | 'deleted'; busy?: boolean } = {}) {
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const attempts: AttemptRecord[] = [];
  const settled: DeliveryStatus[] = [];
  const parked: DeliveryTask[] = [];
  const slotEvents: string[] = [];
  const ports: DeliveryPorts = {
    deadLetters: { park: async (task) => void parked.push(task) },
    journal: {
      isSettled: async () => options.settled ?? false,
      recordAttempt: async (_task, record) => void attempts.push(record),
      settle: async (_task, status) => void settled.push(status),
    },
    endpoints: {
      subscription: async () => (options.endpoint === 'deleted' ? undefined : (options.endpoint ?? subscription())),
      signingSecrets: (endpoint, at) => openSigningSecrets(sealer, endpoint, at),
      urlSecret: async () => urlSecret,
    },
    sender: {
      post: async (url, headers, body) => {
        sent.push({ url, headers, body });
        return answers.shift() ?? { statusCode: 200, durationMs: 1 };
      },
    },
    slots: {
      take: async (tenant, leaseMs) => {
        slotEvents.push(`take ${tenant} ${leaseMs}`);
        return options.busy ? undefined : async () => void slotEvents.push(`give back after ${sent.length} sent`);
      },
    },
    busyRetryMs: 100,
    policy: { scheduleMs: [1000, 2000, 4000], jitter: 0.5 },
    timeoutMs: 1000,
    now: () => new Date(),
    random: () => 1,
  };
  return { ports, sent, attempts, settled, parked, slotEvents };
}

const [subscriptionTask, urlTask] = firstAttempts(event, [subscription(), subscription({ id: 'whk_other', events: ['transactions.refund.*'] })]);

describe('fan-out', () => {
  test('targets: matching subscriptions of the event plus each per-object URL, one task each', () => {
    expect([subscriptionTask, urlTask].map((task) => task.target)).toEqual([
      { key: 'whk_sub', url: 'https://receiver.example/hooks', subscriptionId: 'whk_sub' },
      { key: expect.stringMatching(/^url_[0-9a-f]{24}$/), url: 'https://merchant.example/refund-hook' },
    ]);
    expect(subscriptionTask).toMatchObject({ kind: 'webhook_delivery', attempt: 1, history: [], event: { envelope: event.envelope, orgId: 'org_1' } });
  });

  test('a disabled subscription is no target, even with a matching pattern', () => {
    const tasks = firstAttempts(event, [subscription({ status: 'disabled' }), subscription({ id: 'whk_enabled' })]);
    expect(tasks.map((task) => task.target.key)).toEqual(['whk_enabled', expect.stringMatching(/^url_/)]);
  });
});

describe('one delivery attempt', () => {
  test('a 2xx ends the delivery: signed POST of the envelope, attempt recorded, delivered', async () => {
    const { ports, sent, attempts, settled } = fakes([{ statusCode: 204, durationMs: 12 }]);
    const outcome = await attemptDelivery(subscriptionTask, ports);
    expect(outcome.kind).toBe('delivered');
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('https://receiver.example/hooks');
    expect(JSON.parse(sent[0].body)).toEqual(event.envelope);
    expect(sent[0].headers['webhook-id']).toBe(event.envelope.id);
    expect(sent[0].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(sent[0].body, sent[0].headers)).toEqual(event.envelope);
    expect(attempts).toEqual([{ attempt: 1, at: expect.any(String), url: 'https://receiver.example/hooks', statusCode: 204, durationMs: 12 }]);
    // The 2xx attempt, recorded, is the delivery's outcome: no outcome of its own is written.
    expect(settled).toEqual([]);
  });

  test("the attempt holds one of its tenant's slots from before the POST until it returns, leased past the timeout", async () => {
    const { ports, slotEvents } = fakes([{ statusCode: 500, durationMs: 3 }]);
    expect((await attemptDelivery(subscriptionTask, ports)).kind).toBe('retry');
    expect(slotEvents).toEqual([`take ${event.orgId}#${event.envelope.mode} ${1000 + SLOT_LEASE_MARGIN_MS}`, 'give back after 1 sent']);
  });

  test('a tenant with every slot taken: the same attempt comes back later (busy), nothing sent, recorded or settled', async () => {
    const { ports, sent, attempts, settled, slotEvents } = fakes([], { busy: true });
    expect(await attemptDelivery(subscriptionTask, ports)).toEqual({ kind: 'busy', task: subscriptionTask, delayMs: 200 });
    expect({ sent, attempts, settled, slotEvents: slotEvents.length }).toEqual({ sent: [], attempts: [], settled: [], slotEvents: 1 });
  });

  test('a per-object URL is signed with the org+mode URL secret, not a subscription secret', async () => {
    const { ports, sent } = fakes([]);
    await attemptDelivery(urlTask, ports);
    expect(new Webhook(urlSecret).verify(sent[0].body, sent[0].headers)).toEqual(event.envelope);
    expect(() => new Webhook(secret).verify(sent[0].body, sent[0].headers)).toThrow();
  });

  test('a non-2xx or an error schedules the next attempt after the jittered delay, keeping the history', async () => {
    const { ports, settled } = fakes([{ statusCode: 500, durationMs: 3 }]);
    const outcome = await attemptDelivery(subscriptionTask, ports);
    expect(outcome).toMatchObject({ kind: 'retry', delayMs: 500, task: { attempt: 2, history: [{ attempt: 1, statusCode: 500 }] } });
    const timeout = fakes([{ durationMs: 1000, error: 'timed out after 1000 ms' }]);
    timeout.ports.random = () => 0;
    const second = await attemptDelivery((outcome as { task: DeliveryTask }).task, timeout.ports);
    expect(second).toMatchObject({ kind: 'retry', delayMs: 2000, task: { attempt: 3, history: [{ statusCode: 500 }, { error: 'timed out after 1000 ms' }] } });
    expect(settled).toEqual([]);
  });

  test('after the last attempt the delivery is parked in the dead-letter queue with every attempt in its history', async () => {
    const { ports, settled, parked } = fakes([]);
    let task: DeliveryTask = subscriptionTask;
    let outcome;
    for (let n = 1; n <= maxAttempts(ports.policy); n++) {
      ports.sender.post = async () => ({ statusCode: 503, durationMs: 1 });
      outcome = await attemptDelivery(task, ports);
      if (outcome.kind === 'retry') task = outcome.task;
    }
    expect(outcome).toMatchObject({ kind: 'dead', task: { attempt: 4 } });
    expect((outcome as { task: DeliveryTask }).task.history.map((record) => record.attempt)).toEqual([1, 2, 3, 4]);
    expect(settled).toEqual(['dead']);
    expect(parked).toEqual([(outcome as { task: DeliveryTask }).task]);
  });

  test('an attempt the table does not record is recorded later, never sent again; bounded, then parked or abandoned', async () => {
    const { ports, sent, attempts, settled, parked } = fakes([{ statusCode: 200, durationMs: 5 }]);
    const recordAttempt = ports.journal.recordAttempt;
    ports.journal.recordAttempt = async () => {
      throw new Error('ProvisionedThroughputExceededException');
    };
    let outcome = await attemptDelivery(subscriptionTask, ports);
    expect(outcome).toMatchObject({ kind: 'unrecorded', delayMs: 1000, task: { attempt: 1, history: [], made: { tries: 1, record: { statusCode: 200 } } } });
    for (let tries = 2; tries < RECORD_TRIES; tries++) {
      outcome = await attemptDelivery((outcome as { task: DeliveryTask }).task, ports);
      expect(outcome).toMatchObject({ kind: 'unrecorded', task: { made: { tries } } });
    }
    const lastTry = (outcome as { task: DeliveryTask }).task;
    ports.journal.recordAttempt = recordAttempt;
    expect(await attemptDelivery(lastTry, ports)).toMatchObject({ kind: 'delivered', task: { history: [{ statusCode: 200 }] } });
    expect(sent).toHaveLength(1);
    expect([attempts.length, settled]).toEqual([1, []]);
    expect(await attemptDelivery(lastTry, ports)).toMatchObject({ kind: 'delivered', task: expect.not.objectContaining({ made: expect.anything() }) });

    ports.journal.recordAttempt = async () => {
      throw new Error('table down');
    };
    const given = await attemptDelivery(lastTry, ports);
    expect(given).toMatchObject({ kind: 'dead', task: { history: [{ statusCode: 200 }] } });
    expect(parked).toHaveLength(1);
    ports.deadLetters.park = async () => {
      throw new Error('queue down');
    };
    expect(await attemptDelivery(lastTry, ports)).toMatchObject({ kind: 'abandoned', error: 'table down' });
    expect(sent).toHaveLength(1);
  });

  test('a delivery that already ended is skipped without a request (duplicate publish)', async () => {
    const { ports, sent } = fakes([], { settled: true });
    expect(await attemptDelivery(subscriptionTask, ports)).toEqual({ kind: 'skipped', reason: 'already settled' });
    expect(sent).toEqual([]);
  });

  test.each([
    ['deleted', 'deleted' as const],
    ['disabled', subscription({ status: 'disabled' })],
    ['no longer matching the type', subscription({ events: ['transactions.refund.*'] })],
  ])('a subscription %s since the fan-out cancels its delivery: nothing sent, no slot taken', async (_case, endpoint) => {
    const { ports, sent, settled, slotEvents } = fakes([], { endpoint });
    expect(await attemptDelivery(subscriptionTask, ports)).toEqual({ kind: 'skipped', reason: 'subscription stopped' });
    expect({ sent, settled, slotEvents }).toEqual({ sent: [], settled: ['canceled'], slotEvents: [] });
  });

  test("each attempt goes to the subscription's URL as it is now", async () => {
    const { ports, sent, attempts } = fakes([], { endpoint: subscription({ url: 'https://moved.example/hooks' }) });
    expect((await attemptDelivery(subscriptionTask, ports)).kind).toBe('delivered');
    expect([sent[0].url, attempts[0].url]).toEqual(['https://moved.example/hooks', 'https://moved.example/hooks']);
  });

  test('after a roll both secrets sign until the previous one expires: a receiver verifies with either', async () => {
    const rolled = newSigningSecret();
    const rolledSubscription = (previousSecretExpiresAt: Date) =>
      subscription({ sealedSecret: sealedForSub(rolled), sealedPreviousSecret: sealedForSub(secret), previousSecretExpiresAt: previousSecretExpiresAt.toISOString() });
    const during = fakes([], { endpoint: rolledSubscription(new Date(Date.now() + 60_000)) });
    await attemptDelivery(subscriptionTask, during.ports);
    const [signed] = during.sent;
    expect(signed.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(rolled).verify(signed.body, signed.headers)).toEqual(event.envelope);
    expect(new Webhook(secret).verify(signed.body, signed.headers)).toEqual(event.envelope);

    const after = fakes([], { endpoint: rolledSubscription(new Date(Date.now() - 1)) });
    await attemptDelivery(subscriptionTask, after.ports);
    expect(new Webhook(rolled).verify(after.sent[0].body, after.sent[0].headers)).toEqual(event.envelope);
    expect(() => new Webhook(secret).verify(after.sent[0].body, after.sent[0].headers)).toThrow();
  });

  test('a delivery that already ended takes no slot', async () => {
    const ended = fakes([], { settled: true });
    await attemptDelivery(subscriptionTask, ended.ports);
    expect(ended.slotEvents).toEqual([]);
  });
});

describe('retry settings', () => {
  test('AWS: exponential backoff, no step beyond SQS 12 h visibility, at least 3 days even with full jitter', () => {
    const { scheduleMs } = AWS_WEBHOOK_SETTINGS.policy;
    expect(minimumRetryWindowMs(AWS_WEBHOOK_SETTINGS.policy)).toBeGreaterThanOrEqual(72 * HOUR);
    expect(Math.max(...scheduleMs)).toBeLessThanOrEqual(12 * HOUR);
    expect(scheduleMs.slice(0, 5)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(AWS_WEBHOOK_SETTINGS.allowPrivateUrls).toBe(false);
  });

  test('local: seconds apart, private addresses allowed; the environment overrides both worlds', () => {
    expect(Math.max(...LOCAL_WEBHOOK_SETTINGS.policy.scheduleMs)).toBeLessThanOrEqual(60_000);
    expect(LOCAL_WEBHOOK_SETTINGS.allowPrivateUrls).toBe(true);
    const settings = loadWebhookSettings(
      { WEBHOOK_RETRY_SCHEDULE: '0.05, 0.1,0.2', WEBHOOK_RETRY_JITTER: '0', WEBHOOK_TIMEOUT_MS: '750', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      AWS_WEBHOOK_SETTINGS,
    );
    expect(settings).toEqual({ policy: { scheduleMs: [50, 100, 200], jitter: 0 }, timeoutMs: 750, allowPrivateUrls: true, inFlight: { perTenant: 2, busyRetryMs: 1_000 } });
    expect(loadWebhookSettings({ WEBHOOK_TENANT_IN_FLIGHT: '6' }, LOCAL_WEBHOOK_SETTINGS).inFlight).toEqual({ perTenant: 6, busyRetryMs: 200 });
    expect(() => loadWebhookSettings({ WEBHOOK_TENANT_IN_FLIGHT: '0' }, AWS_WEBHOOK_SETTINGS)).toThrow(/WEBHOOK_TENANT_IN_FLIGHT/);
    expect(() => loadWebhookSettings({ WEBHOOK_RETRY_SCHEDULE: '1,x' }, LOCAL_WEBHOOK_SETTINGS)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadWebhookSettings({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' }, LOCAL_WEBHOOK_SETTINGS)).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });

  test("artifact mode: the local retry policy as variables is what the bundles' AWS defaults give way to", () => {
    expect(loadWebhookSettings(retryPolicyVariables(LOCAL_WEBHOOK_SETTINGS.policy), AWS_WEBHOOK_SETTINGS).policy).toEqual(LOCAL_WEBHOOK_SETTINGS.policy);
  });
});

describe('HTTP adapter', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_x' };

  test('posts the body with the headers and reports the status code and duration', async () => {
    const result = await createHttpSender({ allowPrivateUrls: true }).post(receiver.url, headers, '{"a":1}', 2000);
    expect(result).toEqual({ statusCode: 200, durationMs: expect.any(Number) });
    expect(receiver.requests.at(-1)).toMatchObject({ body: '{"a":1}', headers: { 'webhook-id': 'evt_x' } });
  });

  test('an endpoint that does not answer within the timeout is a failed attempt with an error', async () => {
    receiver.hold();
    const result = await createHttpSender({ allowPrivateUrls: true }).post(receiver.url, headers, '{}', 200);
    receiver.release();
    expect(result).toEqual({ durationMs: expect.any(Number), error: 'timed out after 200 ms' });
  });

  test('a closed port is a failed attempt with an error, never a throw', async () => {
    const result = await createHttpSender({ allowPrivateUrls: true }).post('http://127.0.0.1:1/hooks', headers, '{}', 2000);
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  test('AWS: loopback, private and link-local endpoints are refused, literal or resolved, before any request', async () => {
    const sender = createHttpSender({ allowPrivateUrls: false });
    const before = receiver.requests.length;
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost'), 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]:9/x', 'http://[::ffff:127.0.0.1]/x', 'http://[::ffff:0:a9fe:a9fe]/x', 'http://[64:ff9b:1::a00:1]/x', 'http://[2001::a9fe:a9fe]/x', 'http://[100::1]/x']) {
      const result = await sender.post(url, headers, '{}', 2000);
      expect({ url, statusCode: result.statusCode, error: result.error }).toEqual({ url, statusCode: undefined, error: expect.stringMatching(/^refused: /) });
    }
    expect(receiver.requests.length).toBe(before);
  });
});

describe('delivery records in the table', () => {
  test('each attempt is an item under the event: time, endpoint, status code, duration, error', async () => {
    const tableName = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName);
    const repository = createDeliveryRepository(createDocumentClient(), tableName);
    const { ports } = fakes([{ statusCode: 500, durationMs: 7 }, { durationMs: 9, error: 'ECONNRESET: socket hang up' }]);
    ports.journal = repository;
    const first = await attemptDelivery(subscriptionTask, ports);
    const second = await attemptDelivery((first as { task: DeliveryTask }).task, ports);
    expect(second.kind).toBe('retry');
    const attempts = (await repository.attemptPage(event.envelope.id, { limit: 100 })).items;
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 1, at: expect.any(String), url: subscriptionTask.target.url, statusCode: 500, durationMs: 7, targetKey: 'whk_sub' }),
      expect.objectContaining({ attempt: 2, url: subscriptionTask.target.url, durationMs: 9, error: 'ECONNRESET: socket hang up', targetKey: 'whk_sub' }),
    ]);
    expect(await repository.isSettled(subscriptionTask)).toBe(false);
  });

  test("a delivery is settled by a 2xx attempt of its own (not another target's, nor another replay's), by its dead or canceled outcome, or by a `delivered` outcome written before", async () => {
    const tableName = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName);
    const repository = createDeliveryRepository(createDocumentClient(), tableName);
    const ok = (attempt: number) => ({ attempt, at: new Date().toISOString(), url: 'https://receiver.example/hooks', statusCode: 200, durationMs: 3 });
    const replay = { ...subscriptionTask, resendId: 'rsd_1' };
    await repository.recordAttempt(urlTask, ok(1));
    await repository.recordAttempt(replay, ok(1));
    expect([await repository.isSettled(subscriptionTask), await repository.isSettled(urlTask), await repository.isSettled(replay)]).toEqual([false, true, true]);
    await repository.recordAttempt(subscriptionTask, { ...ok(2), statusCode: 503 });
    expect(await repository.isSettled(subscriptionTask)).toBe(false);
    await repository.recordAttempt(subscriptionTask, ok(3));
    expect(await repository.isSettled(subscriptionTask)).toBe(true);

    for (const status of ['dead', 'canceled'] as const) {
      const task = { ...subscriptionTask, resendId: `rsd_${status}` };
      expect(await repository.isSettled(task)).toBe(false);
      await repository.settle(task, status);
      expect(await repository.isSettled(task)).toBe(true);
    }
    const before = { ...subscriptionTask, resendId: 'rsd_before' };
    await createDocumentClient().send(new PutCommand({ TableName: tableName, Item: { ...keys.deliveryState(event.envelope.id, deliveryKey(before)), status: 'delivered' } }));
    expect(await repository.isSettled(before)).toBe(true);

    // One page of the event's newest attempts, however many its replays add: a 2xx older than
    // ATTEMPTS_PER_EVENT of them is not looked for (a duplicate, which receivers deduplicate).
    const replays = Array.from({ length: ATTEMPTS_PER_EVENT }, (_, n) => ({ ...urlTask, resendId: `rsd_${n}` }));
    for (const replay of replays) await repository.recordAttempt(replay, { ...ok(1), at: new Date(Date.now() + 60_000).toISOString() });
    expect([await repository.isSettled(replays[0]), await repository.isSettled(subscriptionTask)]).toEqual([true, false]);
  });
});

describe('fan-out against the table, delivered over HTTP', () => {
  test('only the subscriptions of the event org + mode whose patterns match; each target signed with its own secret', async () => {
    const tableName = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName);
    const db = createDocumentClient();
    const directory = createDirectory(db, tableName);
    const webhooks = createWebhookRepository(db, tableName, sealer);
    const [org, other] = [await directory.createOrganization('A'), await directory.createOrganization('B')];
    const receivers = await Promise.all([1, 2, 3].map(() => startWebhookReceiver()));
    try {
      const links = await webhooks.create({ orgId: org.id, mode: 'test', url: receivers[0].url, events: ['transactions.payment_link.*'] });
      const all = await webhooks.create({ orgId: org.id, mode: 'test', url: receivers[1].url, events: ['*'] });
      await webhooks.create({ orgId: org.id, mode: 'test', url: receivers[2].url, events: ['transactions.chargeback.open'] });
      await webhooks.create({ orgId: org.id, mode: 'live', url: receivers[2].url, events: ['*'] });
      await webhooks.create({ orgId: other.id, mode: 'test', url: receivers[2].url, events: ['*'] });
      const published = newEvent({
        type: 'transactions.payment_link.expired',
        orgId: org.id,
        mode: 'test',
        data: { id: 'pl_1' },
        targetUrls: [receivers[2].url],
      });

      const service = webhookServiceFor({ db, tableName }, LOCAL_WEBHOOK_SETTINGS, { deadLetters: { park: async () => { throw new Error('nothing is dead-lettered here'); } }, sealer });
      const tasks = await service.plan(published);
      expect(tasks.map((task) => task.target.key).sort()).toEqual([links.id, all.id, urlTargetKey(receivers[2].url)].sort());
      const outcomes = await Promise.all(tasks.map((task) => service.deliver(task)));
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['delivered', 'delivered', 'delivered']);

      const secrets = [links.secret, all.secret, await createSigningSecrets(db, tableName, sealer).urlSecret(org.id, 'test')];
      receivers.forEach((receiver, n) => {
        expect(receiver.requests).toHaveLength(1);
        expect(receiver.verify(receiver.requests[0], secrets[n])).toEqual(published.envelope);
      });
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  });
});
