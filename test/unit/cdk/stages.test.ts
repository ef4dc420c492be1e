import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { stageNamed, type StageName } from '../../../lib/stages';
import { cfnLintErrors, lintsTemplates } from '../../support/cfn-lint';
import { synthesizeStage, type SynthesizedStage } from './synth';
import { acquirerNotifications } from '../../../shared/api/acquirer';
import { methodsOf } from '../../../shared/api/operation';
import { checkoutPages } from '../../../shared/api/pages';
import { routes } from '../../../shared/api';
import { backgroundFunctions } from '../../../shared/api/background';
import { functionOfRoute } from '../../../bin/local/aws/template';
import { CANARY_CONFIG, LIVE_ALIAS } from '../../../lib/canary';

/**
 * The stages an infrastructure team deploys (lib/stages.ts): each synthesized as
 * `cdk synth -c stage=<name>` builds it (bundling skipped), checked resource by resource, by
 * cdk-nag and by cfn-lint. The local stage's stack is test/unit/cdk/stack.test.ts's.
 */
const DEPLOYED: StageName[] = ['staging', 'prod'];
const synthesized = new Map<StageName, SynthesizedStage>();
const lints = new Map<StageName, ReturnType<typeof cfnLintErrors>>();
const templatesDir = mkdtempSync(join(tmpdir(), 'stage-templates-'));

beforeAll(() => {
  for (const name of DEPLOYED) {
    const synth = synthesizeStage(name);
    synthesized.set(name, synth);
    if (!lintsTemplates) continue;
    // The templates as `cdk synth` writes them: the stack's, and one file per nested stack.
    const files = [join(templatesDir, `${synth.stage.stackName}.template.json`)];
    writeFileSync(files[0], JSON.stringify(synth.parent));
    for (const [logicalId, { template }] of synth.nested) {
      files.push(join(templatesDir, `${synth.stage.stackName}.${logicalId}.nested.template.json`));
      writeFileSync(files.at(-1)!, JSON.stringify(template));
    }
    lints.set(name, cfnLintErrors(files));
  }
}, 180_000);
afterAll(() => rmSync(templatesDir, { recursive: true, force: true }));

const of = (name: StageName) => synthesized.get(name)!;
const resourcesOf = (name: StageName) => of(name).template.toJSON().Resources as Record<string, { Type: string; Properties?: Record<string, any> }>;
const ofType = (name: StageName, type: string) => Object.entries(resourcesOf(name)).filter(([, resource]) => resource.Type === type);

/** The physical names that must be unique in an account and region (or, for buckets, everywhere), by resource type. */
const PHYSICAL_NAMES: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::Events::EventBus': 'Name',
  'AWS::Events::Rule': 'Name',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::KMS::Alias': 'AliasName',
  'AWS::Backup::BackupVault': 'BackupVaultName',
  'AWS::CodeDeploy::Application': 'ApplicationName',
  'AWS::ApiGatewayV2::DomainName': 'DomainName',
  'AWS::SES::EmailIdentity': 'EmailIdentity',
};

