import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpRoute, HttpRouteKey, HttpStage, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { minimumVisibilityTimeoutSeconds } from '../shared/aws-limits';
import { REPORT_REQUEST_DETAIL_TYPE, REPORT_REQUEST_SOURCE } from '../shared/report-requests';
import { REPORT_BUILDER_MAX_EVENT_AGE_MINUTES, REPORT_BUILDER_RETRIES, REPORT_BUILDER_TIMEOUT_MINUTES } from '../shared/domain/reports';
import { INDEXES, KEY, TTL_ATTRIBUTE } from '../shared/db/table';
import { routes, unmatchedRouteHandler } from '../shared/api';
import { acquirerNotifications } from '../shared/api/acquirer';
import { backgroundFunctions } from '../shared/api/background';
import { methodsOf, type Route } from '../shared/api/operation';
import { checkoutPages } from '../shared/api/pages';
import { Acquirer } from './acquirer';
import { ServiceFunction } from './api-function';
import { CustomerEmailKey } from './customer-email-key';
import { EvidenceDocuments } from './documents';
import { DEFAULT_EMAIL_SENDER, Email, EMAIL_SENDER_CONTEXT } from './email';
import { SecretsKey } from './secrets-key';
import { Monitoring } from './monitoring';
import { Outbox } from './outbox';
import { PublicDomain } from './public-domain';
import { resourceFinding } from './nag-findings';
import { RouteArea, routesByArea } from './route-area';
import { runbookOf, stageOf, type Stage } from './stages';
import { grantDeclaredTable } from './table-access';
import { TableBackup } from './table-backup';
import { DELIVERER_TIMEOUT_SECONDS, WEBHOOK_QUEUE_MAX_RECEIVES, WebhookDelivery } from './webhooks';

/**
 * The deployed service, one stage of it (lib/stages.ts: the app's `stage` context): one table,
 * one HTTP API with a function per route, the minute jobs, the event bus and the webhook queue
 * with its dead-letter queue.
 */
/** An event of the minute schedule older than this is dropped: the next minute's is on its way (60 s is the shortest Lambda and EventBridge take). */
const MINUTE_JOBS_MAX_EVENT_AGE = Duration.minutes(1);

/**
 * The report builder's time and memory: a page of each sub-partition of a list (8 × 1 MB read
 * ahead, twice) and one 5 MiB part of the file at a time, whatever the row count, with room for
 * the SDK; and the time a million rows take (docs/benchmarks.md, `bench:reports`), well within
 * its timeout, Lambda's 15 minutes (REPORT_BUILDER_TIMEOUT_MINUTES).
 */
const REPORT_BUILDER_MEMORY_MB = 512;

/** The routes with throttles of their own: the customer checkout's (every method), the acquirer's notifications. */
const throttledRoutes = new Map<Route, keyof Stage['throttles']>([...checkoutPages.map((page) => [page, 'checkout'] as const), [acquirerNotifications, 'acquirerNotifications']]);

/** The stage's route settings (a JSON map, as CloudFormation spells it): each throttled route's key (`METHOD /path`, HEAD included) with its bucket. */
function routeThrottles(stage: Stage): Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> {
  return Object.fromEntries(
    [...throttledRoutes].flatMap(([route, group]) =>
      methodsOf(route).map((method) => [`${method} ${route.path}`, { ThrottlingRateLimit: stage.throttles[group].rateLimit, ThrottlingBurstLimit: stage.throttles[group].burstLimit }]),
    ),
  );
}

/** The stage's access log line: what the runbooks search by (`requestId`) and read (docs/operations.md). */
export const API_ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
});

