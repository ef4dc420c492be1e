import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PaymentOpsStack } from '../lib/payment-ops-stack';
import { INDEXES } from '../shared/db/table';
import { routes } from '../shared/routes';

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

test('stack: the settlement feed function imports with table write access and its ARN is an output', () => {
  const functions = template.findResources('AWS::Lambda::Function', { Properties: { Timeout: 300 } });
  const [logicalId] = Object.keys(functions).filter((id) => id.startsWith('SettlementImport'));
  expect(logicalId).toBeDefined();
  template.hasOutput('SettlementImportFunctionArn', { Value: { 'Fn::GetAtt': [logicalId, 'Arn'] } });
  const policies = template.findResources('AWS::IAM::Policy');
  const policy = Object.entries(policies).find(([id]) => id.startsWith('SettlementImport'));
  const actions = JSON.stringify(policy![1].Properties.PolicyDocument.Statement.map((s: { Action: unknown }) => s.Action));
  expect(actions).toMatch(/BatchWriteItem/);
  expect(actions).toMatch(/PutItem/);
});

test('stack: settlement routes are read-only GETs sharing the {code} path parameter', () => {
  const settlementRoutes = routes.filter((route) => route.path.startsWith('/v1/settlements'));
  expect(settlementRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
    'GET /v1/settlements',
    'GET /v1/settlements/{code}',
    'GET /v1/settlements/{code}/records',
  ]);
  for (const route of settlementRoutes) {
    expect(route.access).toBe('read');
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `GET ${route.path}` });
  }
});
