import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { FUNCTION_MEMORY_MB } from '../../../lib/api-function';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { readSynthesizedStack, type CfnResource } from '../../../bin/local/aws/template';
import { functionOfRoute, policyStatementsOf, synthesizedArtifacts, withEditedTemplate, type ArtifactsFolder } from '../../support/artifacts';
import { cfnLintErrors, lintsTemplates } from '../../support/cfn-lint';
import { client } from '../../support/http';
import { expectTheLimitHoldsUnderConcurrentPayers } from '../../support/paid-checkouts';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { startWebhookReceiver } from '../../support/webhook-receiver';

/**
 * Artifact mode: the bundles `cdk synth` writes, run as Lambda runs them, behind the
 * template's routes, buses, queues and event source mappings, every AWS call checked against
 * the function's role, AWS's limits enforced.
 */
let synthesized: ArtifactsFolder;
let artifacts: string;
let resources: Record<string, CfnResource>;
let stackName: string;
/** cfn-lint's errors on the synthesized templates (it runs beside the stack's tests). */
let lint: ReturnType<typeof cfnLintErrors>;
beforeAll(async () => {
  synthesized = await synthesizedArtifacts();
  artifacts = synthesized.dir;
  let templateFiles: string[];
  ({ resources, stackName, templateFiles } = readSynthesizedStack(artifacts));
  if (lintsTemplates) lint = cfnLintErrors(templateFiles);
}, 600_000);
afterAll(() => synthesized?.remove());

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
/** The function a stream or queue mapping invokes (of the table's stream: the outbox processor, not the acquirer notifications' processor). */
const consumerOf = (source: 'stream' | 'queue') =>
  ofType('AWS::Lambda::EventSourceMapping')
    .map(([, mapping]) => mapping.Properties!)
    .filter((properties) => JSON.stringify(properties.FunctionName).includes(source === 'stream' ? 'OutboxProcessor' : 'WebhooksDeliverer'))
    .find((properties) => JSON.stringify(properties.EventSourceArn).includes(source === 'stream' ? 'StreamArn' : '"Arn"'))!.FunctionName as { Ref: string };
const timeoutOf = (functionId: string) => Number(resources[functionId].Properties!.Timeout) * 1000;
const credentialsOf = (functionId: string) => ({ accessKeyId: functionId, secretAccessKey: 'test' });

