import { FUNCTION_MEMORY_MB } from '../../../lib/api-function';
import { EVIDENCE_PDF_MEMORY_MB, PASSWORD_HASHING_MEMORY_MB } from '../../../shared/api/operation';
import { OUTBOX_RETRY_ATTEMPTS } from '../../../lib/outbox';
import { PENDING_CREDIT_RECORD_FILTERS } from '../../../shared/db/pending-credit-records';
import { REPORT_RECORD_FILTERS } from '../../../shared/db/report-records';
import { REPORT_REQUEST_DETAIL_TYPE, REPORT_REQUEST_SOURCE } from '../../../shared/report-requests';
import { REPORT_BUILD_DEADLINE_MINUTES, REPORT_BUILDER_MAX_EVENT_AGE_MINUTES, REPORT_BUILDER_TIMEOUT_MINUTES } from '../../../shared/domain/reports';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { DELIVERER_TIMEOUT_SECONDS, WEBHOOK_QUEUE_MAX_RECEIVES } from '../../../lib/webhooks';
import { AWS_WEBHOOK_SETTINGS } from '../../../shared/webhooks/settings';
import { receivesToAttempt } from '../../../shared/webhooks/sqs-delivery-queue';
import { Match, type Annotations, type Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_STAGE, RUNBOOKS_URL, stageNamed } from '../../../lib/stages';
import { createWebhookEndpoint, rollWebhookEndpointSecret } from '../../../shared/api/webhook-endpoints';
import { secretsKeyAlias } from '../../../shared/crypto/kms-sealer';
import { synthesizeStage, type SynthesizedStage } from './synth';
import { INDEXES } from '../../../shared/db/table';
import { routes, unmatchedRouteHandler } from '../../../shared/api';
import { methodsOf, notesKeyUseOnly, routeTableGrant, tableGrantOf, touchesSessionOnly } from '../../../shared/api/operation';
import { backgroundFunctions, type BackgroundFunction } from '../../../shared/api/background';
import { SOURCE_ENTRY_METADATA } from '../../../lib/api-function';
import { policyStatementsOf } from '../../support/artifacts';
import { functionOfRoute, type CfnResource, type CfnTemplate } from '../../../bin/local/aws/template';

/** What a stream mapping needs of its function's role (granted beside it by CDK). */
const STREAM_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
import { areaOf } from '../../../lib/route-area';
import { PUBLISHABLE_RECORD_FILTERS } from '../../../shared/webhooks/stream-records';
import { NOTIFICATION_MAPPING, NOTIFICATION_RECORD_FILTERS } from '../../../shared/db/acquirer-notification-store';
import { METRIC, SERVICE_NAME } from '../../../shared/observability/catalog';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parent's template and each nested stack's, by the logical id of its AWS::CloudFormation::Stack resource. */
let parent: CfnTemplate;
let nested: SynthesizedStage['nested'];
/** The parent with its nested stacks read in, as artifact mode reads them (a nested resource's id after its stack's). */
let template: Template;
/** What cdk-nag reported on the stack and its nested stacks. */
let annotations: Annotations;
/** A flattened logical id without its nested stack's: the id within its own template. */
let ownId: (id: string) => string;
/** The namespace of the local stage's metrics. */
let metricsNamespace: string;

// The local stage: what `cdk synth` builds without `-c stage`, and what `npm start` and the tests run.
beforeAll(() => {
  ({ parent, nested, template, annotations, ownId, stage: { metricsNamespace } } = synthesizeStage(DEFAULT_STAGE));
});

test('stack: one HTTP API route per operation and method, each operation to its own function; $default to the unmatched-route function', () => {
  const keys = routes.flatMap((route) => methodsOf(route).map((method) => `${method} ${route.path}`));
  template.resourceCountIs('AWS::ApiGatewayV2::Route', keys.length + 1);
  for (const key of keys) template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
  const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
  const targets = new Set(Object.values(integrations).map((integration) => JSON.stringify(integration.Properties.IntegrationUri)));
  expect(targets.size).toBe(routes.length + 1);
  expect(functionOfRoute(template.toJSON().Resources, '$default')).toMatch(new RegExp(`^Route${unmatchedRouteHandler.replace(/-/g, '')}`));
});

test('stack: HEAD is routed to the function of every page read with GET (HTTP API does not map it by itself)', () => {
  const pages = routes.filter((route) => route.kind === 'page' && route.method === 'GET');
  expect(pages.map((page) => page.path)).toEqual(expect.arrayContaining(['/checkout/{id}', '/dashboard', '/docs', '/docs/errors']));
  const resources = template.toJSON().Resources;
  for (const page of pages) expect(functionOfRoute(resources, `HEAD ${page.path}`)).toBe(functionOfRoute(resources, `GET ${page.path}`));
});

test("stack: the parent and every nested stack within CloudFormation's 500 resources per stack", () => {
  const templates: [string, CfnTemplate][] = [['parent', parent], ...[...nested.values()].map(({ stack: child, template: own }): [string, CfnTemplate] => [child.node.id, own])];
  const counts = templates.map(([name, own]) => ({ name, resources: Object.keys(own.Resources ?? {}).length }));
  expect(counts.filter(({ resources }) => resources > 500)).toEqual([]);
});

