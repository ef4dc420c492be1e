import type { WebhookSubscription } from '../../../shared/domain/webhooks';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { randomUUID } from 'node:crypto';
import { AWS_LIMITS, putEventsEntrySize } from '../../../shared/aws-limits';
import { createDocumentClient } from '../../../shared/db/client';
import { createDirectory } from '../../../shared/db/directory';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { firstAttempts, type DeliveryTask, type PublishedEvent } from '../../../shared/domain/webhook-delivery';
import { newEvent } from '../../../shared/events';
import { outboxItem } from '../../../shared/db/outbox';
import { createOutboxHandler, type CreditRoller } from '../../../shared/outbox-handler';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { webhookServiceFor, type WebhookService } from '../../../shared/services/webhook-delivery';
import { inProcessSealer } from '../../support/sealer';
import { createEventBridgePublisher } from '../../../shared/webhooks/eventbridge-publisher';
import { createSqsWebhookConsumer } from '../../../shared/webhooks/sqs-consumer';
import { createSqsDeliveryQueue, MAX_VISIBILITY_SECONDS, type SqsDeliveryQueue } from '../../../shared/webhooks/sqs-delivery-queue';
import { EVENT_SOURCE } from '../../../shared/webhooks/stream-records';
import { LOCAL_WEBHOOK_SETTINGS } from '../../../shared/webhooks/settings';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

const eventBridge = mockClient(EventBridgeClient);
const sqs = mockClient(SQSClient);
afterEach(() => {
  eventBridge.reset();
  sqs.reset();
});

const noWait = { sleep: async () => {} };
const urls = { queueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/webhooks', deadLetterQueueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/webhooks-dlq' };
const event = (n = 0, extra: Partial<PublishedEvent> = {}): PublishedEvent => ({
  ...newEvent({ type: `transactions.payment_link.created`, orgId: 'org_1', mode: 'test', data: { n } }),
  ...extra,
});
const entriesOf = (call: { args: [unknown] }) => (call.args[0] as { input: { Entries: unknown[] } }).input.Entries;

describe('EventBridge publisher', () => {
  const publisher = () => createEventBridgePublisher(new EventBridgeClient({ region: 'eu-west-1' }), 'bus', noWait);

  test('PutEvents in batches of at most 10: source, detail-type = event type, detail = the stored outbox event', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: randomUUID() })) }));
    const events = Array.from({ length: 23 }, (_, n) => event(n));
    expect(await publisher().publish(events)).toEqual([]);
    const calls = eventBridge.commandCalls(PutEventsCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 10, 3]);
    expect(calls[0].args[0].input.Entries![0]).toEqual({
      EventBusName: 'bus',
      Source: EVENT_SOURCE,
      DetailType: 'transactions.payment_link.created',
      Detail: JSON.stringify(events[0]),
      Time: new Date(events[0].envelope.triggered_at),
    });
  });

  test('failed entries (and only those) are sent again', async () => {
    const events = [event(1), event(2), event(3)];
    eventBridge
      .on(PutEventsCommand)
      .resolvesOnce({ FailedEntryCount: 1, Entries: [{ EventId: 'a' }, { ErrorCode: 'InternalFailure', ErrorMessage: 'x' }, { EventId: 'c' }] })
      .resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'b' }] });
    expect(await publisher().publish(events)).toEqual([]);
    const calls = eventBridge.commandCalls(PutEventsCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1].args[0].input.Entries!.map((entry) => entry.Detail)).toEqual([JSON.stringify(events[1])]);
  });

  test('PutEvents batches also stay within EventBridge\'s size limit: large events travel in smaller batches', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: randomUUID() })) }));
    const large = Array.from({ length: 5 }, (_, n) => event(n, { targetUrls: ['x'.repeat(AWS_LIMITS.eventBridge.putEventsBytes / 3)] }));
    expect(await publisher().publish(large)).toEqual([]);
    const batches = eventBridge.commandCalls(PutEventsCommand).map((call) => call.args[0].input.Entries!);
    expect(batches.map((entries) => entries.length)).toEqual([2, 2, 1]);
    for (const entries of batches) expect(entries.reduce((sum, entry) => sum + putEventsEntrySize(entry), 0)).toBeLessThanOrEqual(AWS_LIMITS.eventBridge.putEventsBytes);
  });

  test('entries still failing after the last retry (or a throwing call) are returned as unpublished', async () => {
    eventBridge.on(PutEventsCommand).rejects(new Error('throttled'));
    const events = [event(1), event(2)];
    expect(await publisher().publish(events)).toEqual(events);
    expect(eventBridge.commandCalls(PutEventsCommand)).toHaveLength(4);
  });
});