describe('artifact mode: the synthesized stack', () => {
  let stack: TestStack;
  let edge: { endpoint: string; region: string };
  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.1';
    stack = await startTestStack({ artifacts, background: true });
    edge = { endpoint: stack.aws.awsEndpoint, region: readSynthesizedStack(artifacts).region };
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    delete process.env.WEBHOOK_RETRY_SCHEDULE;
  });

  test('a route answers from its bundle, in an execution environment outside the test process', async () => {
    // Prepare
    const merchant = await createMerchant(stack);
    // Act
    const result = await client(stack.baseUrl, merchant.test).get('/v1/payments/payment_00000000000000000000000000');
    // Assess
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ status: 404 });
    const environments = stack.aws.stats()[stack.aws.functionOfRoute('GET /v1/payments/{id}')];
    expect(environments.started).toBe(1);
    expect(environments.pids).toHaveLength(1);
    expect(environments.pids[0]).not.toBe(process.pid);
  });

  test('paid checkouts: concurrent payers in separate workers pay exactly 25, none oversold, each invocation within the function timeout', async () => {
    // Act and assess what the source-mode test asserts
    await expectTheLimitHoldsUnderConcurrentPayers(stack);
    // Assess: the payers ran in several processes at once, none near its timeout
    const checkout = functionOfRoute(resources, 'POST /v1/test_helpers/payment_links/{id}/checkout');
    const environments = stack.aws.stats()[stack.aws.functionOfRoute('POST /v1/test_helpers/payment_links/{id}/checkout')];
    expect(environments.peakConcurrent).toBeGreaterThan(1);
    expect(new Set(environments.pids).size).toBeGreaterThan(1);
    expect(environments.slowestMs).toBeLessThan(timeoutOf(checkout));
  }, 300_000);

  test('webhooks: an event goes table stream → publisher → bus → rule → queue → deliverer → subscriber', async () => {
    // Prepare
    const receiver = await startWebhookReceiver();
    try {
      const merchant = await createMerchant(stack);
      await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['transactions.payment_link.*'] });
      // Act
      const link = (await client(stack.baseUrl, merchant.test).post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
      // Assess
      await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.data.id === link.id), 'the link event', 60_000);
      expect(receiver.delivered().find((request) => request.envelope.data.id === link.id)!.envelope.type).toBe('transactions.payment_link.created');
    } finally {
      await receiver.close();
    }
  }, 90_000);

  test('IAM: a call outside the role is refused as AccessDeniedException, and the refusal names the missing grant', async () => {
    // Prepare: the outbox processor may put events and move balances, never delete an item
    const processor = consumerOf('stream').Ref;
    const dynamodb = new DynamoDBClient({ ...edge, credentials: credentialsOf(processor) });
    // Act
    const refused = dynamodb.send(new DeleteItemCommand({ TableName: stack.tableName, Key: { PK: { S: 'x' }, SK: { S: 'y' } } }));
    // Assess
    await expect(refused).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('dynamodb:DeleteItem') });
    expect(stack.aws.recentDenials().at(-1)).toMatchObject({
      action: 'dynamodb:DeleteItem',
      resource: expect.stringMatching(new RegExp(`:table/${stack.tableName}$`)),
      reason: 'no identity-based policy allows the dynamodb:DeleteItem action',
    });
    dynamodb.destroy();
  });

  test('IAM: an unknown caller is refused', async () => {
    const dynamodb = new DynamoDBClient({ ...edge, credentials: { accessKeyId: 'nobody', secretAccessKey: 'x' } });
    await expect(dynamodb.send(new PutItemCommand({ TableName: stack.tableName, Item: { PK: { S: 'x' } } }))).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    dynamodb.destroy();
  });

  test('limits: PutEvents takes at most 10 entries and at most the size limit in all', async () => {
    // Prepare
    const events = new EventBridgeClient({ ...edge, credentials: credentialsOf(consumerOf('stream').Ref) });
    const bus = ofType('AWS::Events::EventBus')[0][1].Properties!.Name as string;
    const entry = (detailBytes: number) => ({ EventBusName: bus, Source: 'limits-test', DetailType: 'limits', Detail: JSON.stringify({ pad: 'x'.repeat(detailBytes - 12) }) });
    const half = Math.floor(AWS_LIMITS.eventBridge.putEventsBytes / 2);
    // Act and assess
    await expect(events.send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => entry(100)) }))).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(events.send(new PutEventsCommand({ Entries: [entry(half), entry(half)] }))).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Total size of the entries in the request is over the limit.',
    });
    await expect(events.send(new PutEventsCommand({ Entries: [entry(half)] }))).resolves.toMatchObject({ FailedEntryCount: 0 });
    events.destroy();
  });

  test('limits: SQS refuses DelaySeconds over 900 and a message over the size limit', async () => {
    // Prepare: the deliverer may send to its queue
    const sqs = new SQSClient({ ...edge, credentials: credentialsOf(consumerOf('queue').Ref) });
    const [queueId] = ofType('AWS::SQS::Queue').find(([, queue]) => queue.Properties?.RedrivePolicy)!;
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: `${stackName}-${queueId}` }));
    // Act and assess
    await expect(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}', DelaySeconds: AWS_LIMITS.sqs.maxDelaySeconds + 1 }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    await expect(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x'.repeat(AWS_LIMITS.sqs.messageBytes + 1) }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    await expect(sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}', DelaySeconds: AWS_LIMITS.sqs.maxDelaySeconds }))).resolves.toMatchObject({
      MessageId: expect.any(String),
    });
    sqs.destroy();
  });
});