test('stack: each route is deployed in the nested stack of its area, with its function, integration, permission and routes; the parent keeps the shared resources', () => {
  const stackOfArea = new Map([...nested].map(([logicalId, { stack: child }]) => [child.node.id, logicalId]));
  for (const route of routes) {
    const areaStack = stackOfArea.get(`${areaOf(route)}Routes`);
    expect(areaStack).toBeDefined();
    const own = nested.get(areaStack!)!.template.Resources!;
    const key = `${route.method} ${route.path}`;
    expect(functionOfRoute(template.toJSON().Resources, key).startsWith(areaStack!)).toBe(true);
    expect(Object.values(own).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties?.RouteKey === key)).toHaveLength(1);
  }
  for (const { template: own } of nested.values()) {
    const types = Object.values(own.Resources ?? {}).map((resource) => resource.Type);
    const functions = types.filter((type) => type === 'AWS::Lambda::Function').length;
    expect(types.filter((type) => type === 'AWS::Lambda::Permission')).toHaveLength(functions);
    expect(types.filter((type) => type === 'AWS::ApiGatewayV2::Integration')).toHaveLength(functions);
  }
  const parentTypes = new Set(Object.values(parent.Resources!).map((resource) => resource.Type));
  for (const type of ['AWS::DynamoDB::Table', 'AWS::ApiGatewayV2::Api', 'AWS::ApiGatewayV2::Stage', 'AWS::Events::EventBus', 'AWS::SQS::Queue', 'AWS::Events::Rule', 'AWS::CloudWatch::Dashboard']) {
    expect(parentTypes).toContain(type);
  }
});

test('stack: functions run Node.js 22 on ARM64 with the table name; the local stage traces nothing, so no role may write to X-Ray', () => {
  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Environment: { Variables: { TABLE_NAME: Match.anyValue() } } },
  });
  expect(Object.keys(functions).length).toBeGreaterThanOrEqual(routes.length);
  for (const fn of Object.values(functions)) {
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    expect(fn.Properties.TracingConfig?.Mode ?? 'PassThrough').toBe('PassThrough');
  }
  expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('xray:');
});

test("stack: every function has the memory bench:cost chose (Power Tuning, balanced), or its declaration's own (a password hash's whole vCPU, a dispute's PDFs), not a flat 1,024 MB", () => {
  const memory = Object.values(template.findResources('AWS::Lambda::Function')).map((fn) => fn.Properties.MemorySize);
  const declared = routes.flatMap((route) => (route.memoryMb ? [route.memoryMb] : []));
  expect(new Set(memory)).toEqual(new Set([FUNCTION_MEMORY_MB, PASSWORD_HASHING_MEMORY_MB, EVIDENCE_PDF_MEMORY_MB]));
  expect(memory.filter((size) => size !== FUNCTION_MEMORY_MB).sort()).toEqual(declared.sort());
});

describe('least privilege', () => {
  const resources = () => template.toJSON().Resources as Record<string, CfnResource>;
  /** What a function's role may do, action by action, with the resources each is granted on. */
  const grantsOf = (functionId: string) => {
    const grants = new Map<string, string[]>();
    for (const statement of policyStatementsOf(resources(), functionId)) {
      for (const action of [statement.Action].flat()) grants.set(action, [...(grants.get(action) ?? []), ...[statement.Resource].flat().map((resource) => JSON.stringify(resource))]);
    }
    return grants;
  };
  const tableActionsOf = (functionId: string) => [...grantsOf(functionId).keys()].filter((action) => action.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(action)).sort();
  const expected = (grant: { actions: string[] }) => grant.actions.map((action) => `dynamodb:${action}`).sort();
  const functionOf = (handler: string) => {
    const ids = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => ownId(id).startsWith(handler));
    expect(ids).toHaveLength(1);
    return ids[0];
  };

  test("every route's function may take exactly the DynamoDB actions its declaration names (and a keyed POST's or a form's idempotency release), on the table, Query on the indexes", () => {
    for (const route of routes) {
      const functionId = functionOfRoute(resources(), `${route.method} ${route.path}`);
      const grant = routeTableGrant(route);
      // A session page's UpdateItem is on session items alone, a keyed read's on key items alone (their own tests).
      const sessionTouch = touchesSessionOnly(route) || notesKeyUseOnly(route) ? ['UpdateItem' as const] : [];
      expect({ route: route.path, actions: tableActionsOf(functionId) }).toEqual({ route: route.path, actions: expected({ actions: [...grant.actions, ...sessionTouch] }) });
      expect(grantsOf(functionId).get('dynamodb:Query')?.some((resource) => resource.includes('/index/*')) ?? false).toBe(grant.indexes);
    }
    expect(tableActionsOf(functionOfRoute(resources(), '$default'))).toEqual([]);
  });

  test('every function outside the routes may take exactly the DynamoDB actions its declaration names', () => {
    const functions: [string, BackgroundFunction][] = [
      ['MinuteJobs', backgroundFunctions.minuteJobs],
      ['OutboxProcessor', backgroundFunctions.outboxProcessor],
      ['AcquirerNotificationProcessor', backgroundFunctions.acquirerNotificationProcessor],
      ['WebhooksDeliverer', backgroundFunctions.webhookDeliverer],
      ['ChargebackFeed', backgroundFunctions.chargebackFeed],
      ['SettlementImport', backgroundFunctions.settlementImport],
      ['ReportBuilder', backgroundFunctions.reportBuilder],
    ];
    for (const [prefix, declared] of functions) {
      const functionId = functionOf(prefix);
      expect(resources()[functionId].Metadata![SOURCE_ENTRY_METADATA]).toBe(`functions/${declared.handler}/handler.ts`);
      expect({ prefix, actions: tableActionsOf(functionId) }).toEqual({ prefix, actions: expected(tableGrantOf(declared.table)) });
    }
  });

  test('no function may Scan, BatchGetItem or DescribeTable; DeleteItem and BatchWriteItem only where declared; only the stream processors read the stream', () => {
    const functions = Object.keys(template.findResources('AWS::Lambda::Function'));
    const holding = (action: string) => functions.filter((id) => grantsOf(id).has(action)).map(ownId).sort();
    for (const action of ['dynamodb:Scan', 'dynamodb:BatchGetItem', 'dynamodb:DescribeTable', 'dynamodb:*']) expect(holding(action)).toEqual([]);
    const batchWriting = routes.filter((route) => routeTableGrant(route).actions.includes('BatchWriteItem')).map((route) => `Route${route.handler.replace(/-/g, '')}`);
    expect(holding('dynamodb:BatchWriteItem').map((id) => id.replace(/Function.*$/, ''))).toEqual([...batchWriting, 'SettlementImport'].sort());
    const deleting = routes.filter((route) => routeTableGrant(route).actions.includes('DeleteItem')).length + 2;
    expect(holding('dynamodb:DeleteItem')).toHaveLength(deleting);
    expect(holding('dynamodb:GetRecords').map((id) => id.replace(/Function.*$/, '')).sort()).toEqual(['AcquirerNotificationProcessor', 'OutboxProcessor']);
  });

  test('each function writes the streams of its own log group only: no AWSLambdaBasicExecutionRole, no other log group', () => {
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    for (const [functionId, fn] of functions) {
      const role = resources()[fn.Properties.Role['Fn::GetAtt'][0]];
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
      const logs = [...grantsOf(functionId)].filter(([action]) => action.startsWith('logs:'));
      const logGroup = JSON.stringify({ 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] });
      expect({ functionId, logs }).toEqual({ functionId, logs: [['logs:CreateLogStream', [logGroup]], ['logs:PutLogEvents', [logGroup]]] });
    }
  });
});

