import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { paymentItem } from '../../../shared/db/payment-repository';
import { createDeliveryRepository } from '../../../shared/db/delivery-repository';
import { createSigningSecrets, createWebhookRepository, type WebhookRepository } from '../../../shared/db/webhook-repository';
import type { DeadLetter } from '../../../shared/domain/webhook-delivery';
import { urlTargetKey } from '../../../shared/domain/webhooks';
import { newEvent, type OutboxEvent } from '../../../shared/events';
import { outboxPut } from '../../../shared/db/outbox';
import { newId } from '../../../shared/ids';
import { webhookServiceFor } from '../../../shared/services/webhook-delivery';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { isoMillis } from '../../../shared/time';
import { LOCAL_WEBHOOK_SETTINGS, type WebhookSettings } from '../../../shared/webhooks/settings';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

const FAST: WebhookSettings = { ...LOCAL_WEBHOOK_SETTINGS, policy: { scheduleMs: [50, 100, 200], jitter: 0.2 } };

/** The dead letters the webhook queue's redrive and the deliverer parked in the dead-letter queue. */
const deadLettersOf = (stack: TestStack) => stack.aws.queueMessages('WebhookDeadLetters').map((message) => JSON.parse(message.body) as DeadLetter);

/**
 * A domain-like state change: a payment is written together with its events in one
 * TransactWriteItems, exactly as the resources' use cases write their outbox.
 */
async function commit(stack: TestStack, merchant: Merchant, events: OutboxEvent[]): Promise<void> {
  const now = isoMillis();
  await stack.db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: stack.tableName,
            Item: paymentItem({
              id: newId('payment'),
              orgId: merchant.orgId,
              mode: 'test',
              acceptorId: merchant.acceptorId,
              paymentLinkId: newId('paymentLink'),
              status: 'paid',
              amountMinor: 1000,
              currency: 'EUR',
              createdAt: now,
              paidAt: now,
            }),
          },
        },
        ...events.map((event) => outboxPut(stack.tableName, event)),
      ],
    }),
  );
}

const linkEvent = (merchant: Merchant, type: string, extra: Partial<Parameters<typeof newEvent>[0]> = {}) =>
  newEvent({ type, orgId: merchant.orgId, mode: 'test', data: { id: 'pl_demo', object: 'payment_link', status: 'active' }, ...extra });

const answers = (receiver: WebhookReceiver) => receiver.requests.map((request) => request.answeredWith);

