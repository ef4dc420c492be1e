import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, type EventBus } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AWS_WEBHOOK_SETTINGS } from '../shared/webhooks/settings';
import { receivesToAttempt } from '../shared/webhooks/sqs-delivery-queue';
import { EVENT_SOURCE, PUBLISHABLE_RECORD_FILTERS } from '../shared/webhooks/stream-records';
import { ServiceFunction } from './api-function';
import { consumeTableStream } from './stream-consumer';

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
    // One record EventBridge refuses never blocks its shard: after the retries it goes to the on-failure queue, which alarms.
    const consumer = consumeTableStream(this, publisher, {
      table: props.table,
      batchSize: 100,
      retryAttempts: PUBLISHER_RETRY_ATTEMPTS,
      filters: PUBLISHABLE_RECORD_FILTERS,
      failuresId: 'PublisherFailures',
      alarmId: 'PublisherIteratorAgeAlarm',
      alarmDescription: 'Outbox events wait in the table stream for more than 5 minutes (publisher failing or throttled). Runbook: docs/operations.md#publisheriteratoragealarm',
    });
    this.publisherFailures = consumer.failures;
    this.publisherIteratorAgeAlarm = consumer.iteratorAgeAlarm;
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
  }
}