/** The statements of a route's function that write the table, whatever they name. */
function tableWrites(handler: string): { Action: unknown; Condition?: unknown }[] {
  const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) => id.includes(`Route${handler.replace(/-/g, '')}Role`));
  expect(policy).toBeDefined();
  return (policy![1].Properties.PolicyDocument.Statement as { Action: unknown; Condition?: unknown }[]).filter((statement) => /PutItem|UpdateItem|DeleteItem|TransactWrite|BatchWrite/.test(JSON.stringify(statement.Action)));
}

/** The one write of a keyed read route: its key's last use, an UpdateItem of key items (TOKEN#…) only. */
const LAST_USE_ONLY = [expect.objectContaining({ Action: 'dynamodb:UpdateItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TOKEN#*'] } } })];

test("stack: read routes get read-only table access, but for a keyed operation's one UpdateItem of its key's last use", () => {
  const readRoutes = routes.filter((route) => route.table === 'read' && route.kind === 'api');
  expect(readRoutes.length).toBeGreaterThan(10);
  for (const route of readRoutes) expect([route.handler, tableWrites(route.handler)]).toEqual([route.handler, route.auth === 'public' ? [] : LAST_USE_ONLY]);
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
    RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: WEBHOOK_QUEUE_MAX_RECEIVES },
  });
  // A delivery postponed for the longest retry delay is received twice (early, then due): the
  // redrive count leaves room for that and for failed receives on top.
  const longestDelay = Math.max(...AWS_WEBHOOK_SETTINGS.policy.scheduleMs);
  expect(receivesToAttempt(longestDelay)).toBe(2);
  expect(receivesToAttempt(15 * 60_000)).toBe(1);
  expect(WEBHOOK_QUEUE_MAX_RECEIVES).toBeGreaterThan(receivesToAttempt(longestDelay) + 1);
  template.hasResourceProperties('AWS::CloudWatch::Alarm', { Threshold: 1 });
});

test('stack: API access logs are on', () => {
  template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }) });
});

test('cdk-nag: AwsSolutions has no unsuppressed errors or warnings', () => {
  const errors = annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
  const warnings = annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'));
  expect(errors.map((e) => e.entry.data)).toEqual([]);
  expect(warnings.map((w) => w.entry.data)).toEqual([]);
});

test('stack: a one-minute schedule runs the minute jobs, never retried (neither by EventBridge nor by Lambda), an event older than a minute dropped', () => {
  const [jobs] = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('MinuteJobs'));
  template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(1 minute)',
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [jobs, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } })],
  });
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: jobs }, MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 });
});

