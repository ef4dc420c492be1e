import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { NOTIFICATION_MAPPING, NOTIFICATION_RECORD_FILTERS } from '../shared/db/acquirer-notification-store';
import { backgroundFunctions } from '../shared/api/background';
import { ServiceFunction } from './api-function';
import { runbookOf, stageOf } from './stages';
import { invokedThroughCanary } from './canary';
import { consumeTableStream } from './stream-consumer';
import { grantDeclaredTable } from './table-access';

export interface AcquirerProps {
  table: Table;
  /** The service functions' common environment (table, bus, public URL). */
  environment: Record<string, string>;
}

/**
 * The acquirer (Adyen, product-decisions §12) in AWS: its one secret, and the processing of its
 * notifications. The receiving route is declared with the others (shared/api/acquirer.ts); it
 * keeps each notification in the table, whose stream hands the ones not yet processed to the
 * processor (filtered at the event source), which processes each once, with bounded retries and
 * an on-failure queue that alarms. Only the functions that talk to Adyen get the secret
 * (`connect`): its ARN is their only setting, and its value is read at run time, once per cold
 * start, again every few minutes (shared/services/acquirer-secret.ts); the template holds neither
 * the credentials nor the value (docs/operations.md sets it).
 */
export class Acquirer extends Construct {
  readonly secret: Secret;
  readonly processor: IFunction;
  /** Where the stream sends a notification the processor gave up on (it stays kept, unprocessed, for the runbook). */
  readonly processingFailures: Queue;

  constructor(scope: Construct, id: string, props: AcquirerProps) {
    super(scope, id);
    // Retained when the stack is deleted: the credentials Adyen issued outlive any one stack (a new one is pointed at this secret, docs/operations.md).
    this.secret = new Secret(this, 'Secret', {
      removalPolicy: RemovalPolicy.RETAIN,
      description:
        'Adyen: {"apiKey","environment":"test"|"live","liveEndpointUrlPrefix","hmacKey","notificationUsername","notificationPassword"} (docs/operations.md#the-acquirers-secret). Created with a random placeholder; set the value after the first deploy.',
    });

    const processor = new ServiceFunction(this, 'NotificationProcessor', {
      handler: backgroundFunctions.acquirerNotificationProcessor.handler,
      environment: props.environment,
      // A batch of ten, each with a capture or cancel sent at once (8 s at most each).
      timeout: Duration.seconds(120),
      reservedConcurrency: stageOf(this).concurrency.streamProcessors,
    }).function;
    grantDeclaredTable(processor, props.table, backgroundFunctions.acquirerNotificationProcessor.table);
    this.connect(processor);
    const consumer = consumeTableStream(this, processor, {
      invoked: invokedThroughCanary(this, processor, backgroundFunctions.acquirerNotificationProcessor.canary),
      table: props.table,
      ...NOTIFICATION_MAPPING,
      filters: NOTIFICATION_RECORD_FILTERS,
      failuresId: 'ProcessingFailures',
      alarmId: 'NotificationProcessingIteratorAgeAlarm',
      alarmDescription: `Acquirer notifications wait in the table stream for more than 5 minutes (processor failing or throttled). ${runbookOf('AcquirerNotificationProcessingIteratorAgeAlarm')}`,
    });
    this.processor = processor;
    this.processingFailures = consumer.failures;

    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          "Secret Secret holds Adyen's API key, HMAC key and notification credentials, which Adyen issues: they are rotated in Adyen's Customer Area and then written here (docs/operations.md), not by a Secrets Manager rotation function.",
      },
    ]);
  }

  /** A function that talks to Adyen: the secret's ARN as its one setting, and the right to read that secret. */
  connect(fn: LambdaFunction): void {
    fn.addEnvironment('ADYEN_SECRET_ARN', this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}
