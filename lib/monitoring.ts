import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { UNMATCHED_REASONS } from '../shared/domain/acquirer-news';
import { ACQUIRER_CALLS, DIMENSION, METRIC, SERVICE_NAME } from '../shared/observability/catalog';
import { runbookOf, stageOf, type Stage } from './stages';

export interface MonitoringProps {
  /** The stack whose functions it watches (it lives in a stack of its own). */
  watched: Construct;
  api: HttpApi;
  /** The queue the outbox processor's on-failure destination writes to. */
  outboxFailures: Queue;
  /** The queue the acquirer notification processor's on-failure destination writes to. */
  acquirerProcessingFailures: Queue;
  jobs: IFunction;
}

/** A CloudWatch alarm math expression takes at most 10 metrics. */
const METRICS_PER_ALARM = 10;
const FIVE_MINUTES = Duration.minutes(5);
/** A refund held this long means its balance has not been covered for a day: someone has to look. */
export const OLDEST_HELD_REFUND_ALARM_SECONDS = 24 * 60 * 60;

/** Minutes without a run of the minute jobs before someone is paged. */
const SCHEDULE_SILENCE_MINUTES = 5;

/**
 * The stage's alarm topic: encrypted with a key of its own (rotated yearly), which CloudWatch
 * may use to publish (it cannot use SNS's AWS managed key), TLS only, and its subscriptions:
 * the stage's addresses (each confirms by the mail SNS sends) and HTTPS endpoints.
 */
function alarmTopic(scope: Construct, stage: Stage): Topic {
  const key = new Key(scope, 'AlarmTopicKey', { description: `Encrypts the alarm topic of ${stage.stackName}`, enableKeyRotation: true });
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
  );
  const topic = new Topic(scope, 'AlarmTopic', { displayName: `${stage.stackName} alarms`, masterKey: key, enforceSSL: true });
  for (const email of stage.alarmSubscriptions.emails) topic.addSubscription(new EmailSubscription(email));
  for (const url of stage.alarmSubscriptions.urls) topic.addSubscription(new UrlSubscription(url, { protocol: SubscriptionProtocol.HTTPS }));
  return topic;
}

/**
 * The stage's application metrics as shared/observability/metrics.ts emits them (its namespace,
 * the service dimension, plus the metric's own): one metric, a sum over a dimension's values
 * (alarms may not search, so each value is named), and every value of a dimension, one line
 * each (dashboards may search).
 */