test('stack: the chargeback routes exist, reads with read-only access, test helpers with write access', () => {
  const chargebackRoutes = routes.filter((route) => route.path.startsWith('/v1/') && route.handler.includes('chargeback'));
  expect(chargebackRoutes.map((route) => `${route.method} ${route.path} ${route.table}`).sort()).toEqual([
    'GET /v1/chargebacks read',
    'GET /v1/chargebacks/{id} read',
    'GET /v1/payments/{id}/chargebacks read',
    'POST /v1/chargebacks/{id}/accept write',
    'POST /v1/chargebacks/{id}/dispute write',
    'POST /v1/test_helpers/chargebacks/{id}/transitions write',
    'POST /v1/test_helpers/payments/{id}/chargebacks write',
  ]);
  for (const route of chargebackRoutes) {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}` });
  }
});

test('stack: the evidence documents bucket is private, SSE-S3 encrypted, TLS only, versioned, kept 2 years, logged; CORS for the dashboard only', () => {
  // Prepare
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const [bucketId, bucket] = Object.entries(resources).find(([id, resource]) => resource.Type === 'AWS::S3::Bucket' && id.startsWith('EvidenceDocumentsBucket'))!;
  const privateBucket = { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true };
  // Assess
  expect(bucket.Properties).toMatchObject({
    PublicAccessBlockConfiguration: privateBucket,
    BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    VersioningConfiguration: { Status: 'Enabled' },
    LifecycleConfiguration: { Rules: expect.arrayContaining([{ ExpirationInDays: 730, NoncurrentVersionExpiration: { NoncurrentDays: 730 }, Status: 'Enabled' }]) },
    LoggingConfiguration: { DestinationBucketName: { Ref: expect.stringMatching(/^EvidenceDocumentsAccessLogs/) } },
    CorsConfiguration: { CorsRules: [{ AllowedMethods: ['PUT'], AllowedHeaders: ['content-type'], AllowedOrigins: [expect.anything()] }] },
  });
  template.hasResourceProperties('AWS::S3::BucketPolicy', {
    Bucket: { Ref: bucketId },
    PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
  });
});

test("stack: only the documents routes (the API's, the dashboard's) may upload (s3:PutObject under documents/) and only the dispute routes may read; no other function reaches the bucket", () => {
  // Prepare
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const bucketId = Object.keys(resources).find((id) => resources[id].Type === 'AWS::S3::Bucket' && id.startsWith('EvidenceDocumentsBucket'))!;
  const s3Grants = Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::IAM::Policy')
    .flatMap(([id, policy]) =>
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')))
        .map((statement) => ({ policy: id, actions: [statement.Action].flat(), resource: JSON.stringify(statement.Resource) })),
    );
  // Assess
  expect(s3Grants.map(({ policy, actions }) => `${ownId(policy).replace(/[0-9A-F]{8}$/, '')} ${actions.join(',')}`).sort()).toEqual([
    'RoutecreatedisputedocumentRoleDefaultPolicy s3:PutObject',
    'RoutedashboardcreatedisputedocumentRoleDefaultPolicy s3:PutObject',
    'RoutedashboarddisputechargebackRoleDefaultPolicy s3:GetObject,s3:GetObjectVersion',
    'RoutedashboarddisputechargebackRoleDefaultPolicy s3:ListBucket',
    'RoutedisputechargebackRoleDefaultPolicy s3:GetObject,s3:GetObjectVersion',
    'RoutedisputechargebackRoleDefaultPolicy s3:ListBucket',
    'RoutedashboardreportRoleDefaultPolicy s3:GetObject',
    'RoutegetreportRoleDefaultPolicy s3:GetObject',
    'RoutelistreportsRoleDefaultPolicy s3:GetObject',
    'ReportBuilderRoleDefaultPolicy s3:PutObject,s3:AbortMultipartUpload',
  ].sort());
  for (const grant of s3Grants) expect(grant.resource).toContain(bucketId);
  // Each grant names one prefix: the documents' for the documents' functions, the reports' for the reports'.
  for (const grant of s3Grants.filter(({ actions }) => !actions.includes('s3:ListBucket'))) {
    expect([grant.resource.endsWith('/documents/*"]]}'), grant.resource.endsWith('/reports/*"]]}')]).toContain(true);
    expect(grant.resource.includes('/reports/*')).toBe(/report/i.test(grant.policy));
  }
});

test('stack: report files are kept 30 days: a lifecycle rule on their prefix alone expires them (and what a delete marker or an unfinished upload leaves)', () => {
  // Prepare
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const [, bucket] = Object.entries(resources).find(([id, resource]) => resource.Type === 'AWS::S3::Bucket' && id.startsWith('EvidenceDocumentsBucket'))!;
  // Assess
  expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual({
    Id: 'ReportFiles',
    Prefix: 'reports/',
    ExpirationInDays: 30,
    NoncurrentVersionExpiration: { NoncurrentDays: 1 },
    AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
    Status: 'Enabled',
  });
  // The documents' rule (2 years) names no prefix, so it covers the reports too: the reports' shorter one wins for them.
  expect(bucket.Properties.LifecycleConfiguration.Rules).toHaveLength(2);
});

test("stack: each new report's bus event invokes the report builder (asynchronously, retried twice), a function of its own with the documents' bucket and 15 minutes", () => {
  const builder = Object.entries(template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>).find(
    ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith('ReportBuilder'),
  )!;
  expect(builder[1].Properties).toMatchObject({ Timeout: 900, MemorySize: 512, Environment: { Variables: expect.objectContaining({ DOCUMENTS_BUCKET: expect.anything() }) } });
  template.hasResourceProperties('AWS::Events::Rule', {
    EventPattern: { source: [REPORT_REQUEST_SOURCE], 'detail-type': [REPORT_REQUEST_DETAIL_TYPE] },
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [builder[0], 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 } })],
  });
});

test("stack: Lambda's attempts of the report builder all end before a report's build deadline, past which the minute job fails it: two retries, no attempt started past 40 minutes", () => {
  const [builder] = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('ReportBuilder'));
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: builder }, MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 40 * 60 });
  // Three attempts, each to its timeout, with Lambda's waits between them, fit in the event's age…
  const [waitMs1, waitMs2] = AWS_LIMITS.lambda.asyncRetryWaitsMs;
  expect(2 * REPORT_BUILDER_TIMEOUT_MINUTES * 60_000 + waitMs1 + waitMs2).toBeLessThanOrEqual(REPORT_BUILDER_MAX_EVENT_AGE_MINUTES * 60_000);
  // …and the last attempt that may start ends before the deadline.
  expect(REPORT_BUILDER_MAX_EVENT_AGE_MINUTES + REPORT_BUILDER_TIMEOUT_MINUTES).toBeLessThan(REPORT_BUILD_DEADLINE_MINUTES);
});

test('stack: the chargeback feed function exists, writes the table and its ARN is an output', () => {
  const feed = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('ChargebackFeed'));
  expect(feed).toBeDefined();
  expect(feed![1].Properties.Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything() });
  const outputs = template.findOutputs('ChargebackFeedFunctionArn');
  expect(JSON.stringify(Object.values(outputs)[0].Value)).toContain(feed![0]);
  const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) => id.startsWith('ChargebackFeed'));
  expect(JSON.stringify(policy![1].Properties.PolicyDocument)).toMatch(/dynamodb:PutItem/);
});

test('stack: without a domain (the local stage), BASE_URL of the functions that build links outside a request (minute jobs, chargeback feed), the documents\' CORS origin and ApiUrl are the API endpoint', () => {
  const endpoint = { 'Fn::GetAtt': [expect.stringMatching(/^Api/), 'ApiEndpoint'] };
  for (const prefix of ['MinuteJobs', 'ChargebackFeed']) {
    const fn = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix));
    expect(fn![1].Properties.Environment.Variables.BASE_URL).toEqual(endpoint);
  }
  const bucket = Object.values(template.findResources('AWS::S3::Bucket')).find((resource) => resource.Properties.CorsConfiguration)!;
  expect(bucket.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual([endpoint]);
  expect(template.toJSON().Outputs.ApiUrl.Value).toEqual(endpoint);
  template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
});

test('stack: refund routes, each with its own function; reads are read-only, writes may write', () => {
  const refundRoutes = routes.filter((route) => route.path.startsWith('/v1/') && /refund|balance_adjustments/.test(route.path));
  expect(refundRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
    'GET /v1/payments/{id}/refunds',
    'GET /v1/refunds',
    'GET /v1/refunds/{id}',
    'POST /v1/payments/{id}/refunds',
    'POST /v1/refunds/{id}/cancel',
    'POST /v1/test_helpers/balance_adjustments',
    'POST /v1/test_helpers/refunds/{id}/transitions',
  ]);
  const policies = template.findResources('AWS::IAM::Policy');
  for (const route of refundRoutes) {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}` });
    const policy = Object.entries(policies).find(([id]) => id.includes(`Route${route.handler.replace(/-/g, '')}Role`));
    expect(policy).toBeDefined();
    const actions = JSON.stringify(policy![1].Properties.PolicyDocument.Statement.map((s: { Action: unknown }) => s.Action));
    if (route.table === 'read') expect(tableWrites(route.handler)).toEqual(LAST_USE_ONLY);
    else expect(actions).toMatch(/UpdateItem/);
  }
});

