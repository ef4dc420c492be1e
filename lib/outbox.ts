import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { EventBus } from 'aws-cdk-lib/aws-events';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PENDING_CREDIT_RECORD_FILTERS } from '../shared/db/pending-credit-records';
import { REPORT_RECORD_FILTERS } from '../shared/db/report-records';
import { PUBLISHABLE_RECORD_FILTERS } from '../shared/webhooks/stream-records';
import { backgroundFunctions } from '../shared/api/background';
import { ServiceFunction } from './api-function';
import { runbookOf } from './stages';
import { invokedThroughCanary } from './canary';
import { consumeTableStream } from './stream-consumer';
import { stageOf } from './stages';
import { grantDeclaredTable } from './table-access';

/** Stream retries of a failing outbox batch, bisected each time, before the on-failure queue. */
export const OUTBOX_RETRY_ATTEMPTS = 10;

export interface OutboxProps {
  table: Table;
  bus: EventBus;
  /** The service functions' common environment (table, bus, public URL). */
  environment: Record<string, string>;
}

/**
 * The outbox processor (docs/architecture.md): the table stream hands it what transactions
 * committed for later, filtered at the event source: outbox events and replay requests, which it
 * puts on the bus (docs/webhooks.md), and paid payments' pending credits, which it rolls into
 * their balances, covering held refunds at once (decisions 64), and new reports, whose builds it
 * asks for on the bus (shared/report-requests.ts). It is one of the table stream's
 * two readers, the most DynamoDB Streams allows a shard (the other is the acquirer's notification
 * processor), which is why the credits and the reports ride with the events rather than on readers of their own.
 */
export class Outbox extends Construct {
  readonly processor: IFunction;
  /** Where the stream sends what the processor gave up on: records that expired from the stream uncarried. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: OutboxProps) {
    super(scope, id);
    const processor = new ServiceFunction(this, 'Processor', {
      handler: backgroundFunctions.outboxProcessor.handler,
      environment: props.environment,
      timeout: Duration.seconds(60),
      reservedConcurrency: stageOf(this).concurrency.streamProcessors,
    }).function;
    // One record that cannot be carried never blocks its shard: after the retries it goes to the on-failure queue, which alarms.
    const consumer = consumeTableStream(this, processor, {
      invoked: invokedThroughCanary(this, processor, backgroundFunctions.outboxProcessor.canary),
      table: props.table,
      batchSize: 100,
      retryAttempts: OUTBOX_RETRY_ATTEMPTS,
      filters: [...PUBLISHABLE_RECORD_FILTERS, ...PENDING_CREDIT_RECORD_FILTERS, ...REPORT_RECORD_FILTERS],
      failuresId: 'Failures',
      alarmId: 'IteratorAgeAlarm',
      alarmDescription: `Outbox events or pending credits wait in the table stream for more than 5 minutes (outbox processor failing or throttled). ${runbookOf('OutboxIteratorAgeAlarm')}`,
    });
    props.bus.grantPutEventsTo(processor);
    // Credits: the balance's Update with the entries' marks, in one TransactWriteItems; then the
    // balance's held refunds: its hold marker (GetItem), its queue (Query of an index), each
    // refund moved with its balance and event (TransactWriteItems of Updates and Puts).
    grantDeclaredTable(processor, props.table, backgroundFunctions.outboxProcessor.table);
    this.processor = processor;
    this.failures = consumer.failures;
  }
}
