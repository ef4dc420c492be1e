import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, type EventBus } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { AWS_WEBHOOK_SETTINGS } from '../shared/webhooks/settings';
import { receivesToAttempt } from '../shared/webhooks/sqs-delivery-queue';
import { EVENT_SOURCE, PUBLISHABLE_RECORD_FILTERS } from '../shared/webhooks/stream-records';
import { ServiceFunction } from './api-function';

/** The delivery function's timeout: its queue's visibility timeout is six times this (AWS_LIMITS). */
export const DELIVERER_TIMEOUT_SECONDS = 30;
/** Receives of a delivery message that may fail (table or network errors) before SQS redrives it. */
const FAILED_RECEIVES_TOLERATED = 3;
/**
 * The webhook queue's redrive count: a postponed delivery (longest retry delay) plus the
 * failures tolerated, so that no delivery reaches the dead-letter queue by being postponed.
 */
export const WEBHOOK_QUEUE_MAX_RECEIVES = receivesToAttempt(Math.max(...AWS_WEBHOOK_SETTINGS.policy.scheduleMs)) + FAILED_RECEIVES_TOLERATED;
/** Stream retries of a failing publisher batch, bisected each time, before the on-failure queue. */
export const PUBLISHER_RETRY_ATTEMPTS = 10;

export interface WebhookDeliveryProps {
  table: Table;
  bus: EventBus;
  /** The webhook queue: bus events from the rule, and one message per delivery attempt. */
  queue: Queue;
  /** Deliveries parked after their last attempt (and messages SQS redrives after WEBHOOK_QUEUE_MAX_RECEIVES). */
  deadLetterQueue: Queue;
}

/**
 * Outbox to webhooks (docs/webhooks.md):
 * table stream (INSERTed EVT# items) → publisher → bus → rule → webhook queue → delivery
 * function (fan-out into one message per target; one attempt per message; retries by re-sending
 * with a delay; the DLQ after the last attempt).
 */
export class WebhookDelivery extends Construct {
  readonly publisher: IFunction;
  readonly deliverer: IFunction;
  /** Where the stream sends what the publisher gave up on: records that expired from the stream unpublished. */
  readonly publisherFailures: Queue;
  readonly publisherIteratorAgeAlarm: Alarm;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);

    const publisher = new ServiceFunction(this, 'Publisher', {
      handler: 'publish-events',
      environment: { EVENT_BUS_NAME: props.bus.eventBusName },
      timeout: Duration.seconds(60),
    }).function;
    this.publisherFailures = new Queue(this, 'PublisherFailures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    publisher.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // Bounded, so one record EventBridge refuses never blocks its shard: after the retries
        // (the batch bisected down to that record) it goes to the on-failure queue, which alarms.
        retryAttempts: PUBLISHER_RETRY_ATTEMPTS,
        filters: PUBLISHABLE_RECORD_FILTERS.map((filter) => FilterCriteria.filter(filter)),
        onFailure: new SqsDlq(this.publisherFailures),
      }),
    );
    props.bus.grantPutEventsTo(publisher);
    this.publisher = publisher;

    new Rule(this, 'ToWebhookQueue', {
      description: 'Every service event to the webhook queue, where it is fanned out to its subscriptions',
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new SqsQueue(props.queue)],
    });

    const deliverer = new ServiceFunction(this, 'Deliverer', {
      handler: 'deliver-webhooks',
      environment: {
        TABLE_NAME: props.table.tableName,
        WEBHOOK_QUEUE_URL: props.queue.queueUrl,
        WEBHOOK_DLQ_URL: props.deadLetterQueue.queueUrl,
      },
      // Attempts of a batch run concurrently, each bounded by the 10 s attempt timeout.
      timeout: Duration.seconds(DELIVERER_TIMEOUT_SECONDS),
    }).function;
    deliverer.addEventSource(new SqsEventSource(props.queue, { batchSize: 10, reportBatchItemFailures: true }));
    props.queue.grantSendMessages(deliverer);
    props.deadLetterQueue.grantSendMessages(deliverer);
    // Subscriptions (Query ORG#), secrets (GetItem, conditional PutItem), attempts (PutItem), outcomes (GetItem, UpdateItem).
    deliverer.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
      }),
    );
    this.deliverer = deliverer;

    this.publisherIteratorAgeAlarm = new Alarm(this, 'PublisherIteratorAgeAlarm', {
      alarmDescription: 'Outbox events wait in the table stream for more than 5 minutes (publisher failing or throttled). Runbook: docs/operations.md#publisheriteratoragealarm',
      metric: publisher.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) }),
      threshold: 5 * 60 * 1000,
      evaluationPeriods: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    NagSuppressions.addResourceSuppressions(
      publisher,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Function Publisher: dynamodb:ListStreams has no resource-level permissions; its stream read actions are limited to this table\'s stream.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
    // SQS3 has no finding ids, so it cannot take appliesTo: it is scoped to this queue.
    NagSuppressions.addResourceSuppressions(this.publisherFailures, [
      { id: 'AwsSolutions-SQS3', reason: 'Queue PublisherFailures is itself a dead-letter destination (the publisher stream\'s on-failure destination).' },
    ]);
  }
}