test('stack: the minute jobs function (process-refunds among them) may write the table', () => {
  const policies = template.findResources('AWS::IAM::Policy');
  const policy = Object.entries(policies).find(([id]) => id.startsWith('MinuteJobs'));
  expect(policy).toBeDefined();
  expect(JSON.stringify(policy![1].Properties.PolicyDocument)).toMatch(/UpdateItem/);
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
    expect(route.table).toBe('read');
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `GET ${route.path}` });
  }
});

test('stack: dashboard pages read the table and update nothing but a session item; sign-in and sign-out write; forms write as the operation they perform', () => {
  const policies = template.findResources('AWS::IAM::Policy');
  const statementsOf = (handler: string) => {
    const found = Object.entries(policies).find(([id]) => id.includes(`Route${handler.replace(/-/g, '')}Role`));
    expect(found).toBeDefined();
    return found![1].Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[];
  };
  const actionsOf = (handler: string) => JSON.stringify(statementsOf(handler).map((statement) => statement.Action));
  const pages = routes.filter((route) => route.path.startsWith('/dashboard') && route.method === 'GET' && route.auth !== 'public').map((route) => route.handler);
  expect(pages).toEqual(expect.arrayContaining(['dashboard', 'dashboard-refund', 'dashboard-payment-link', 'dashboard-payments', 'dashboard-events', 'dashboard-search', 'dashboard-security']));
  for (const handler of pages) {
    const writes = statementsOf(handler).filter((statement) => /PutItem|UpdateItem|DeleteItem|TransactWrite|BatchWrite/.test(JSON.stringify(statement.Action)));
    // The session's last request (its idle end): UpdateItem of items whose key starts DASHSESSION#, nothing else.
    expect([handler, writes]).toEqual([handler, [expect.objectContaining({ Action: 'dynamodb:UpdateItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['DASHSESSION#*'] } } })]]);
  }
  for (const handler of ['dashboard-sign-in', 'dashboard-sign-out']) expect(actionsOf(handler)).toMatch(/PutItem.*DeleteItem|DeleteItem.*PutItem/);
  for (const handler of ['dashboard-create-payment-link', 'dashboard-update-payment-link', 'dashboard-create-refund']) {
    const form = routes.find((route) => route.handler === handler)!;
    expect(form.kind === 'page' && form.acts?.table).toBe('write');
    expect(actionsOf(handler)).toMatch(/PutItem/);
  }
  for (const key of ['GET /dashboard', 'POST /dashboard/session', 'POST /dashboard/sign-out', 'GET /dashboard/refunds/{id}', 'POST /dashboard/payments/{id}/refunds']) {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
  }
});

test("stack: the functions that hash a password get a whole vCPU (1,769 MB), a dispute's PDFs 1,024 MB; every other route the default bench:cost chose", () => {
  const functions = template.findResources('AWS::Lambda::Function');
  const memoryOf = (handler: string) => Object.entries(functions).find(([id]) => id.includes(`Route${handler.replace(/-/g, '')}Function`))![1].Properties.MemorySize;
  const hashing = routes.filter((route) => route.memoryMb === PASSWORD_HASHING_MEMORY_MB).map((route) => route.handler);
  expect(hashing).toEqual(expect.arrayContaining(['dashboard-sign-in', 'dashboard-change-password']));
  expect(routes.filter((route) => route.memoryMb === EVIDENCE_PDF_MEMORY_MB).map((route) => route.handler).sort()).toEqual(['dashboard-dispute-chargeback', 'dispute-chargeback']);
  for (const route of routes) expect([route.handler, memoryOf(route.handler)]).toEqual([route.handler, route.memoryMb ?? FUNCTION_MEMORY_MB]);
});

test('stack: the API reference routes are public functions without table access', () => {
  const functions = Object.keys(template.findResources('AWS::Lambda::Function'));
  const policies = template.findResources('AWS::IAM::Policy');
  for (const handler of ['get-openapi', 'docs-page', 'docs-errors', 'docs-asset']) {
    const route = routes.find((candidate) => candidate.handler === handler)!;
    expect(route.table).toBe('none');
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}`, AuthorizationType: 'NONE' });
    const prefix = `Route${handler.replace(/-/g, '')}Function`;
    expect(functions.some((id) => id.includes(prefix))).toBe(true);
    const policy = Object.entries(policies).find(([id]) => id.includes(prefix));
    expect(JSON.stringify(policy?.[1] ?? {})).not.toMatch(/dynamodb:/);
  }
  expect(routes.find((route) => route.handler === 'docs-asset')!.files).toEqual(
    expect.arrayContaining(['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css']),
  );
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

  test('outbox: the processor reads the table stream, only inserted outbox events, replays, pending credits and reports, with partial batch failures', () => {
    const table = logicalId('AWS::DynamoDB::Table', 'Table');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: logicalId('AWS::Lambda::Function', 'OutboxProcessor') },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: [...PUBLISHABLE_RECORD_FILTERS, ...PENDING_CREDIT_RECORD_FILTERS, ...REPORT_RECORD_FILTERS].map((filter) => ({ Pattern: JSON.stringify(filter) })) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EVENT_BUS_NAME: { Ref: logicalId('AWS::Events::EventBus', 'Events') } }) },
    });
  });

  test('outbox: the processor never blocks a shard on one record: bounded retries, bisected, then its on-failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId('AWS::Lambda::Function', 'OutboxProcessor') },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: OUTBOX_RETRY_ATTEMPTS,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  test("webhooks: the webhook queue's visibility timeout is at least six times its consumer's timeout", () => {
    const queue = template.findResources('AWS::SQS::Queue')[logicalId('AWS::SQS::Queue', 'WebhookDeliveries')];
    const deliverer = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', 'WebhooksDeliverer')];
    expect(deliverer.Properties.Timeout).toBe(DELIVERER_TIMEOUT_SECONDS);
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * deliverer.Properties.Timeout);
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

  test('least privilege — the outbox processor reads the stream, puts events and moves balances, never deletes or scans; the deliverer never deletes or scans', () => {
    const processor = policyActions('OutboxProcessor').map((grant) => grant.action);
    expect(processor).toContain('events:PutEvents');
    expect(processor).toContain('dynamodb:GetRecords');
    expect([...new Set(processor.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|Query|Scan|GetItem|ConditionCheck)/.test(action)))].sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);

    const deliverer = policyActions('WebhooksDeliverer');
    const dynamo = deliverer.filter((grant) => grant.action.startsWith('dynamodb:'));
    expect(dynamo.map((grant) => grant.action).sort()).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(dynamo.every((grant) => !grant.resource.includes('index'))).toBe(true);
    const sends = deliverer.filter((grant) => grant.action === 'sqs:SendMessage').map((grant) => grant.resource);
    expect(sends.some((resource) => resource.includes('WebhookDeliveries'))).toBe(true);
    expect(sends.some((resource) => resource.includes('WebhookDeadLetters'))).toBe(true);
    expect(deliverer.map((grant) => grant.action)).not.toContain('events:PutEvents');
  });
});

describe('observability', () => {
  const alarmIds = () => Object.keys(template.findResources('AWS::CloudWatch::Alarm'));

  test('stack: every function logs at INFO with the service name and emits metrics to the service namespace', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThanOrEqual(routes.length + 5);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        LOG_LEVEL: 'INFO',
        METRICS_NAMESPACE: metricsNamespace,
      });
    }
  });

  test('stack: an alarm for each runbook entry, each pointing at its section of docs/operations.md', () => {
    const runbook = readFileSync(join(__dirname, '../../../docs/operations.md'), 'utf8');
    const sections = new Set([...runbook.matchAll(/^#+ (.+)$/gm)].map((match) => match[1].trim().toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const prefix of [
      'MonitoringApiServerErrorRate',
      'MonitoringApiP99Latency',
      'MonitoringFunctionErrors1',
      'MonitoringFunctionThrottles1',
      'MonitoringPublisherFailures',
      'MonitoringOutboxOnFailure',
      'MonitoringOldestHeldRefund',
      'MonitoringMinuteJobFailures',
      'MonitoringMinuteJobsNotRunning',
      'WebhookDeadLettersAlarm',
      'OutboxIteratorAgeAlarm',
      'MonitoringAcquirerNotificationsRefused',
      'MonitoringAcquirerNotificationsUnmatched',
      'MonitoringAcquirerModificationsFailed',
      'MonitoringAcquirerCommandsParked',
      'MonitoringAcquirerUnavailable',
      'MonitoringAcquirerNotificationsOnFailure',
      'AcquirerNotificationProcessingIteratorAgeAlarm',
    ]) {
      expect(alarmIds().some((id) => id.startsWith(prefix))).toBe(true);
    }
    const link = new RegExp(`Runbook: ${RUNBOOKS_URL.replace(/[.?/]/g, '\\$&')}#([a-z0-9-]+)$`);
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) {
      const anchor = link.exec(alarm.Properties.AlarmDescription)?.[1];
      expect(anchor && sections.has(anchor) ? anchor : alarm.Properties.AlarmDescription).toBe(anchor);
      // CloudWatch's limit on a description.
      expect(alarm.Properties.AlarmDescription.length).toBeLessThanOrEqual(1024);
    }
  });

  test('alarms: every alarm notifies the stage\'s alarm topic when it goes off and when it is back to OK', () => {
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(30);
    for (const [id, alarm] of alarms) {
      expect({ id, AlarmActions: alarm.Properties.AlarmActions, OKActions: alarm.Properties.OKActions }).toEqual({ id, AlarmActions: [{ Ref: topicId }], OKActions: [{ Ref: topicId }] });
    }
  });

  test('alarms: the topic is encrypted with a key of its own, rotated, that CloudWatch may use to publish; TLS only', () => {
    const [[topicId, topic]] = Object.entries(template.findResources('AWS::SNS::Topic'));
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] })]) },
    });
    expect(template.findResources('AWS::KMS::Key')[keyId]).toBeDefined();
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('alarms: the minute schedule that stops running pages: fewer than one jobs invocation a minute for 5 minutes, missing data breaching', () => {
    const [jobs] = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('MinuteJobs'));
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Invocations',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: jobs } }],
      Period: 60,
      Statistic: 'Sum',
      EvaluationPeriods: 5,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
  });

  test('stack: every function is covered by an errors alarm and a throttles alarm', () => {
    const functionIds = Object.keys(template.findResources('AWS::Lambda::Function'));
    const watched = (kind: 'Errors' | 'Throttles') =>
      Object.entries(template.findResources('AWS::CloudWatch::Alarm'))
        .filter(([id]) => id.startsWith(`MonitoringFunction${kind}`))
        .flatMap(([, alarm]) => alarm.Properties.Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat))
        .map((query: { MetricStat: { Metric: { MetricName: string; Dimensions: { Value: { Ref: string } }[] } } }) => {
          expect(query.MetricStat.Metric.MetricName).toBe(kind);
          return query.MetricStat.Metric.Dimensions[0].Value.Ref;
        });
    expect(watched('Errors').sort()).toEqual([...functionIds].sort());
    expect(watched('Throttles').sort()).toEqual([...functionIds].sort());
  });

  test('stack: the oldest held refund and publisher failures alarm on the service metrics; the publisher stream has an on-failure destination', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: metricsNamespace,
      MetricName: METRIC.oldestHeldRefundAge,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Statistic: 'Maximum',
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: metricsNamespace, MetricName: METRIC.eventsPublishFailed });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^OutboxFailures'), 'Arn'] } } },
    });
  });

  test('stack: one dashboard shows every business metric and every alarm', () => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    expect(body).toContain(metricsNamespace);
    for (const name of Object.values(METRIC)) expect(body).toContain(name);
    for (const id of alarmIds()) expect(body).toContain(id);
  });

});