describe('outbox handler', () => {
  const rollsAll: CreditRoller = async () => [];
  let sequence = 0;
  const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Record<string, unknown>): DynamoDBRecord => ({
    eventName,
    dynamodb: {
      Keys: marshall({ PK: item.PK, SK: item.SK }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      SequenceNumber: String(++sequence).padStart(21, '0'),
    },
  });
  const first = event(1, { targetUrls: ['https://merchant.example/hook'] });
  const second = event(2);
  const records = [
    record('INSERT', outboxItem(first)),
    record('MODIFY', outboxItem(event(9))),
    record('INSERT', { PK: `EVT#${first.envelope.id}`, SK: 'DLV#whk_1#2026', statusCode: 500 }),
    record('INSERT', { PK: 'PAY#pay_1', SK: 'PAY' }),
    record('INSERT', { ...outboxItem(second), SK: 'RESEND#rs1', resendId: 'rs1' }),
  ];

  test('publishes only inserted outbox events and replay requests, as stored', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'a' }, { EventId: 'b' }] });
    const handler = createOutboxHandler(createEventBridgePublisher(new EventBridgeClient({ region: 'eu-west-1' }), 'bus', noWait), rollsAll, async () => []);
    expect(await handler({ Records: records } as DynamoDBStreamEvent)).toEqual({ batchItemFailures: [] });
    const details = entriesOf(eventBridge.commandCalls(PutEventsCommand)[0] as never).map((entry) => JSON.parse((entry as { Detail: string }).Detail));
    expect(details).toEqual([first, { ...second, resendId: 'rs1' }]);
  });

  test('an event that cannot be published is reported (its record and all after it are retried by the stream)', async () => {
    // The replayed event fails every time; the first one is published.
    eventBridge.on(PutEventsCommand).callsFake((input) => {
      const entries = input.Entries.map((entry: { Detail: string }) =>
        entry.Detail.includes(second.envelope.id) ? { ErrorCode: 'InternalFailure' } : { EventId: randomUUID() },
      );
      return { FailedEntryCount: entries.filter((entry: { ErrorCode?: string }) => entry.ErrorCode).length, Entries: entries };
    });
    const handler = createOutboxHandler(createEventBridgePublisher(new EventBridgeClient({ region: 'eu-west-1' }), 'bus', noWait), rollsAll, async () => []);
    const result = await handler({ Records: records } as DynamoDBStreamEvent);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: records[4].dynamodb!.SequenceNumber }] });
  });

  const entry = (id: string, extra: Record<string, unknown> = {}) => ({ PK: `BTX#${id}`, SK: 'BTX', id, orgId: 'org_1', mode: 'test', currency: 'EUR', type: 'payment', amountMinor: 700, ...extra });

  test('hands only new pending credits to the roller, and reports the first record it could not carry, credit or event', async () => {
    // Prepare: a pending credit, an entry already in its balance, the mark's removal, then an event.
    eventBridge.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: randomUUID() })) }));
    const carried = [
      record('INSERT', entry('btx_1', { pendingCredit: true })),
      record('INSERT', entry('btx_2', { type: 'refund', amountMinor: -100 })),
      record('MODIFY', entry('btx_0')),
      record('INSERT', outboxItem(first)),
    ];
    const handed: unknown[] = [];
    const failsAll: CreditRoller = async (credits) => {
      handed.push(...credits);
      return credits;
    };
    const handler = createOutboxHandler(createEventBridgePublisher(new EventBridgeClient({ region: 'eu-west-1' }), 'bus', noWait), failsAll, async () => []);
    // Act
    const result = await handler({ Records: carried } as DynamoDBStreamEvent);
    // Assess: the credit failed before the event: the stream hands both over again (the event is a tolerated duplicate).
    expect(handed).toEqual([{ id: 'btx_1', ref: { orgId: 'org_1', mode: 'test', currency: 'EUR' }, amountMinor: 700 }]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: carried[0].dynamodb!.SequenceNumber }] });
  });
});

