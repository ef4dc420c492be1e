import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { outboxItem } from '../../../shared/db/outbox';
import type { Refund } from '../../../shared/domain/refunds';
import { newEvent, type OutboxEvent } from '../../../shared/events';
import { lambdaContext } from '../../../bin/local/invocation';
import { METRIC, metricsNamespace } from '../../../shared/observability/catalog';

const METRICS_NAMESPACE = metricsNamespace('test');

let sequence = 0;
const record = (event: OutboxEvent, extra: Record<string, unknown> = {}): DynamoDBRecord => {
  const item = { ...outboxItem(event), ...extra };
  return {
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall({ PK: item.PK, SK: item.SK }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      SequenceNumber: String(++sequence).padStart(21, '0'),
    },
  };
};
const event = (type: string, data: Record<string, unknown> = {}) => newEvent({ type, orgId: 'org_secret_tenant', mode: 'live', data });

type EmfDocument = Record<string, unknown> & { _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] } };

/** The EMF documents written while `act` runs. */
async function emfOf(act: () => Promise<unknown>): Promise<EmfDocument[]> {
  const written: string[] = [];
  const log = console.log;
  const write = process.stdout.write.bind(process.stdout);
  console.log = (line: unknown) => void written.push(String(line));
  process.stdout.write = ((chunk: unknown) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    await act();
  } finally {
    console.log = log;
    process.stdout.write = write;
  }
  return written.flatMap((chunk) => chunk.split('\n')).filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line));
}

describe('Module: observability/metrics', () => {
  const env = { ...process.env };
  beforeAll(() => {
    // As the stack configures a function: a namespace, so metrics are on.
    process.env.METRICS_NAMESPACE = METRICS_NAMESPACE;
    delete process.env.METRICS_DISABLED;
  });
  afterAll(() => {
    process.env = env;
  });

  test('outbox processor: business metrics once per new event, none for replays or unpublished records, never an organization dimension', async () => {
    // Prepare
    let handler!: (event: DynamoDBStreamEvent, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;
    await jest.isolateModulesAsync(async () => {
      const { observed } = await import('../../../shared/observability/middleware');
      const { createOutboxHandler } = await import('../../../shared/outbox-handler');
      const failing = 'transactions.chargeback.open';
      handler = observed(createOutboxHandler({ publish: async (events) => events.filter((published) => published.envelope.type === failing) }, async () => [], async () => []));
    });
    const records = [
      record(event('transactions.payment.paid')),
      record(event('transactions.payment_link.checkout.denied', { reason: 'expired' })),
      record(event('transactions.refund.pending', { on_hold: true })),
      record({ ...event('transactions.payment.paid') }, { SK: 'RESEND#rs_1', resendId: 'rs_1' }),
      record(event('transactions.chargeback.open')),
      record(event('transactions.refund.failed')),
    ];

    // Act
    const documents = await emfOf(() => handler({ Records: records }, lambdaContext('process-outbox')));

    // Assess
    const counted = documents.flatMap((document) =>
      document._aws.CloudWatchMetrics.flatMap((directive) => directive.Metrics.map((metric) => ({ name: metric.Name, value: document[metric.Name] }))),
    );
    expect(counted).toEqual(
      expect.arrayContaining([
        { name: METRIC.paymentsPaid, value: 1 },
        { name: METRIC.checkoutsDenied, value: 1 },
        { name: METRIC.refundsCreated, value: 1 },
        { name: METRIC.refundsHeld, value: 1 },
        { name: METRIC.eventsPublishFailed, value: 1 },
      ]),
    );
    // The replayed payment, the failed chargeback and the refund after it (retried by the stream) are not counted.
    expect(counted.map((metric) => metric.name)).not.toEqual(expect.arrayContaining([METRIC.chargebacksOpened]));
    expect(counted.map((metric) => metric.name)).not.toEqual(expect.arrayContaining([METRIC.refundsFailed]));
    expect(counted.filter((metric) => metric.name === METRIC.paymentsPaid)).toHaveLength(1);
    const denied = documents.find((document) => METRIC.checkoutsDenied in document)!;
    expect(denied).toMatchObject({ Reason: 'expired', service: 'payment-operations' });
    for (const document of documents) {
      expect(document._aws.CloudWatchMetrics[0].Namespace).toBe(METRICS_NAMESPACE);
      expect(document._aws.CloudWatchMetrics[0].Dimensions.flat()).not.toEqual(expect.arrayContaining(['orgId']));
      expect(JSON.stringify(document)).not.toContain('org_secret_tenant');
    }
  });

  test('a document full of metric names is written once, and the next name starts another: every value written exactly once', async () => {
    const { metrics } = await import('../../../shared/observability/metrics');
    const names = Array.from({ length: 101 }, (_, n) => `Metric${n}`);
    const documents = await emfOf(async () => {
      for (const name of names) metrics.add(name, 'Count', 1, { name: 'Kind', value: 'a' });
      metrics.publishStoredMetrics();
    });
    const written = documents.flatMap((document) => document._aws.CloudWatchMetrics[0].Metrics.map((metric) => metric.Name));
    expect([documents.length, written.length, new Set(written).size]).toEqual([2, 101, 101]);
  });
});

describe('Function: oldestHeldRefundAgeSeconds', () => {
  test('the oldest head of every balance hold queue, in seconds; 0 when nothing is held', async () => {
    // Prepare
    const { oldestHeldRefundAgeSeconds } = await import('../../../shared/observability/held-refunds');
    const refund = (createdAt: string) => ({ createdAt, onHold: true, status: 'pending' }) as Refund;
    const queues: Record<string, Refund[]> = { EUR: [refund('2026-11-23T10:00:00.000Z')], USD: [refund('2026-11-23T08:00:00.000Z')], GBP: [] };
    const held = {
      withHeldRefunds: async () => Object.keys(queues).map((currency) => ({ orgId: 'org_1', mode: 'live' as const, currency })),
      holdQueue: async (ref: { currency: string }) => queues[ref.currency],
    };
    const now = new Date('2026-11-23T12:00:00.000Z');

    // Act / Assess
    expect(await oldestHeldRefundAgeSeconds(held, now)).toBe(4 * 3600);
    expect(await oldestHeldRefundAgeSeconds({ ...held, withHeldRefunds: async () => [] }, now)).toBe(0);
  });
});