describe('acquirer', () => {
  const resources = () => template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const ofType = (type: string) => Object.entries(resources()).filter(([, resource]) => resource.Type === type);
  /** The one secret the functions name in `setting` (its Ref). */
  const secretOf = (setting: string) => {
    const named = new Set(ofType('AWS::Lambda::Function').map(([, fn]) => fn.Properties.Environment.Variables[setting]?.Ref).filter(Boolean));
    expect(named.size).toBe(1);
    return [...named][0] as string;
  };
  /** The functions whose role may read the secret `id`, by the logical id of the function. */
  const readers = (id: string) => {
    const roles = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.PolicyDocument.Statement.some((statement: { Action: string | string[]; Resource: unknown }) =>
        [statement.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource) === JSON.stringify({ Ref: id })))
      .flatMap(([, policy]) => policy.Properties.Roles.map((role: { Ref: string }) => role.Ref));
    return ofType('AWS::Lambda::Function')
      .filter(([, fn]) => roles.includes(fn.Properties.Role['Fn::GetAtt'][0]))
      .map(([id]) => id)
      .sort();
  };
  /** The checkout page, the notifications' receiver and processor, the minute jobs, and the chargeback answers of the API and the dashboard (live: Adyen's Dispute Service). */
  const talkers = [
    'Routecheckoutpage',
    'Routeacquirernotifications',
    'AcquirerNotificationProcessor',
    'MinuteJobs',
    'Routeacceptchargeback',
    'Routedisputechargeback',
    'Routedashboardacceptchargeback',
    'Routedashboarddisputechargeback',
  ];

  test('secret: retained when the stack is deleted (the credentials outlive the stack); the local stage has no backup plan', () => {
    template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    template.resourceCountIs('AWS::Backup::BackupPlan', 0);
  });

  test('secret: one, with no value in the template; only the eight functions that talk to Adyen may read it, and its ARN is their one acquirer setting', () => {
    // Assess
    const id = secretOf('ADYEN_SECRET_ARN');
    expect(resources()[id].Properties.SecretString).toBeUndefined();
    expect(readers(id).map((reader) => talkers.find((talker) => ownId(reader).startsWith(talker)))).toEqual(expect.arrayContaining(talkers));
    expect(readers(id)).toHaveLength(talkers.length);
    const settings = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment.Variables.ADYEN_SECRET_ARN);
    expect(settings.map(([fnId]) => fnId).sort()).toEqual(readers(id));
    for (const [, fn] of settings) {
      expect(fn.Properties.Environment.Variables.ADYEN_SECRET_ARN).toEqual({ Ref: id });
      expect(Object.keys(fn.Properties.Environment.Variables).filter((name) => /ADYEN|HMAC|API_KEY|PASSWORD/.test(name))).toEqual(['ADYEN_SECRET_ARN']);
    }
  });

  test("customer emails' key: generated by CloudFormation, retained, never in the template; only the functions whose routes declare customerEmails may read it", () => {
    // Assess
    const id = secretOf('CUSTOMER_EMAIL_KEY_ARN');
    const secret = template.toJSON().Resources[id];
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secret.DeletionPolicy).toBe('Retain');
    const declaring = routes.filter((route) => route.customerEmails).map((route) => `Route${route.handler.replace(/-/g, '')}`);
    expect(declaring).toEqual(expect.arrayContaining(['Routelistpayments', 'Routecheckoutsubmit', 'Routetesthelpercheckout']));
    expect(readers(id).map((reader) => declaring.find((name) => ownId(reader).startsWith(name))).sort()).toEqual([...new Set(declaring)].sort());
    const settings = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment.Variables.CUSTOMER_EMAIL_KEY_ARN);
    expect(settings.map(([fnId]) => fnId).sort()).toEqual(readers(id));
  });

  test('notifications: POST /acquirer/adyen/notifications reaches its function; the processor reads the table stream, filtered, bounded retries, bisected, then its on-failure queue', () => {
    // Assess
    expect(ownId(functionOfRoute(resources(), 'POST /acquirer/adyen/notifications'))).toMatch(/^Routeacquirernotifications/);
    const table = ofType('AWS::DynamoDB::Table')[0][0];
    const [processor] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('AcquirerNotificationProcessor'))!;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: processor },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: NOTIFICATION_MAPPING.retryAttempts,
      FilterCriteria: { Filters: NOTIFICATION_RECORD_FILTERS.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });
});