describe('local pipeline: stream -> fan-out -> signed delivery (startLocalStack background)', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let webhooks: WebhookRepository;
  const created: string[] = [];
  /** A subscription that lives for one test (its receiver closes at the end of the test). */
  const subscribe = async (receiver: WebhookReceiver, events: string[]) => {
    const subscription = await webhooks.create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events });
    created.push(subscription.id);
    return subscription;
  };
  afterEach(async () => {
    for (const id of created.splice(0)) await webhooks.delete(id);
  });

  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.1,0.2';
    // The slow receiver is held while the broken one's four attempts run: longer than that, so its one attempt is not retried.
    process.env.WEBHOOK_TIMEOUT_MS = '30000';
    stack = await startTestStack({ background: true });
    merchant = await createMerchant(stack);
    webhooks = createWebhookRepository(stack.db, stack.tableName, stack.sealer);
  });
  afterAll(async () => {
    await stack.stop();
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    delete process.env.WEBHOOK_TIMEOUT_MS;
  });

  test('a receiver subscribed to transactions.payment_link.* gets each of its events exactly once, signed, in the contract envelope', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const subscription = await subscribe(receiver, ['transactions.payment_link.*']);
      const expected = [
        linkEvent(merchant, 'transactions.payment_link.created'),
        linkEvent(merchant, 'transactions.payment_link.properties.changed'),
        linkEvent(merchant, 'transactions.payment_link.remaining_payments.decremented'),
        linkEvent(merchant, 'transactions.payment_link.auto_inactivated'),
        linkEvent(merchant, 'transactions.payment_link.expired'),
      ];
      const ignored = [
        linkEvent(merchant, 'transactions.chargeback.open'),
        linkEvent(merchant, 'transactions.payment_link.created', { mode: 'live' }),
      ];
      await commit(stack, merchant, [expected[0]]);
      await commit(stack, merchant, [expected[1], ignored[0]]);
      await commit(stack, merchant, [expected[2], expected[3], ignored[1]]);
      await commit(stack, merchant, [expected[4]]);
      await receiver.waitFor(() => receiver.delivered().length >= expected.length, 'the five payment-link events');

      // A later event of the same stream: anything duplicated or misrouted would have come by now.
      const sentinel = linkEvent(merchant, 'transactions.payment_link.checkout.requested');
      await commit(stack, merchant, [sentinel]);
      await receiver.waitFor(() => receiver.requests.some((r) => r.envelope?.id === sentinel.envelope.id), 'the sentinel event');

      const received = receiver.requests.filter((r) => r.envelope.id !== sentinel.envelope.id);
      expect(received.map((r) => r.envelope.id).sort()).toEqual(expected.map((e) => e.envelope.id).sort());
      for (const request of received) {
        const event = expected.find((e) => e.envelope.id === request.envelope.id)!;
        expect(receiver.verify(request, subscription.secret)).toEqual(event.envelope);
        expect(request.headers['webhook-id']).toBe(event.envelope.id);
        expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
        expect(request.envelope).toEqual({
          id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
          object: 'event',
          type: event.envelope.type,
          triggered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          version: '2026-11-21',
          mode: 'test',
          data: { id: 'pl_demo', object: 'payment_link', status: 'active' },
        });
      }
    } finally {
      await receiver.close();
    }
  });

  test('500 three times then 200 -> delivered on the 4th attempt; always failing -> dead-letter store; neither delays nor repeats a healthy receiver', async () => {
    const [healthy, flaky, broken, slow] = await Promise.all([1, 2, 3, 4].map(() => startWebhookReceiver()));
    try {
      flaky.failNext(3);
      broken.failAlways();
      slow.hold();
      const expired = ['transactions.payment_link.expired'];
      await subscribe(healthy, expired);
      await subscribe(flaky, expired);
      const brokenSubscription = await subscribe(broken, expired);
      await subscribe(slow, expired);
      const event = linkEvent(merchant, 'transactions.payment_link.expired');
      await commit(stack, merchant, [event]);

      await healthy.waitFor(() => healthy.delivered().length === 1, 'the healthy delivery');
      // The slow endpoint has not answered yet: the healthy one did not wait for it.
      expect(slow.delivered()).toHaveLength(0);

      await flaky.waitFor(() => flaky.delivered().length === 1, 'the 4th attempt of the flaky endpoint');
      expect(answers(flaky)).toEqual([500, 500, 500, 200]);
      expect(new Set(flaky.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.envelope.id]));

      let parked: DeadLetter[] = [];
      await broken.waitFor(() => broken.requests.length === 4, 'four attempts at the broken endpoint');
      await broken.waitFor(() => (parked = deadLettersOf(stack)).some((entry) => entry.target.key === brokenSubscription.id), 'the dead letter');
      const deadLetter = parked.find((entry) => entry.target.key === brokenSubscription.id)!;
      // The dead letter refers to the event (kept in the table, replayable), it does not copy it.
      expect(deadLetter).toMatchObject({ eventId: event.envelope.id, type: event.envelope.type, orgId: event.orgId });
      expect(deadLetter).not.toHaveProperty('event');
      expect(deadLetter.target).toEqual({ key: brokenSubscription.id, url: broken.url, subscriptionId: brokenSubscription.id });
      expect(deadLetter.attempts.map((attempt) => [attempt.attempt, attempt.statusCode])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
        [4, 500],
      ]);
      expect(answers(broken)).toEqual([500, 500, 500, 500]);

      slow.release();
      await slow.waitFor(() => slow.delivered().length === 1, 'the slow delivery');
      expect(healthy.requests).toHaveLength(1);

      const attempts = (await createDeliveryRepository(stack.db, stack.tableName).attemptPage(event.envelope.id, { limit: 100 })).items;
      expect(attempts.filter((a) => a.targetKey === brokenSubscription.id).map((a) => a.statusCode)).toEqual([500, 500, 500, 500]);
      expect(attempts.every((a) => a.url && a.at && typeof a.durationMs === 'number')).toBe(true);
    } finally {
      await Promise.all([healthy, flaky, broken, slow].map((receiver) => receiver.close()));
    }
  });

  test('per-object URLs (a refund webhook_url) get the event signed with the org+mode URL secret', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const event = newEvent({
        type: 'transactions.refund.refunded',
        orgId: merchant.orgId,
        mode: 'test',
        data: { id: 'rf_demo', object: 'refund' },
        targetUrls: [receiver.url],
      });
      await commit(stack, merchant, [event]);
      await receiver.waitFor(() => receiver.delivered().length === 1, 'the refund event');
      expect(receiver.verify(receiver.requests[0], await createSigningSecrets(stack.db, stack.tableName, stack.sealer).urlSecret(merchant.orgId, 'test'))).toEqual(event.envelope);
    } finally {
      await receiver.close();
    }
  });

  test('a duplicate publish is harmless: the same event fanned out again delivers nothing twice', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const event = newEvent({ type: 'transactions.refund.pending', orgId: merchant.orgId, mode: 'test', data: {}, targetUrls: [receiver.url] });
      await commit(stack, merchant, [event]);
      await receiver.waitFor(() => receiver.delivered().length === 1, 'the first delivery');

      const service = webhookServiceFor({ db: stack.db, tableName: stack.tableName }, FAST, { deadLetters: { park: async () => undefined }, sealer: stack.sealer });
      const tasks = await service.plan(event);
      expect(tasks.map((task) => task.target.key)).toEqual([urlTargetKey(receiver.url)]);
      // The receiver has its answer before the outcome is recorded: wait for the record.
      await receiver.waitFor(() => createDeliveryRepository(stack.db, stack.tableName).isSettled(tasks[0]), 'the outcome recorded');
      // The same task delivered again (a second publish, an SQS duplicate): the attempt sees it settled.
      expect(await service.deliver(tasks[0])).toEqual({ kind: 'skipped', reason: 'already settled' });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  test('ops event resend replays a delivered event to its subscriptions, same webhook-id', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const subscription = await subscribe(receiver, ['transactions.payment_link.created']);
      const event = linkEvent(merchant, 'transactions.payment_link.created');
      await commit(stack, merchant, [event]);
      await receiver.waitFor(() => receiver.delivered().length === 1, 'the first delivery');

      await runOps(opsCommands(), ['event', 'resend', '--id', event.envelope.id]);
      await receiver.waitFor(() => receiver.delivered().length === 2, 'the replay');
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([event.envelope.id, event.envelope.id]);
      expect(receiver.verify(receiver.requests[1], subscription.secret)).toEqual(event.envelope);
    } finally {
      await receiver.close();
    }
  });
});