describe('artifact mode: an edited template', () => {
  const PROBE = `export const handler = async (event, context) => {
  await new Promise((resolve) => setTimeout(resolve, Number(event.queryStringParameters?.sleep_ms ?? 0)));
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pid: process.pid, memoryLimitInMB: context.memoryLimitInMB, remainingMs: context.getRemainingTimeInMillis(), functionName: context.functionName, tableName: process.env.TABLE_NAME }),
  };
};
`;
  let stack: TestStack;
  let edited: ArtifactsFolder;
  const logDir = mkdtempSync(join(tmpdir(), 'artifact-logs-'));
  beforeAll(async () => {
    const lister = functionOfRoute(resources, 'GET /v1/payment_links');
    edited = withEditedTemplate(
      artifacts,
      (template) => {
        // The link lister loses its index grant (and keeps the table's).
        // A statement of the indexes alone is narrowed to the table: Query on the table, never on an index.
        for (const statement of policyStatementsOf(template, lister)) {
          const resources = [statement.Resource].flat();
          const kept = resources.filter((resource) => !JSON.stringify(resource).includes('/index/*'));
          statement.Resource = kept.length > 0 ? kept : resources.map((resource) => JSON.parse(JSON.stringify(resource).replace('/index/*', '')));
        }
        // Two probes: one with a 2 s timeout, one behind a 1 s integration timeout.
        for (const [route, timeout] of [['GET /v1/openapi.json', 2], ['GET /docs', 5]] as const) {
          const probe = template[functionOfRoute(template, route)];
          probe.Metadata!['aws:asset:path'] = 'asset.probe';
          probe.Properties!.Timeout = timeout;
        }
        const docsRoute = Object.values(template).find((resource) => resource.Properties?.RouteKey === 'GET /docs')!;
        const integration = JSON.stringify(docsRoute.Properties!.Target).match(/"Ref":"([^"]+)"/)![1];
        template[integration].Properties!.TimeoutInMillis = 1000;
      },
      { 'asset.probe': { 'index.mjs': PROBE } },
    );
    stack = await startTestStack({ artifacts: edited.dir, logDir });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    edited?.remove();
    rmSync(logDir, { recursive: true, force: true });
  });

  test("logs: with a log folder, each function's output goes to its own file, as to its log group", async () => {
    const merchant = await createMerchant(stack);
    await client(stack.baseUrl, merchant.test).get('/v1/payments/payment_00000000000000000000000000');
    const file = join(logDir, `${stack.aws.functionOfRoute('GET /v1/payments/{id}')}.log`);
    const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    // The 404's metric document (the request line too, at LOG_LEVEL=INFO).
    expect(lines).toContainEqual(expect.objectContaining({ Route: 'GET /v1/payments/{id}', ClientErrors: 1 }));
    expect(readdirSync(logDir)).not.toContain(`${stack.aws.functionOfRoute('GET /v1/refunds/{id}')}.log`);
  });

  test('IAM: without its index grant the link list is refused, while reading one link by key still works', async () => {
    // Prepare
    const merchant = await createMerchant(stack);
    const api = client(stack.baseUrl, merchant.test);
    // Act
    const list = await api.get('/v1/payment_links');
    const one = await api.get('/v1/payment_links/pl_00000000000000000000000000');
    // Assess
    expect(list.status).toBe(500);
    expect(one.status).toBe(404);
    expect(stack.aws.recentDenials()).toContainEqual(
      expect.objectContaining({
        functionName: stack.aws.functionOfRoute('GET /v1/payment_links'),
        action: 'dynamodb:Query',
        resource: expect.stringMatching(new RegExp(`:table/${stack.tableName}/index/GSI1$`)),
      }),
    );
  });

  test('runtime: the template gives the environment, the memory and the remaining time', async () => {
    const probe = (await client(stack.baseUrl).get('/v1/openapi.json')).body;
    expect(probe).toMatchObject({ memoryLimitInMB: String(FUNCTION_MEMORY_MB), tableName: stack.tableName, functionName: stack.aws.functionOfRoute('GET /v1/openapi.json') });
    expect(probe.pid).not.toBe(process.pid);
    expect(probe.remainingMs).toBeLessThanOrEqual(2000);
    expect(probe.remainingMs).toBeGreaterThan(0);
  });

  test('runtime: past its timeout the environment is killed and API Gateway answers 500; the next call gets a new one', async () => {
    // Prepare
    const api = client(stack.baseUrl);
    const before = (await api.get('/v1/openapi.json')).body.pid;
    // Act
    const started = Date.now();
    // It would sleep far past its 2 s timeout: an answer well before that end is the kill's, however loaded the machine.
    const timedOut = await api.get('/v1/openapi.json?sleep_ms=20000');
    const elapsed = Date.now() - started;
    const after = (await api.get('/v1/openapi.json')).body.pid;
    // Assess
    expect(timedOut.status).toBe(500);
    expect(timedOut.body).toEqual({ message: 'Internal Server Error' });
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(20_000);
    expect(after).not.toBe(before);
  });

  test('runtime: no answer within the integration timeout is API Gateway\'s 503', async () => {
    const result = await client(stack.baseUrl).get('/docs?sleep_ms=3000');
    expect(result.status).toBe(503);
    expect(result.body).toEqual({ message: 'Service Unavailable' });
  });
});

describe('the synthesized templates', () => {
  (lintsTemplates ? test : test.skip)('the stack and each nested stack lint without errors (cfn-lint; W3005 is CDK\'s own DependsOn beside a GetAtt)', async () => {
    expect(readSynthesizedStack(artifacts).templateFiles.length).toBeGreaterThan(1);
    expect(await lint).toEqual({ status: 0, errors: [] });
  }, 300_000);
});