describe('email', () => {
  const resources = () => template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const ofType = (type: string) => Object.entries(resources()).filter(([, resource]) => resource.Type === type);
  const roleOf = (functionId: string) => resources()[functionId].Properties.Role['Fn::GetAtt'][0];
  /** Every statement of a function's role that names an SES action. */
  const sesStatements = (functionId: string) =>
    ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleOf(functionId)))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => JSON.stringify(statement.Action).includes('ses:'));

  test('identity: the stage sender as one SES email identity (example.com without the emailSender context)', () => {
    const identities = ofType('AWS::SES::EmailIdentity');
    expect(identities).toHaveLength(1);
    expect(identities[0][1].Properties.EmailIdentity).toBe('no-reply@example.com');
  });

  test('least privilege: the functions of the routes that declare `email`, and only they, have EMAIL_SENDER and ses:SendEmail on the stage identity alone', () => {
    // Prepare
    const [identityId] = ofType('AWS::SES::EmailIdentity')[0];
    const senders = routes.filter((route) => route.email).map((route) => functionOfRoute(resources(), `${route.method} ${route.path}`)).sort();
    // Assess
    const withSetting = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment.Variables.EMAIL_SENDER).map(([id]) => id).sort();
    const withGrant = ofType('AWS::Lambda::Function').filter(([id]) => sesStatements(id).length > 0).map(([id]) => id).sort();
    expect(withSetting).toEqual(senders);
    expect(withGrant).toEqual(senders);
    for (const sender of senders) {
      expect(sesStatements(sender)).toEqual([{ Effect: 'Allow', Action: 'ses:SendEmail', Resource: expect.anything() }]);
      expect(JSON.stringify(sesStatements(sender)[0].Resource)).toContain(`:identity/`);
      expect(JSON.stringify(sesStatements(sender)[0].Resource)).toContain(identityId.slice(-8));
    }
  });

  test('identity: `cdk deploy -c emailSender=…` names the stage sender', () => {
    const staged = synthesizeStage(DEFAULT_STAGE, { emailSender: 'payments@shop.example' }).template;
    staged.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'payments@shop.example' });
  });
});

