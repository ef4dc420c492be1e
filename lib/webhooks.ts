import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, type EventBus } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AWS_WEBHOOK_SETTINGS } from '../shared/webhooks/settings';
import { receivesToAttempt } from '../shared/webhooks/sqs-delivery-queue';
import { EVENT_SOURCE } from '../shared/webhooks/stream-records';
import { backgroundFunctions } from '../shared/api/background';
import { ServiceFunction } from './api-function';
import type { SecretsKey } from './secrets-key';
import { stageOf } from './stages';
import { grantDeclaredTable } from './table-access';

/** The delivery function's timeout: its queue's visibility timeout is six times this (AWS_LIMITS). */
export const DELIVERER_TIMEOUT_SECONDS = 30;
/** Receives of a delivery message that may fail (table or network errors) before SQS redrives it. */
const FAILED_RECEIVES_TOLERATED = 3;
/**
 * The webhook queue's redrive count: a postponed delivery (longest retry delay) plus the
 * failures tolerated, so that no delivery reaches the dead-letter queue by being postponed.
 */
export const WEBHOOK_QUEUE_MAX_RECEIVES = receivesToAttempt(Math.max(...AWS_WEBHOOK_SETTINGS.policy.scheduleMs)) + FAILED_RECEIVES_TOLERATED;

export interface WebhookDeliveryProps {
  table: Table;
  bus: EventBus;
  /** The webhook queue: bus events from the rule, and one message per delivery attempt. */
  queue: Queue;
  /** Deliveries parked after their last attempt (and messages SQS redrives after WEBHOOK_QUEUE_MAX_RECEIVES). */
  deadLetterQueue: Queue;
  /** The key the signing secrets are sealed with: the deliverer opens them (and seals the per-object URLs' secret it creates). */
  secretsKey: SecretsKey;
}

/**
 * Bus to webhooks (docs/webhooks.md): the outbox processor (lib/outbox.ts) puts events on the
 * bus → rule → webhook queue → delivery
 * function (fan-out into one message per target; one attempt per message; retries by re-sending
 * with a delay; the DLQ after the last attempt).
 */
export class WebhookDelivery extends Construct {
  readonly deliverer: IFunction;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);

    new Rule(this, 'ToWebhookQueue', {
      description: 'Every service event to the webhook queue, where it is fanned out to its subscriptions',
      eventBus: props.bus,
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new SqsQueue(props.queue)],
    });

    const deliverer = new ServiceFunction(this, 'Deliverer', {
      handler: backgroundFunctions.webhookDeliverer.handler,
      environment: {
        TABLE_NAME: props.table.tableName,
        WEBHOOK_QUEUE_URL: props.queue.queueUrl,
        WEBHOOK_DLQ_URL: props.deadLetterQueue.queueUrl,
      },
      // Attempts of a batch run concurrently, each bounded by the 10 s attempt timeout.
      timeout: Duration.seconds(DELIVERER_TIMEOUT_SECONDS),
    }).function;
    // At most the stage's invocations at once: slow merchant endpoints cannot take the account's concurrency from the API.
    deliverer.addEventSource(new SqsEventSource(props.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: stageOf(this).concurrency.webhookDeliveries }));
    props.queue.grantSendMessages(deliverer);
    props.deadLetterQueue.grantSendMessages(deliverer);
    grantDeclaredTable(deliverer, props.table, backgroundFunctions.webhookDeliverer.table);
    props.secretsKey.connect(deliverer, backgroundFunctions.webhookDeliverer.sealedSecrets);
    this.deliverer = deliverer;
  }
}