describe('SQS delivery queue', () => {
  const now = Date.parse('2026-11-21T10:00:00.000Z');
  const queue = () => createSqsDeliveryQueue(new SQSClient({ region: 'eu-west-1' }), urls, { ...noWait, now: () => now });
  const tasks = (count: number): DeliveryTask[] =>
    Array.from({ length: count }, (_, n) => ({
      kind: 'webhook_delivery',
      event: { envelope: event(n).envelope, orgId: 'org_1' },
      target: { key: `whk_${n}`, url: `https://example.com/${n}`, subscriptionId: `whk_${n}` },
      attempt: 1,
      history: [],
    }));

  test('fan-out messages go in SendMessageBatch calls of at most 10 entries', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const sent = tasks(25);
    await queue().enqueue(sent);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 10, 5]);
    expect(calls.every((call) => call.args[0].input.QueueUrl === urls.queueUrl)).toBe(true);
    expect(calls.flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)))).toEqual(sent);
  });

  test('every message names its organization and mode as its message group (SQS fair queues)', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    sqs.on(SendMessageCommand).resolves({});
    const [task] = tasks(1);
    await queue().enqueue([task]);
    await queue().retryLater(task, 60_000);
    const groups = [
      ...sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => entry.MessageGroupId)),
      ...sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.MessageGroupId),
    ];
    expect(groups).toEqual([`org_1#${task.event.envelope.mode}`, `org_1#${task.event.envelope.mode}`]);
  });

  test('entries that fail in a batch are sent again alone; entries that keep failing make enqueue throw', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [{ Id: '0', MessageId: 'a', MD5OfMessageBody: 'x' }], Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }] })
      .resolves({ Successful: [], Failed: [] });
    const sent = tasks(2);
    await queue().enqueue(sent);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!).target.key))).toEqual([
      ['whk_0', 'whk_1'],
      ['whk_1'],
    ]);

    sqs.reset();
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    await expect(queue().enqueue(tasks(1))).rejects.toThrow(/1 of 1 deliveries could not be queued/);
  });

  test('a retry up to 15 minutes away is an SQS delay; a longer one is the maximum delay plus notBefore', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    const [task] = tasks(1);
    await queue().retryLater(task, 30_000);
    await queue().retryLater(task, 2 * 3_600_000);
    const [short, long] = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(short).toMatchObject({ QueueUrl: urls.queueUrl, DelaySeconds: 30 });
    expect(JSON.parse(short.MessageBody!)).toEqual(task);
    expect(long).toMatchObject({ QueueUrl: urls.queueUrl, DelaySeconds: 900 });
    expect(JSON.parse(long.MessageBody!)).toEqual({ ...task, notBefore: '2026-11-21T12:00:00.000Z' });
  });

  test('postpone hides a received message again, never beyond the 12-hour visibility limit', async () => {
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    await queue().postpone('rh-1', 600);
    await queue().postpone('rh-2', 20 * 3600);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: urls.queueUrl, ReceiptHandle: 'rh-1', VisibilityTimeout: 600 },
      { QueueUrl: urls.queueUrl, ReceiptHandle: 'rh-2', VisibilityTimeout: MAX_VISIBILITY_SECONDS },
    ]);
  });
});

