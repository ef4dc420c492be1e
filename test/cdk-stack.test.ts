import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PaymentOpsStack } from '../lib/payment-ops-stack';
import { INDEXES } from '../shared/db/table';
import { routes } from '../shared/routes';
import { PUBLISHABLE_RECORD_FILTERS } from '../shared/webhooks/stream-records';

let stack: Stack;
let template: Template;

beforeAll(() => {
  // No bundling: synth of the stack without building every function.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new PaymentOpsStack(app, 'Test');
  Aspects.of(stack).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
});

test('stack: one HTTP API route per operation, each to its own function', () => {
  template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
  for (const route of routes) {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}` });
  }
  const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
  const targets = new Set(Object.values(integrations).map((integration) => JSON.stringify(integration.Properties.IntegrationUri)));
  expect(targets.size).toBe(routes.length);
});

test('stack: functions run Node.js 22 on ARM64 with tracing and the table name', () => {
  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Environment: { Variables: { TABLE_NAME: Match.anyValue() } } },
  });
  expect(Object.keys(functions).length).toBeGreaterThanOrEqual(routes.length);
  for (const fn of Object.values(functions)) {
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
  }
});

test('stack: read routes get read-only table access', () => {
  const readRoute = routes.find((route) => route.access === 'read')!;
  const policies = template.findResources('AWS::IAM::Policy');
  const policy = Object.entries(policies).find(([id]) => id.includes(readRoute.handler.replace(/-/g, '')));
  expect(policy).toBeDefined();
  const actions = JSON.stringify(policy![1].Properties.PolicyDocument.Statement.map((s: { Action: unknown }) => s.Action));
  expect(actions).not.toMatch(/PutItem|UpdateItem|DeleteItem|TransactWrite|BatchWrite/);
});

test('stack: the table is on-demand with PITR, deletion protection, stream, TTL and every index', () => {
  template.hasResourceProperties('AWS::DynamoDB::Table', {
    BillingMode: 'PAY_PER_REQUEST',
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    DeletionProtectionEnabled: true,
    StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    TimeToLiveSpecification: { AttributeName: 'expiresAtEpoch', Enabled: true },
    GlobalSecondaryIndexes: Object.values(INDEXES).map((index) =>
      Match.objectLike({ IndexName: index.name, Projection: { ProjectionType: 'ALL' } }),
    ),
  });
  template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
});

test('stack: event bus, webhook queue with a dead-letter queue and an alarm on it', () => {
  template.resourceCountIs('AWS::Events::EventBus', 1);
  template.hasResourceProperties('AWS::SQS::Queue', {
    RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: Match.anyValue() },
  });
  template.hasResourceProperties('AWS::CloudWatch::Alarm', { Threshold: 1 });
});

test('stack: API access logs are on', () => {
  template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }) });
});

test('cdk-nag: AwsSolutions has no unsuppressed errors or warnings', () => {
  const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
  const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'));
  expect(errors.map((e) => e.entry.data)).toEqual([]);
  expect(warnings.map((w) => w.entry.data)).toEqual([]);
});

test('stack: a one-minute schedule runs the minute jobs', () => {
  template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
});

describe('webhooks', () => {
  const logicalId = (type: string, fragment: string) => {
    const ids = Object.keys(template.findResources(type)).filter((id) => id.includes(fragment));
    expect(ids).toHaveLength(1);
    return ids[0];
  };
  const policyActions = (functionFragment: string) => {
    const policies = Object.entries(template.findResources('AWS::IAM::Policy')).filter(([id]) => id.includes(functionFragment));
    return policies.flatMap(([, policy]) =>
      policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[]; Resource: unknown }) =>
        [statement.Action].flat().map((action) => ({ action, resource: JSON.stringify(statement.Resource) })),
      ),
    );
  };

  test('webhooks: the publisher reads the table stream, only inserted outbox events and replays, with partial batch failures', () => {
    const table = logicalId('AWS::DynamoDB::Table', 'Table');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: logicalId('AWS::Lambda::Function', 'WebhooksPublisher') },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: PUBLISHABLE_RECORD_FILTERS.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EVENT_BUS_NAME: { Ref: logicalId('AWS::Events::EventBus', 'Events') } }) },
    });
  });

  test('webhooks: an EventBridge rule on the bus sends every service event to the webhook queue', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: logicalId('AWS::Events::EventBus', 'Events') },
      EventPattern: { source: ['payment-operations'] },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'WebhookDeliveries'), 'Arn'] } })],
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['sqs:SendMessage']), Principal: { Service: 'events.amazonaws.com' } })]),
      }),
    });
  });

  test('webhooks: the delivery function consumes the webhook queue in batches with partial batch failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'WebhookDeliveries'), 'Arn'] },
      FunctionName: { Ref: logicalId('AWS::Lambda::Function', 'WebhooksDeliverer') },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'IteratorAge', Namespace: 'AWS/Lambda' });
  });

  test('webhooks: least privilege — the publisher only reads the stream and puts events; the deliverer never deletes or scans', () => {
    const publisher = policyActions('WebhooksPublisher').map((grant) => grant.action);
    expect(publisher).toContain('events:PutEvents');
    expect(publisher).toContain('dynamodb:GetRecords');
    expect(publisher.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|Query|Scan|GetItem)/.test(action))).toEqual([]);

    const deliverer = policyActions('WebhooksDeliverer');
    const dynamo = deliverer.filter((grant) => grant.action.startsWith('dynamodb:'));
    expect(dynamo.map((grant) => grant.action).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(dynamo.every((grant) => !grant.resource.includes('index'))).toBe(true);
    const sends = deliverer.filter((grant) => grant.action === 'sqs:SendMessage').map((grant) => grant.resource);
    expect(sends.some((resource) => resource.includes('WebhookDeliveries'))).toBe(true);
    expect(sends.some((resource) => resource.includes('WebhookDeadLetters'))).toBe(true);
    expect(deliverer.map((grant) => grant.action)).not.toContain('events:PutEvents');
  });
});
