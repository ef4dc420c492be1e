import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition, type Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

export interface StreamConsumerOptions {
  /** What the mapping invokes: the function, or its alias where it deploys as a canary (lib/canary.ts). */
  invoked: IFunction;
  table: Table;
  batchSize: number;
  /** Retries of a failing record, the batch bisected down to it, before the on-failure queue. */
  retryAttempts: number;
  /** The event-source filters (an OR of patterns): nothing else invokes the function. */
  filters: Record<string, unknown>[];
  /** The on-failure queue's construct id. */
  failuresId: string;
  alarmId: string;
  /** What waits when the iterator ages, with its runbook link. */
  alarmDescription: string;
}

/**
 * A function fed by the table's stream as the service's stream consumers are: from the oldest
 * record, filtered at the event source, with partial batch failures; a record that keeps failing
 * is retried a bounded number of times (so it never blocks its shard) and then handed to an
 * on-failure queue, which alarms; an alarm on the stream's iterator age; and the cdk-nag findings
 * reviewed for such a consumer.
 */
export function consumeTableStream(scope: Construct, fn: LambdaFunction, options: StreamConsumerOptions): { failures: Queue } {
  const failures = new Queue(scope, options.failuresId, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
  options.invoked.addEventSource(
    new DynamoEventSource(options.table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: options.batchSize,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: options.retryAttempts,
      filters: options.filters.map((filter) => FilterCriteria.filter(filter)),
      onFailure: new SqsDlq(failures),
    }),
  );
  new Alarm(scope, options.alarmId, {
    alarmDescription: options.alarmDescription,
    metric: fn.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) }),
    threshold: 5 * 60 * 1000,
    evaluationPeriods: 5,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  const name = fn.node.scope!.node.id;
  NagSuppressions.addResourceSuppressions(
    fn.role!,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason: `Function ${name}: dynamodb:ListStreams has no resource-level permissions; its stream read actions are limited to this table's stream.`,
        appliesTo: ['Resource::*'],
      },
    ],
    true,
  );
  // SQS3 has no finding ids, so it cannot take appliesTo: it is scoped to this queue.
  NagSuppressions.addResourceSuppressions(failures, [
    { id: 'AwsSolutions-SQS3', reason: `Queue ${options.failuresId} is itself a dead-letter destination (the ${name} stream's on-failure destination).` },
  ]);
  return { failures };
}