describe('SQS consumer: fan-out and delivery (DynamoDB Local, HTTP receivers, mocked SQS)', () => {
  let receivers: WebhookReceiver[];
  let consumer: ReturnType<typeof createSqsWebhookConsumer>;
  let published: PublishedEvent;
  let tasks: DeliveryTask[];
  let tableName: string;
  let queue: SqsDeliveryQueue;
  let service: WebhookService;
  let subscriptions: WebhookSubscription[];
  const now = Date.now();
  const db = createDocumentClient();
  const sealer = inProcessSealer();

  beforeAll(async () => {
    tableName = `test-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName);
    const org = await createDirectory(db, tableName).createOrganization('Consumer org');
    receivers = await Promise.all([1, 2].map(() => startWebhookReceiver()));
    const webhooks = createWebhookRepository(db, tableName, sealer);
    subscriptions = [
      await webhooks.create({ orgId: org.id, mode: 'test', url: receivers[0].url, events: ['*'] }),
      await webhooks.create({ orgId: org.id, mode: 'test', url: receivers[1].url, events: ['transactions.payment_link.*'] }),
    ];
    published = { ...newEvent({ type: 'transactions.payment_link.expired', orgId: org.id, mode: 'test', data: { id: 'pl_1' } }), targetUrls: [receivers[0].url] };
    tasks = firstAttempts(published, subscriptions);
    queue = createSqsDeliveryQueue(new SQSClient({ region: 'eu-west-1' }), urls, noWait);
    service = webhookServiceFor(
      { db, tableName },
      { ...LOCAL_WEBHOOK_SETTINGS, policy: { scheduleMs: [30_000, 2 * 3_600_000], jitter: 0 } },
      { deadLetters: queue.deadLetters, sealer },
    );
    consumer = createSqsWebhookConsumer({ plan: service.plan, batchDeliverer: service.batchDeliverer, queue, now: () => now });
  });
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

  const sqsRecord = (body: unknown, id = randomUUID()): SQSRecord => ({ messageId: id, receiptHandle: `rh-${id}`, body: JSON.stringify(body) }) as SQSRecord;
  const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

  test('a bus event from the rule becomes one queue message per target', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const busEvent = { version: '0', id: randomUUID(), 'detail-type': published.envelope.type, source: EVENT_SOURCE, detail: published };
    expect(await consumer(batch(sqsRecord(busEvent)))).toEqual({ batchItemFailures: [] });
    const messages = sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => JSON.parse(entry.MessageBody!)));
    expect(messages.map((message: DeliveryTask) => message.target.url).sort()).toEqual([receivers[0].url, receivers[0].url, receivers[1].url].sort());
    expect(messages.every((message: DeliveryTask) => message.attempt === 1 && message.event.envelope.id === published.envelope.id)).toBe(true);
  });

  test('a delivery message: one signed attempt; a failure goes back to the queue with its delay; a bad message alone is reported', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    receivers[1].failNext(1);
    const good = sqsRecord(tasks[0]);
    const failing = sqsRecord(tasks[1]);
    const bad = sqsRecord({ hello: 'world' });
    const result = await consumer(batch(good, failing, bad));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: bad.messageId }] });
    expect(receivers[0].delivered()).toHaveLength(1);
    expect(answers(receivers[1])).toEqual([500]);
    const [retry] = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(retry).toMatchObject({ QueueUrl: urls.queueUrl, DelaySeconds: 30 });
    expect(JSON.parse(retry.MessageBody!)).toMatchObject({ attempt: 2, target: tasks[1].target, history: [{ attempt: 1, statusCode: 500 }] });
  });

  test("a batch's deliveries of one organization share one of its slots: with a single slot, each is attempted, none postponed", async () => {
    // Prepare: one slot per organization, and a batch of four deliveries of one organization
    const oneSlot = webhookServiceFor({ db, tableName }, { ...LOCAL_WEBHOOK_SETTINGS, inFlight: { perTenant: 1, busyRetryMs: 200 } }, { deadLetters: queue.deadLetters, sealer });
    const sharing = createSqsWebhookConsumer({ plan: oneSlot.plan, batchDeliverer: oneSlot.batchDeliverer, queue, now: () => now });
    const event = { ...newEvent({ type: 'transactions.payment_link.created', orgId: published.orgId, mode: 'test', data: { id: 'pl_2' } }), targetUrls: receivers.map((receiver) => receiver.url) };
    const records = firstAttempts(event, subscriptions).map((task) => sqsRecord(task));
    sqs.reset();

    // Act
    const result = await sharing(batch(...records));

    // Assess: every delivery reached its receiver; none went back to the queue as busy
    expect(records).toHaveLength(4);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(receivers.flatMap((receiver) => receiver.delivered()).filter((request) => request.envelope.id === event.envelope.id)).toHaveLength(4);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  test('a message received before its notBefore is hidden again and reported, without an attempt', async () => {
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const early = sqsRecord({ ...tasks[2], attempt: 3, notBefore: new Date(now + 3_600_000).toISOString() });
    const seen = receivers[0].requests.length;
    expect(await consumer(batch(early))).toEqual({ batchItemFailures: [{ itemIdentifier: early.messageId }] });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0].args[0].input).toEqual({
      QueueUrl: urls.queueUrl,
      ReceiptHandle: early.receiptHandle,
      VisibilityTimeout: 3600,
    });
    expect(receivers[0].requests).toHaveLength(seen);
  });

  test('an attempt the table will not record goes back to the queue to be recorded, without a second POST', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    const failingTable = createDocumentClient();
    failingTable.middlewareStack.add(
      (next) => async (args) => {
        if ((args.input as { Item?: { entity?: string } }).Item?.entity === 'delivery_attempt') throw new Error('ProvisionedThroughputExceededException');
        return next(args);
      },
      { step: 'initialize', name: 'refuseAttemptRecords' },
    );
    const refusing = webhookServiceFor({ db: failingTable, tableName }, { ...LOCAL_WEBHOOK_SETTINGS, policy: { scheduleMs: [30_000], jitter: 0 } }, { deadLetters: queue.deadLetters, sealer });
    const unrecordedConsumer = createSqsWebhookConsumer({ plan: refusing.plan, batchDeliverer: refusing.batchDeliverer, queue, now: () => now });
    const seen = receivers[0].requests.length;
    expect(await unrecordedConsumer(batch(sqsRecord(tasks[2])))).toEqual({ batchItemFailures: [] });
    const [again] = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(again).toMatchObject({ QueueUrl: urls.queueUrl, DelaySeconds: 1 });
    const message = JSON.parse(again.MessageBody!);
    expect(message).toMatchObject({ attempt: 1, history: [], made: { tries: 1, record: { attempt: 1, statusCode: 200 } } });

    expect(await consumer(batch(sqsRecord(message)))).toEqual({ batchItemFailures: [] });
    expect(receivers[0].requests).toHaveLength(seen + 1);
    expect(await service.deliver(tasks[2])).toEqual({ kind: 'skipped', reason: 'already settled' });
  });

  test('the last attempt failing parks the delivery in the dead-letter queue with its whole history', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm' });
    receivers[1].failNext(1);
    const history = [
      { attempt: 1, at: new Date(now).toISOString(), url: tasks[1].target.url, statusCode: 500, durationMs: 3 },
      { attempt: 2, at: new Date(now).toISOString(), url: tasks[1].target.url, statusCode: 502, durationMs: 4 },
    ];
    const last = sqsRecord({ ...tasks[1], attempt: 3, history });
    expect(await consumer(batch(last))).toEqual({ batchItemFailures: [] });
    const [parked] = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(parked.QueueUrl).toBe(urls.deadLetterQueueUrl);
    const body = JSON.parse(parked.MessageBody!);
    expect(body.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 502, 500]);
    // A reference to the event, never a copy of it (an SQS message stays far below 256 KB).
    expect(body).toMatchObject({ target: tasks[1].target, eventId: published.envelope.id, type: published.envelope.type, parkedAt: expect.any(String) });
    expect(body).not.toHaveProperty('event');
  });
});

const answers = (receiver: WebhookReceiver) => receiver.requests.map((request) => request.answeredWith);