describe('secrets key', () => {
  const resources = () => template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }>;
  const ofType = (type: string) => Object.entries(resources()).filter(([, resource]) => resource.Type === type);
  const roleOf = (functionId: string) => resources()[functionId].Properties.Role['Fn::GetAtt'][0];
  const kmsActions = (functionId: string) =>
    ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleOf(functionId)))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith('kms:'))
      .sort();

  test('key: one customer managed key, rotated yearly, retained when the stack is deleted, its policy delegating to IAM', () => {
    // The other key is the alarm topic's (lib/monitoring.ts).
    const keys = ofType('AWS::KMS::Key').filter(([id]) => id.startsWith('SecretsKey'));
    expect(keys).toHaveLength(1);
    const [, key] = keys[0];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain(':root');
  });

  test('least privilege: the functions that declare `sealedSecrets` (routes, the webhook deliverer), and only they, have SECRETS_KEY_ARN and exactly their uses of the key (seal: Encrypt, open: Decrypt)', () => {
    // Prepare
    const deliverer = ofType('AWS::Lambda::Function').map(([id]) => id).filter((id) => ownId(id).startsWith('WebhooksDeliverer'));
    expect(deliverer).toHaveLength(1);
    const declared = new Map([
      ...routes.filter((route) => route.sealedSecrets).map((route) => [functionOfRoute(resources(), `${route.method} ${route.path}`), route.sealedSecrets!] as const),
      [deliverer[0], backgroundFunctions.webhookDeliverer.sealedSecrets] as const,
    ]);
    // Assess
    const withSetting = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment.Variables.SECRETS_KEY_ARN).map(([id]) => id).sort();
    const withKms = ofType('AWS::Lambda::Function').filter(([id]) => kmsActions(id).length > 0).map(([id]) => id).sort();
    expect(withSetting).toEqual([...declared.keys()].sort());
    expect(withKms).toEqual([...declared.keys()].sort());
    for (const [fn, access] of declared) {
      expect(kmsActions(fn).includes('kms:Encrypt')).toBe(access.includes('seal'));
      expect(kmsActions(fn).includes('kms:Decrypt')).toBe(access.includes('open'));
    }
  });

  test('least privilege: webhook signing secrets are opened where they sign (the deliverer) or are shown (the API\'s creation and roll, for a replay); the dashboard\'s forms only seal', () => {
    const openers = [...routes.filter((route) => route.sealedSecrets?.includes('open')).map((route) => route.handler), backgroundFunctions.webhookDeliverer.handler];
    expect(openers.filter((handler) => handler.includes('webhook')).sort()).toEqual([createWebhookEndpoint.handler, rollWebhookEndpointSecret.handler, backgroundFunctions.webhookDeliverer.handler].sort());
    for (const operation of [createWebhookEndpoint, rollWebhookEndpointSecret]) {
      expect(operation.sealedSecrets).toEqual(['seal', 'open']);
      const forms = routes.filter((route) => route.kind === 'page' && route.acts === operation);
      expect(forms).toHaveLength(1);
      for (const form of forms) expect({ form: form.path, access: form.sealedSecrets }).toEqual({ form: form.path, access: ['seal'] });
    }
  });

  test('least privilege: no KMS statement of a role grants `kms:*` or on `*`; on the secrets key, Encrypt and Decrypt alone', () => {
    const [keyId] = ofType('AWS::KMS::Key').find(([id]) => id.startsWith('SecretsKey'))!;
    const statements = ofType('AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:')));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect([statement.Action].flat()).not.toContain('kms:*');
      expect([statement.Resource].flat()).not.toContain('*');
    }
    const onSecretsKey = statements.filter((statement) => JSON.stringify(statement.Resource).includes(keyId));
    for (const statement of onSecretsKey) expect([statement.Action].flat().every((action) => action === 'kms:Encrypt' || action === 'kms:Decrypt')).toBe(true);
  });

  test('key: its alias names the stack, for the operator (`alias/<stack>/secrets`)', () => {
    const [keyId] = ofType('AWS::KMS::Key').find(([id]) => id.startsWith('SecretsKey'))!;
    const aliases = ofType('AWS::KMS::Alias').filter(([, alias]) => JSON.stringify(alias.Properties.TargetKeyId).includes(keyId));
    expect(aliases.map(([, alias]) => alias.Properties.AliasName)).toEqual([secretsKeyAlias(stageNamed(DEFAULT_STAGE).stackName)]);
  });
});