describe('local pipeline: restarts lose nothing', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let receiver: WebhookReceiver;
  // Where the stream mappings keep their place and the queues their messages across the restarts, as `npm start`'s data folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'pipeline-restarts-'));
  /** A new stack on the same table and data folder, its functions cold: their modules load anew, as in new execution environments. */
  const startAgain = () => {
    jest.resetModules();
    return startTestStack({ background: true, restartOf: { tableName: stack.tableName, dataDir } });
  };

  beforeAll(async () => {
    // A failed attempt's retry waits two seconds in the queue: long enough to stop the stack meanwhile.
    process.env.WEBHOOK_RETRY_SCHEDULE = '2';
    // The file's first stack ran the functions in this process: this one's start cold.
    jest.resetModules();
    stack = await startTestStack({ background: true, restartOf: { tableName: `test-${randomUUID()}`, dataDir } });
    merchant = await createMerchant(stack);
    receiver = await startWebhookReceiver();
    await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['*'] });
  });
  afterAll(async () => {
    await receiver.close();
    await stack.stop();
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('stack stopped between commit and publish: the event is delivered after the restart, earlier ones not again', async () => {
    // Prepare: one event delivered, then the stack stopped
    const before = linkEvent(merchant, 'transactions.payment_link.created');
    await commit(stack, merchant, [before]);
    await receiver.waitFor(() => receiver.delivered().length === 1, 'the event before the stop');
    await stack.stop();

    // Act: an event committed while it is stopped, then a restart and one more event
    const during = linkEvent(merchant, 'transactions.payment_link.properties.changed');
    await commit(stack, merchant, [during]);
    expect(receiver.requests).toHaveLength(1);
    stack = await startAgain();
    await receiver.waitFor(() => receiver.requests.some((r) => r.envelope.id === during.envelope.id), 'the event committed while stopped');
    const after = linkEvent(merchant, 'transactions.payment_link.expired');
    await commit(stack, merchant, [after]);
    await receiver.waitFor(() => receiver.requests.some((r) => r.envelope.id === after.envelope.id), 'the event after the restart');

    // Assess
    expect(receiver.requests.map((r) => r.envelope.id)).toEqual([before.envelope.id, during.envelope.id, after.envelope.id]);
  });

  test('a retry waiting in the queue when the stack stops is delivered after the restart', async () => {
    // Prepare: the first attempt fails, its retry waits in the queue
    receiver.failNext(1);
    const event = linkEvent(merchant, 'transactions.payment_link.checkout.denied');
    const seen = receiver.requests.length;
    await commit(stack, merchant, [event]);
    await receiver.waitFor(() => receiver.requests.length === seen + 1, 'the failed first attempt');
    expect(answers(receiver).at(-1)).toBe(500);
    await receiver.waitFor(() => {
      const states = stack.aws.queueMessages('WebhookDeliveries').filter((message) => message.body.includes(event.envelope.id)).map((message) => message.state);
      return states.length === 1 && states[0] === 'delayed';
    }, 'the retry waiting in the queue, its attempt over');

    // Act
    await stack.stop();
    stack = await startAgain();

    // Assess
    await receiver.waitFor(() => receiver.delivered().some((r) => r.envelope.id === event.envelope.id), 'the retried delivery');
    expect(receiver.requests.filter((r) => r.envelope.id === event.envelope.id).map((r) => r.answeredWith)).toEqual([500, 200]);
  });
});