export class PaymentOpsStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  readonly bus: EventBus;
  readonly webhookQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  readonly documents: EvidenceDocuments;
  /** The key that seals the secrets the service reads back: `secretsKey.connect(fn, ['open'])` for a function outside the routes. */
  readonly secretsKey: SecretsKey;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const stage = stageOf(this);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: KEY.pk, type: AttributeType.STRING },
      sortKey: { name: KEY.sk, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      stream: StreamViewType.NEW_IMAGE,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(INDEXES)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.pk, type: AttributeType.STRING },
        sortKey: { name: index.sk, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    this.bus = new EventBus(this, 'Events');

    this.webhookDeadLetterQueue = new Queue(this, 'WebhookDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.webhookQueue = new Queue(this, 'WebhookDeliveries', {
      // At least six times its consumer's timeout, or a message is handed out again while the first consumer still works on it.
      visibilityTimeout: Duration.seconds(minimumVisibilityTimeoutSeconds(DELIVERER_TIMEOUT_SECONDS)),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.webhookDeadLetterQueue, maxReceiveCount: WEBHOOK_QUEUE_MAX_RECEIVES },
    });
    new Alarm(this, 'WebhookDeadLettersAlarm', {
      alarmDescription: `Webhook deliveries parked in the dead-letter queue after their last attempt. ${runbookOf('WebhookDeadLettersAlarm')}`,
      metric: this.webhookDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // A stage with a domain is reached by it alone: the execute-api URL is turned off, so that no request goes around it.
    const domain = stage.domain && new PublicDomain(this, 'PublicDomain', { domain: stage.domain });
    this.api = new HttpApi(this, 'Api', { createDefaultStage: false, disableExecuteApiEndpoint: domain !== undefined });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: stage.logRetention });
    const apiStage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      // Every route a bucket of its own: the API's limits, but for the checkout's and the acquirer's notifications' routes (below).
      throttle: stage.throttles.api,
      ...(domain ? { domainMapping: { domainName: domain.domainName } } : {}),
    });
    (apiStage.node.defaultChild as CfnStage).accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: API_ACCESS_LOG_FORMAT,
    };
    (apiStage.node.defaultChild as CfnStage).routeSettings = routeThrottles(stage);

    // Jobs and events render links too, so the public base URL (checkout, dashboard and docs
    // URLs are under it: shared/config.ts) is configuration, not request-derived.
    const baseUrl = domain?.baseUrl ?? this.api.apiEndpoint;
    const environment = { TABLE_NAME: this.table.tableName, EVENT_BUS_NAME: this.bus.eventBusName, BASE_URL: baseUrl };
    // One log group for every route's function (decisions 49): each line names its function (`function_name`), and so does each stream.
    const routeLogs = new LogGroup(this, 'RouteLogs', { retention: stage.logRetention });
    // The dashboard is served by the API, so its origin is the service's.
    this.documents = new EvidenceDocuments(this, 'EvidenceDocuments', { dashboardOrigin: baseUrl });
    const acquirer = new Acquirer(this, 'Acquirer', { table: this.table, environment });
    // The stage's sender address (lib/stages.ts `email`, else `cdk deploy -c emailSender=…`: docs/operations.md), its
    // domain verified by DKIM in the stage's zone when the stage names one.
    const email = new Email(this, 'Email', {
      sender: stage.email?.sender ?? this.node.tryGetContext(EMAIL_SENDER_CONTEXT) ?? DEFAULT_EMAIL_SENDER,
      zone: stage.email && domain?.zone,
    });
    // The customer managed key that seals the secrets the service reads back (two-factor secrets, webhook signing secrets).
    const secretsKey = (this.secretsKey = new SecretsKey(this, 'SecretsKey'));
    const customerEmailKey = new CustomerEmailKey(this, 'CustomerEmailKey');
    for (const [area, areaRoutes] of routesByArea(routes)) {
      const areaStack = new RouteArea(this, `${area}Routes`, {
        routes: areaRoutes,
        api: this.api,
        table: this.table,
        documents: this.documents,
        acquirer,
        email,
        secretsKey,
        customerEmailKey,
        logGroup: routeLogs,
        environment,
      });
      // API Gateway refuses a stage whose route settings name a route it does not have yet.
      if (areaRoutes.some((route) => throttledRoutes.has(route))) apiStage.node.addDependency(areaStack);
    }
    // Every request no route takes: a wrong method on a route's path (405 with Allow) or an unknown path (404), as the envelope.
    const unmatched = new ServiceFunction(this, `Route-${unmatchedRouteHandler}`, { handler: unmatchedRouteHandler, environment, logGroup: routeLogs }).function;
    new HttpRoute(this.api, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration(`Integration-${unmatchedRouteHandler}`, unmatched),
    });

    const jobs = new ServiceFunction(this, 'MinuteJobs', {
      handler: backgroundFunctions.minuteJobs.handler,
      environment,
      timeout: Duration.seconds(55),
    }).function;
    grantDeclaredTable(jobs, this.table, backgroundFunctions.minuteJobs.table);
    // A run that failed is never run again by Lambda (two runs of a minute would overlap): the next minute's run catches up.
    jobs.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: MINUTE_JOBS_MAX_EVENT_AGE });
    // Live refunds go to the acquirer, and the captures and cancels it could not take are sent again.
    acquirer.connect(jobs);
    new Rule(this, 'EveryMinute', {
      description: 'Minute jobs: expire payment links and open payments, remind of and accept overdue chargebacks, process refunds, fail overdue reports, send owed captures and cancels',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(jobs, { retryAttempts: 0, maxEventAge: MINUTE_JOBS_MAX_EVENT_AGE })],
    });

    // The acquirer feed: invoked with `{"chargebacks": [...]}`, the document `ops chargeback ingest` reads.
    const chargebackFeed = new ServiceFunction(this, 'ChargebackFeed', {
      handler: backgroundFunctions.chargebackFeed.handler,
      environment,
      timeout: Duration.seconds(60),
    }).function;
    grantDeclaredTable(chargebackFeed, this.table, backgroundFunctions.chargebackFeed.table);
    new CfnOutput(this, 'ChargebackFeedFunctionArn', { value: chargebackFeed.functionArn });

    // The acquirer's settlement feed: invoked with the document `ops settlement import` reads.
    const settlementImport = new ServiceFunction(this, 'SettlementImport', {
      handler: backgroundFunctions.settlementImport.handler,
      environment,
      timeout: Duration.minutes(5),
    }).function;
    grantDeclaredTable(settlementImport, this.table, backgroundFunctions.settlementImport.table);
    new CfnOutput(this, 'SettlementImportFunctionArn', { value: settlementImport.functionArn });

    // Reports (product-decisions §18): each new report's request, put on the bus by the outbox
    // processor, invokes its builder asynchronously, away from the request path: a function of its
    // own, with the time and memory a million rows take, streaming them into a multipart upload.
    const reportBuilder = new ServiceFunction(this, 'ReportBuilder', {
      handler: backgroundFunctions.reportBuilder.handler,
      environment: { ...environment, DOCUMENTS_BUCKET: this.documents.bucket.bucketName },
      timeout: Duration.minutes(REPORT_BUILDER_TIMEOUT_MINUTES),
      memorySize: REPORT_BUILDER_MEMORY_MB,
    }).function;
    grantDeclaredTable(reportBuilder, this.table, backgroundFunctions.reportBuilder.table);
    this.documents.grantReportFiles(reportBuilder, backgroundFunctions.reportBuilder.reportFiles);
    // A builder that dies (its timeout) is invoked again, twice; the report is still pending and is
    // built anew. No attempt starts so late that it could end after the report's build deadline,
    // past which the minute job fails a report still pending (docs/architecture.md, "Reports").
    reportBuilder.configureAsyncInvoke({ retryAttempts: REPORT_BUILDER_RETRIES, maxEventAge: Duration.minutes(REPORT_BUILDER_MAX_EVENT_AGE_MINUTES) });
    new Rule(this, 'ReportRequests', {
      description: 'Each new report to its builder',
      eventBus: this.bus,
      eventPattern: { source: [REPORT_REQUEST_SOURCE], detailType: [REPORT_REQUEST_DETAIL_TYPE] },
      targets: [new LambdaFunction(reportBuilder, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
    });

    const outbox = new Outbox(this, 'Outbox', { table: this.table, bus: this.bus, environment });
    new WebhookDelivery(this, 'Webhooks', { table: this.table, bus: this.bus, queue: this.webhookQueue, deadLetterQueue: this.webhookDeadLetterQueue, secretsKey });

    if (stage.backup) new TableBackup(this, 'TableBackup', { table: this.table, retention: stage.backup });

    new Monitoring(this, 'Monitoring', {
      watched: this,
      api: this.api,
      outboxFailures: outbox.failures,
      acquirerProcessingFailures: acquirer.processingFailures,
      jobs,
    });

    new CfnOutput(this, 'ApiUrl', { value: baseUrl });
    // Where Adyen's standard webhook is to post (docs/operations.md "Notifications").
    new CfnOutput(this, 'AcquirerNotificationUrl', { value: `${baseUrl}${acquirerNotifications.path}` });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AcquirerSecretArn', { value: acquirer.secret.secretArn });
    // The SES identity email is sent from: verified by the link SES mails it (docs/operations.md, "Email").
    new CfnOutput(this, 'EmailSenderIdentity', { value: email.identity.emailIdentityName });
    new CfnOutput(this, 'SecretsKeyArn', { value: secretsKey.key.keyArn });

    this.suppressReviewedFindings();
  }

  /**
   * cdk-nag findings reviewed and accepted that concern more than one construct (each function
   * suppresses its own in ServiceFunction). Granular findings name what they allow in `appliesTo`;
   * rules without finding ids are scoped to the one resource they were reviewed on.
   */
  private suppressReviewedFindings(): void {
    const tableIndexes = resourceFinding(this.table.node.defaultChild as CfnTable, '/index/*');
    for (const fn of this.node.findAll().filter((construct) => construct instanceof ServiceFunction)) {
      NagSuppressions.addResourceSuppressions(
        fn,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: `Function ${fn.node.id} lists and sweeps through the indexes of table ${this.table.node.id} (table/index/*), all of which it may query.`,
            appliesTo: [tableIndexes],
          },
        ],
        true,
      );
    }
    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason: 'The $default route of HTTP API Api answers 404 or 405 and reads nothing; every other route is suppressed on its own, in its area (lib/route-area.ts).',
        },
      ],
      true,
    );
  }
}