function serviceMetrics(namespace: string) {
  const metric = (metricName: string, statistic = 'Sum', dimensions: Record<string, string> = {}) =>
    new Metric({ namespace, metricName, dimensionsMap: { service: SERVICE_NAME, ...dimensions }, statistic, period: FIVE_MINUTES });
  return {
    metric,
    sumOver: (metricName: string, dimension: string, values: string[]) =>
      new MathExpression({
        expression: values.map((_, index) => `FILL(m${index}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(values.map((value, index) => [`m${index}`, metric(metricName, 'Sum', { [dimension]: value })])),
        label: metricName,
        period: FIVE_MINUTES,
      }),
    byDimension: (metricName: string, dimension: string) =>
      new MathExpression({
        expression: `SEARCH('{${namespace},service,${dimension}} MetricName="${metricName}"', 'Sum', 300)`,
        label: metricName,
        period: FIVE_MINUTES,
      }),
  };
}

/**
 * The alarms of docs/operations.md (each one a runbook section there, linked from its
 * description), the stage's alarm topic that pages whoever its settings subscribe, and one
 * dashboard with the business metrics and every alarm. Created last: it watches every function
 * of `watched`, and every alarm there (its own and those made beside what they watch) notifies
 * the topic when it goes off and when it is back to OK.
 */
export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  /** The stage's alarm topic (SNS, encrypted with a key of its own that CloudWatch may use). */
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api } = props;
    const stage = stageOf(this);
    const { metric: serviceMetric, sumOver, byDimension } = serviceMetrics(stage.metricsNamespace);
    const alarm = (alarmId: string, description: string, options: Omit<ConstructorParameters<typeof Alarm>[2], 'alarmDescription'>) => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: `${description} ${runbookOf(alarmId.replace(/\d+$/, ''))}`,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...options,
      });
      this.alarms.push(created);
      return created;
    };

    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    alarm('ApiServerErrorRate', 'More than 1% of API requests answered 5xx (over at least 20 requests).', {
      metric: new MathExpression({
        expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
        usingMetrics: { requests, errors: serverErrors },
        label: '5xx %',
        period: FIVE_MINUTES,
      }),
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    const p99 = api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    alarm('ApiP99Latency', 'API p99 latency above 3 s.', {
      metric: p99,
      threshold: 3000,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });

    const functions = props.watched.node
      .findAll()
      .filter((construct): construct is LambdaFunction => construct instanceof LambdaFunction);
    for (let start = 0, group = 1; start < functions.length; start += METRICS_PER_ALARM, group++) {
      const members = functions.slice(start, start + METRICS_PER_ALARM);
      const sumOf = (metric: (fn: LambdaFunction) => IMetric) =>
        new MathExpression({
          expression: `SUM([${members.map((_, index) => `m${index}`).join(', ')}])`,
          usingMetrics: Object.fromEntries(members.map((fn, index) => [`m${index}`, metric(fn)])),
          period: FIVE_MINUTES,
        });
      const names = members.map((fn) => fn.node.scope!.node.id).join(', ');
      alarm(`FunctionErrors${group}`, `Lambda errors (crashes, timeouts, unhandled errors) in: ${names}.`, {
        metric: sumOf((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
        threshold: 5,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
      alarm(`FunctionThrottles${group}`, `Lambda throttles in: ${names}.`, {
        metric: sumOf((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }

    alarm('PublisherFailures', 'The outbox processor could not put events on the bus (it retries them).', {
      metric: serviceMetric(METRIC.eventsPublishFailed),
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('OutboxOnFailure', 'Stream records the outbox processor gave up on (events unpublished, credits not rolled into their balance).', {
      metric: props.outboxFailures.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('OldestHeldRefund', 'A refund has been held for more than 24 hours: its balance does not cover it.', {
      metric: serviceMetric(METRIC.oldestHeldRefundAge, 'Maximum'),
      threshold: OLDEST_HELD_REFUND_ALARM_SECONDS,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    alarm('MinuteJobFailures', 'Minute job runs failed in 3 or more of the last 5 minutes.', {
      metric: props.jobs.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      threshold: 3,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    // No invocation is no data point: missing data is the schedule not running.
    alarm('MinuteJobsNotRunning', `The minute schedule has not run the jobs for ${SCHEDULE_SILENCE_MINUTES} minutes.`, {
      metric: props.jobs.metricInvocations({ period: Duration.minutes(1), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: SCHEDULE_SILENCE_MINUTES,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
    });

    // The acquirer (docs/operations.md "The acquirer").
    alarm('AcquirerNotificationsRefused', 'Notification batches refused unread at POST /acquirer/adyen/notifications: bad credentials, a bad signature, or not a batch.', {
      metric: sumOver(METRIC.acquirerNotificationsRefused, DIMENSION.reason, ['credentials', 'signature', 'malformed']),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('AcquirerNotificationsUnmatched', 'Acquirer notifications that name nothing the service can apply them to: another merchant account, reference or amount, or a state that cannot take them (processed, nothing changed).', {
      metric: sumOver(METRIC.acquirerNotificationsUnmatched, DIMENSION.reason, [...UNMATCHED_REASONS]),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('AcquirerModificationsFailed', 'The acquirer reported a capture (CAPTURE_FAILED: the credit was taken back) or a cancel that failed.', {
      metric: sumOver(METRIC.acquirerModificationsFailed, DIMENSION.operation, ['capture', 'cancel']),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('AcquirerCommandsParked', 'A capture or cancel owed to the acquirer is no longer retried (refused, or unreachable for hours).', {
      metric: serviceMetric(METRIC.acquirerCommandsParked),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('AcquirerUnavailable', 'Calls to the acquirer (sessions, captures, cancels, refunds, dispute answers) fail as unreachable, in 3 of the last 3 five-minute periods.', {
      metric: sumOver(METRIC.acquirerUnavailable, DIMENSION.operation, [...ACQUIRER_CALLS]),
      threshold: 5,
      evaluationPeriods: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    alarm('AcquirerNotificationsOnFailure', 'Acquirer notifications the processor gave up on after its retries (kept in the table, not processed).', {
      metric: props.acquirerProcessingFailures.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });

    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: 12, height: 6 });
    const count = (name: string) => serviceMetric(name).with({ label: name });
    const everyAlarm = props.watched.node.findAll().filter((construct): construct is Alarm => construct instanceof Alarm);
    this.topic = alarmTopic(this, stage);
    const page = new SnsAction(this.topic);
    for (const each of everyAlarm) {
      each.addAlarmAction(page);
      each.addOkAction(page);
    }

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(24) });
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: everyAlarm, width: 24, height: 6 }));
    this.dashboard.addWidgets(
      graph('Checkouts and payments', [count(METRIC.checkoutsOpened), count(METRIC.paymentsPaid)], [byDimension(METRIC.checkoutsDenied, DIMENSION.reason)]),
      graph('Payment links retired', [count(METRIC.linksAutoInactivated), count(METRIC.linksExpired)]),
      graph(
        'Refunds',
        [count(METRIC.refundsCreated), count(METRIC.refundsHeld), count(METRIC.refundsCanceled), count(METRIC.refundsFailed)],
        [serviceMetric(METRIC.oldestHeldRefundAge, 'Maximum').with({ label: 'oldest held refund (s)' })],
      ),
      graph('Chargebacks', [count(METRIC.chargebacksOpened), count(METRIC.chargebacksAutoAccepted)]),
      graph(
        'Acquirer',
        [
          byDimension(METRIC.acquirerNotificationsRefused, DIMENSION.reason),
          byDimension(METRIC.acquirerNotificationsUnmatched, DIMENSION.reason),
          byDimension(METRIC.acquirerNotificationsNoChange, DIMENSION.reason),
          count(METRIC.acquirerCommandsParked),
        ],
        [byDimension(METRIC.acquirerModificationsFailed, DIMENSION.operation), byDimension(METRIC.acquirerUnavailable, DIMENSION.operation)],
      ),
      graph(
        'Webhook attempts',
        [byDimension(METRIC.webhookAttempts, DIMENSION.outcome)],
        [serviceMetric(METRIC.webhookAttemptLatency, 'p99').with({ label: 'attempt latency p99 (ms)' })],
      ),
      graph('API', [requests.with({ label: 'requests' }), serverErrors.with({ label: '5xx' }), count(METRIC.idempotentReplays)], [p99.with({ label: 'latency p99 (ms)' })]),
      graph('Outbox publishing and minute jobs', [count(METRIC.eventsPublishFailed)], [byDimension(METRIC.jobFailures, DIMENSION.job)]),
      graph('4xx by route', [byDimension(METRIC.clientErrors, DIMENSION.route)]),
      graph('5xx by route', [byDimension(METRIC.serverErrors, DIMENSION.route)]),
    );
  }
}