describe.each(DEPLOYED)('stage %s', (name) => {
  test('stack: deployed as PaymentOperations-<stage> to the stage\'s account and region', () => {
    const { stack, stage } = of(name);
    expect(stack.stackName).toBe(`PaymentOperations-${name}`);
    expect({ account: stack.account, region: stack.region }).toEqual(stage.env);
    expect(stage.stackName).toBe(stack.stackName);
  });

  test('metrics: every function emits to the stage\'s namespace, and the alarms and dashboard read the same', () => {
    const { template, stage } = of(name);
    const namespace = `PaymentOperations/${name}`;
    expect(stage.metricsNamespace).toBe(namespace);
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(80);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.METRICS_NAMESPACE).toBe(namespace);
    const namespaces = new Set(JSON.stringify(template.toJSON()).match(/PaymentOperations\/[a-z]+/g));
    expect([...namespaces]).toEqual([namespace]);
  });

  test('side by side: no fixed physical name (table, buckets, secret, log groups, alarms, queues, bus…): CloudFormation names them after the stack', () => {
    for (const [type, property] of Object.entries(PHYSICAL_NAMES)) {
      for (const [id, resource] of ofType(name, type)) {
        const value = resource.Properties?.[property];
        if (value === undefined) continue;
        // A name given must carry the stage (the domain and sender carry its domain).
        expect({ id, value: JSON.stringify(value).toLowerCase().includes(name) || JSON.stringify(value).includes(of(name).stage.domain?.zoneName ?? '\0') }).toEqual({ id, value: true });
      }
    }
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup', 'AWS::CloudWatch::Alarm']) {
      expect(ofType(name, type).filter(([, resource]) => resource.Properties?.[PHYSICAL_NAMES[type]] !== undefined)).toEqual([]);
    }
  });

  test('domain: an API Gateway custom domain with an ACM certificate validated by DNS in the stage\'s zone, alias records there, the execute-api URL off', () => {
    const { template, stage } = of(name);
    const { name: domain, hostedZoneId } = stage.domain!;
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: domain,
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: domain, HostedZoneId: hostedZoneId }],
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: domain,
      DomainNameConfigurations: [Match.objectLike({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2', IpAddressType: 'dualstack' })],
    });
    const [apiId] = ofType(name, 'AWS::ApiGatewayV2::Api')[0];
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { ApiId: { Ref: apiId }, DomainName: { Ref: Match.stringLikeRegexp('^PublicDomainName') } });
    for (const type of ['A', 'AAAA']) {
      template.hasResourceProperties('AWS::Route53::RecordSet', { Name: `${domain}.`, Type: type, HostedZoneId: hostedZoneId, AliasTarget: Match.objectLike({ DNSName: Match.anyValue() }) });
    }
  });

  test('domain: base_url (and the checkout, dashboard and docs URLs under it), the documents\' CORS origin and the acquirer\'s notification URL are the stage\'s domain', () => {
    const { template, stage } = of(name);
    const base = `https://${stage.domain!.name}`;
    const withBase = ofType(name, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties!.Environment.Variables.BASE_URL !== undefined);
    expect(withBase.length).toBeGreaterThan(80);
    for (const [, fn] of withBase) expect(fn.Properties!.Environment.Variables.BASE_URL).toBe(base);
    expect(JSON.stringify(template.toJSON())).not.toContain('"ApiEndpoint"');
    template.hasResourceProperties('AWS::S3::Bucket', { CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: [base] })] } });
    template.hasOutput('ApiUrl', { Value: base });
    template.hasOutput('AcquirerNotificationUrl', { Value: `${base}/acquirer/adyen/notifications` });
  });

  test('email: the sender\'s domain is an SES identity, verified by DKIM records in the stage\'s zone', () => {
    const { template, stage } = of(name);
    const { zoneName, hostedZoneId } = stage.domain!;
    expect(stage.email!.sender.endsWith(`@${zoneName}`)).toBe(true);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: zoneName });
    const dkim = ofType(name, 'AWS::Route53::RecordSet').filter(([, record]) => record.Properties!.Type === 'CNAME' && JSON.stringify(record.Properties!.Name).includes('DkimDNSTokenName'));
    expect(dkim).toHaveLength(3);
    for (const [, record] of dkim) expect(record.Properties!.HostedZoneId).toBe(hostedZoneId);
  });

  test('alarms: the stage\'s addresses and HTTPS endpoints are subscribed to its alarm topic, which every alarm notifies', () => {
    const { template, stage } = of(name);
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    const subscriptions = ofType(name, 'AWS::SNS::Subscription').map(([, subscription]) => subscription.Properties!);
    expect(subscriptions.map(({ Protocol, Endpoint }) => `${Protocol} ${Endpoint}`).sort()).toEqual(
      [...stage.alarmSubscriptions.emails.map((email) => `email ${email}`), ...stage.alarmSubscriptions.urls.map((url) => `https ${url}`)].sort(),
    );
    expect(subscriptions.length).toBeGreaterThan(0);
    for (const subscription of subscriptions) expect(subscription.TopicArn).toEqual({ Ref: topicId });
    for (const [, alarm] of ofType(name, 'AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties!.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties!.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  test('throttles: the checkout\'s routes and the acquirer\'s notification route have buckets of their own, every other route the API\'s; the stage waits for those routes', () => {
    const { stage, parent } = of(name);
    const [, apiStage] = ofType(name, 'AWS::ApiGatewayV2::Stage')[0];
    const bucket = ({ rateLimit, burstLimit }: { rateLimit: number; burstLimit: number }) => ({ ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit });
    expect(apiStage.Properties!.DefaultRouteSettings).toEqual(bucket(stage.throttles.api));
    const checkout = checkoutPages.flatMap((page) => methodsOf(page).map((method) => [`${method} ${page.path}`, bucket(stage.throttles.checkout)]));
    expect(apiStage.Properties!.RouteSettings).toEqual(
      Object.fromEntries([...checkout, [`POST ${acquirerNotifications.path}`, bucket(stage.throttles.acquirerNotifications)]]),
    );
    expect(Object.keys(apiStage.Properties!.RouteSettings)).toEqual(expect.arrayContaining(['GET /checkout/{id}', 'HEAD /checkout/{id}', 'POST /checkout/{id}', 'GET /checkout/{id}/thank-you']));
    const [stageId] = Object.entries(parent.Resources!).find(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Stage')!;
    const dependsOn = [parent.Resources![stageId].DependsOn ?? []].flat();
    expect(dependsOn.filter((id) => /^(Checkout|Acquirer)Routes/.test(id))).toHaveLength(2);
  });

  test('tracing: every function has X-Ray active tracing, and its role the grant to write its traces', () => {
    const functions = ofType(name, 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(routes.length);
    const policies = ofType(name, 'AWS::IAM::Policy');
    for (const [id, fn] of functions) {
      expect({ id, tracing: fn.Properties!.TracingConfig }).toEqual({ id, tracing: { Mode: 'Active' } });
      const role = fn.Properties!.Role['Fn::GetAtt'][0];
      const actions = policies
        .filter(([, policy]) => policy.Properties!.Roles.some((roleRef: { Ref: string }) => roleRef.Ref === role))
        .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => [statement.Action].flat()));
      expect({ id, xray: actions.filter((action: string) => action.startsWith('xray:')).sort() }).toEqual({ id, xray: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'] });
    }
  });

  test('concurrency: the stream processors have reserved concurrency; the webhook queue\'s mapping a maximum', () => {
    const { template, stage } = of(name);
    for (const prefix of ['OutboxProcessor', 'AcquirerNotificationProcessor']) {
      const [, fn] = ofType(name, 'AWS::Lambda::Function').find(([id]) => id.startsWith(prefix))!;
      expect(fn.Properties!.ReservedConcurrentExecutions).toBe(stage.concurrency.streamProcessors);
    }
    const [queueId] = ofType(name, 'AWS::SQS::Queue').find(([id]) => id.startsWith('WebhookDeliveries'))!;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      ScalingConfig: { MaximumConcurrency: stage.concurrency.webhookDeliveries },
    });
  });

  test('backup: AWS Backup plan of the table (nightly, and monthly where set), kept as the stage says, in a retained vault with a key of its own', () => {
    const { template, stage } = of(name);
    const backup = stage.backup!;
    const [tableId] = ofType(name, 'AWS::DynamoDB::Table')[0];
    const [[, plan]] = ofType(name, 'AWS::Backup::BackupPlan');
    const rules = plan.Properties!.BackupPlan.BackupPlanRule as { RuleName: string; ScheduleExpression: string; Lifecycle: { DeleteAfterDays: number } }[];
    expect(rules.map((rule) => [rule.RuleName, rule.Lifecycle.DeleteAfterDays])).toEqual([['Daily', backup.dailyRetentionDays], ...(backup.monthlyRetentionDays ? [['Monthly', backup.monthlyRetentionDays]] : [])]);
    template.hasResourceProperties('AWS::Backup::BackupSelection', {
      BackupSelection: Match.objectLike({ Resources: [{ 'Fn::GetAtt': [tableId, 'Arn'] }] }),
    });
    template.hasResource('AWS::Backup::BackupVault', { DeletionPolicy: 'Retain', Properties: { EncryptionKeyArn: Match.anyValue() } });
  });

  test('canary: each money path its declarations name (checkout submit, notification processing, the outbox processor) is invoked through an alias CodeDeploy shifts 10 % for 5 minutes, rolled back on its errors alarm, where the stage says; elsewhere none', () => {
    const { stage } = of(name);
    const resources = resourcesOf(name);
    const refOf = (value: unknown) => (value as { Ref?: string }).Ref ?? JSON.stringify(value);
    const aliases = ofType(name, 'AWS::Lambda::Alias');
    const groups = ofType(name, 'AWS::CodeDeploy::DeploymentGroup');
    if (!stage.canary) {
      expect([aliases, groups]).toEqual([[], []]);
      return;
    }
    const moneyPaths = [
      ...routes.filter((route) => route.canary).map((route) => functionOfRoute(resources, `${route.method} ${route.path}`)),
      ...Object.entries(backgroundFunctions)
        .filter(([, fn]) => 'canary' in fn && fn.canary)
        .map(([key]) => ofType(name, 'AWS::Lambda::Function').find(([id]) => id.startsWith(key === 'outboxProcessor' ? 'OutboxProcessor' : 'AcquirerNotificationProcessor'))![0]),
    ];
    expect(moneyPaths).toHaveLength(3);
    expect(aliases.map(([, alias]) => refOf(alias.Properties!.FunctionName)).sort()).toEqual([...moneyPaths].sort());
    for (const [aliasId, alias] of aliases) {
      expect(alias.Properties!.Name).toBe(LIVE_ALIAS);
      // CloudFormation hands an update of the alias's version to CodeDeploy.
      const updatePolicy = (resources[aliasId] as { UpdatePolicy?: { CodeDeployLambdaAliasUpdate?: { DeploymentGroupName: { Ref: string } } } }).UpdatePolicy;
      // (Read as written in the alias's own template: the flattening renames Properties' references, not the UpdatePolicy's.)
      const groupRef = updatePolicy!.CodeDeployLambdaAliasUpdate!.DeploymentGroupName.Ref;
      const [, group] = groups.find(([id]) => id.endsWith(groupRef) && id.slice(0, -groupRef.length) === aliasId.slice(0, aliasId.length - of(name).ownId(aliasId).length))!;
      expect(group.Properties).toMatchObject({
        DeploymentConfigName: CANARY_CONFIG.deploymentConfigName,
        DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
        AutoRollbackConfiguration: { Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) },
        AlarmConfiguration: { Enabled: true, Alarms: [{ Name: expect.anything() }] },
      });
      // The rollback alarm watches the alias's errors, and pages like every alarm.
      const alarmId = group.Properties!.AlarmConfiguration.Alarms[0].Name.Ref as string;
      expect(resources[alarmId].Properties).toMatchObject({
        MetricName: 'Errors',
        Dimensions: expect.arrayContaining([expect.objectContaining({ Name: 'Resource' })]),
        AlarmActions: [expect.anything()],
      });
    }
    // The callers invoke the aliases: the checkout submit's integration, the processors' stream mappings.
    const aliasIds = aliases.map(([id]) => id);
    const mappingTargets = ofType(name, 'AWS::Lambda::EventSourceMapping').map(([, mapping]) => JSON.stringify(mapping.Properties!.FunctionName));
    expect(mappingTargets.filter((target) => target.includes(`:${LIVE_ALIAS}`))).toHaveLength(2);
    const integrations = ofType(name, 'AWS::ApiGatewayV2::Integration').map(([, integration]) => refOf(integration.Properties!.IntegrationUri));
    expect(integrations.filter((target) => aliasIds.includes(target))).toHaveLength(1);
  });

  test('cdk-nag: AwsSolutions has no unsuppressed errors or warnings', () => {
    const { annotations } = of(name);
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')).map((error) => error.entry.data)).toEqual([]);
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')).map((warning) => warning.entry.data)).toEqual([]);
  });

  (lintsTemplates ? test : test.skip)('cfn-lint: the stack and each nested stack lint without errors (W3005 is CDK\'s own DependsOn beside a GetAtt)', async () => {
    expect(await lints.get(name)).toEqual({ status: 0, errors: [] });
  }, 300_000);
});

test('stages: staging and prod side by side in one account share no physical name', () => {
  const names = (name: StageName) =>
    new Set(Object.entries(PHYSICAL_NAMES).flatMap(([type, property]) => ofType(name, type).map(([, resource]) => JSON.stringify(resource.Properties?.[property])).filter((value) => value !== undefined)));
  const prod = names('prod');
  expect([...names('staging')].filter((value) => prod.has(value))).toEqual([]);
});

test('stages: an unknown stage is refused, naming the stages there are', () => {
  expect(() => stageNamed('qa')).toThrow('No stage "qa" in lib/stages.ts; the stages are local, staging, prod');
});
