import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve as resolvePath } from 'node:path';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { PENDING_CREDIT } from '../../../shared/db/balance';
import { logger } from '../../../shared/observability/logger';
import { LOCAL_WEBHOOK_SETTINGS, retryPolicyVariables } from '../../../shared/webhooks/settings';
import { OPERATOR_ACCESS_KEY_ID, operatorEnvironment } from '../operator';
import type { LocalS3 } from '../s3';
import { DEFAULT_ROUTE_KEY, type LocalFunctions } from '../functions';
import { openAccessLog, readAccessLog, readRoutes, routeHandler } from './api-gateway';
import { closeListeners, portOf, reserveListener, startAwsEdge, type AccessDenial, type EdgeCaller } from './edge';
import { createLocalEventBridge, ruleOf, type BusEvent, type LocalRule, type RuleTarget } from './eventbridge';
import { readMappings, startQueueMapping, startStreamMapping } from './event-sources';
import { mappingCheckpoints } from '../table-stream';
import { createAccessPolicies } from './iam';
import { keptSecretValues, localSecrets, type GenerateSecretString } from '../secrets-manager';
import type { Mailbox } from '../mailbox';
import { createLocalSes } from './ses';
import { createLocalKms } from './kms';
import type { PolicyStatement } from './iam';
import { localResources } from './resources';
import { LocalQueue, type HeldMessage, type PersistedMessage } from './sqs';
import { ensureTables } from './tables';
import { readSynthesizedStack, resourcesOfType, type CfnResource } from './template';
import { createFunctionPool, type FunctionPool, type FunctionPoolStats, type FunctionSpec } from './workers';
import { SOURCE_ENTRY_METADATA } from '../../../lib/api-function';
import { createModulePool, defaultEnvironmentsPerFunction, refuseCallsPastDeadline } from '../invocation';
import { addCounts, faultsOf, type FaultKind, type FaultPlan } from '../faults';
import { countCall, newUsage, type Usage } from '../usage';

/** Where the handler modules' paths (`payment-ops:source-entry`) start. */
const PROJECT_ROOT = resolvePath(__dirname, '../../..');

export interface LocalAwsOptions {
  /** A `cdk synth -o <dir>` output (`synthesizeForSources`'s, with `sources`). */
  dir: string;
  /**
   * Source mode: run each function's handler module (the template's `payment-ops:source-entry`)
   * in this process instead of its bundle in a process of its own; `routeTimeoutSeconds` then
   * replaces the API functions' timeout, for a test that waits one out.
   */
  sources?: { routeTimeoutSeconds?: number };
  /** The local S3's store: the template's buckets are made there, and the edge forwards S3 calls to it. */
  s3: LocalS3;
  /** Where S3 answers (its endpoint, checked by the edge: what presigned URLs name); 0 or unset takes a free port. */
  s3Port?: number;
  /** Where the edge answers every other AWS call (`npm start`: AWS_PORT, where `npm run ops` finds it); 0 or unset takes a free port. */
  edgePort?: number;
  dynamodbEndpoint: string;
  tableName: string;
  /** Where stream mappings keep their checkpoints (`:memory:`: nowhere). */
  dataDir: string;
  /** The API's public base URL (the template's ApiEndpoint), known once the server listens. */
  apiUrl(): string;
  /**
   * Execution environments per function at the same time (a function's reserved concurrency,
   * when lower, wins). Default: two per core; more only add contention on one machine.
   */
  maxWorkersPerFunction?: number;
  /** Each function's output to `<logDir>/<function name>.log`, as CloudWatch keeps a log group per function, instead of this process's stdout. */
  logDir?: string;
  /** The value of the acquirer's Secrets Manager secret (its credentials, naming the local Adyen). */
  acquirerSecret: string;
  /** Where the local SES keeps what it sends. */
  mailbox: Mailbox;
  /** The faults of the functions and their event sources (FAULTS): none by default. */
  faults?: FaultPlan;
}

export interface LocalAws extends LocalFunctions {
  /** The local AWS edge: an SDK pointed at it with a function's logical id as access key id calls AWS as that function. */
  awsEndpoint: string;
  /** What an operator's process (`npm run ops`, a test acting as the operator) is given to call this AWS: bin/local/operator.ts. */
  operatorEnvironment(): Record<string, string>;
  /** S3's endpoint (the functions' AWS_ENDPOINT_URL_S3): where their S3 calls and the URLs they presign go. */
  s3Endpoint: string;
  /** The last 100 calls IAM refused, oldest first (each is also logged). */
  recentDenials(): AccessDenial[];
  /** Per function name: its execution environments so far. */
  stats(): Record<string, FunctionPoolStats>;
  /** The function a route of the template invokes (`GET /v1/payments/{id}` → its name). */
  functionOfRoute(routeKey: string): string;
  /** The messages a queue of the template holds (by its logical id, or its start), without receiving them. */
  queueMessages(logicalId: string): HeldMessage[];
  /** The faults injected so far in the functions and their event sources, by kind. */
  faults(): Partial<Record<FaultKind, number>>;
  /** Other faults from now on (none: undefined). */
  setFaults(plan: FaultPlan | undefined): void;
  /** The requests AWS would bill by request so far (bin/local/usage.ts). */
  usage(): Usage;
}

/** A paid payment's new ledger entry as the stream hands it over: what the mapping that rolls credits into balances takes. */
const PENDING_CREDIT_SAMPLE = { eventName: 'INSERT', dynamodb: { Keys: { PK: { S: 'BTX#btx_0' }, SK: { S: 'BTX' } }, NewImage: { [PENDING_CREDIT]: { BOOL: true } } } };

/**
 * The variables of the developer's environment the local AWS hands every function: local
 * settings, not AWS's (the SDK's warning is about this machine's Node, not Lambda's Node 22).
 */
const PASSED_THROUGH = [
  'LOG_LEVEL',
  'METRICS_DISABLED',
  'REFUND_CANCEL_WINDOW_SECONDS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_RETRY_JITTER',
  'WEBHOOK_TIMEOUT_MS',
  'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
];

/** Every function's secret access key; its access key id is its logical id. */
export const FUNCTION_SECRET_KEY = 'artifact-mode';

/**
 * Source mode's one access key id: its functions share this process and so one identity, which
 * the edge lets through unchecked (IAM is checked in artifact mode, docs/architecture.md).
 */
const SOURCE_MODE_CALLER = 'source-mode';

/** Where the queues' messages wait across a restart: the data folder's `queues.json` (nowhere for `:memory:`). */
const queuesFile = (dataDir: string) => (dataDir === ':memory:' ? undefined : join(dataDir, 'queues.json'));

function readPersistedQueues(dataDir: string): Record<string, PersistedMessage[]> {
  const file = queuesFile(dataDir);
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, PersistedMessage[]>) : {};
}

/** Written whole (temp + rename) when the stack stops, as SQS keeps messages while its consumers restart; a crash loses what the queues held. */
function persistQueues(dataDir: string, queues: LocalQueue[]): void {
  const file = queuesFile(dataDir);
  if (!file) return;
  writeFileSync(`${file}.next`, JSON.stringify(Object.fromEntries(queues.map((queue) => [queue.settings.name, queue.snapshot()]))));
  renameSync(`${file}.next`, file);
}

const refOf = (value: unknown): string | undefined =>
  (value as { Ref?: string })?.Ref ?? (value as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];

/**
 * The local AWS (docs/architecture.md, "The local stack"): the template's functions, run as
 * Lambda would run them (their bundles in processes of their own, or with `sources` their
 * handler modules in this process), behind the routes, schedules, buses, queues and event source
 * mappings of the synthesized template, every AWS call of a bundle checked against its role:
 * 1. read the template; create its tables in DynamoDB Local;
 * 2. read its queues, functions, rules, routes and event source mappings, checked as AWS
 *    checks them when it creates them;
 * 3. start the AWS edge (IAM, DynamoDB forwarding, EventBridge and SQS stand-ins);
 * 4. serve each API route from its function's execution environments; on `startBackground`,
 *    run the schedule rules and the event source mappings.
 */
export async function startLocalAws(options: LocalAwsOptions): Promise<LocalAws> {
  // The edge serves last, once the whole template has been read and checked; its URLs are needed before, so its
  // ports are held from here (a port only looked up as free could be another process's by then).
  const edgeListener = await reserveListener(options.edgePort ?? 0, `The local AWS edge's port ${options.edgePort} is in use: set AWS_PORT to a free port`);
  const s3Listener = await reserveListener(options.s3Port ?? 0, `The local S3's port ${options.s3Port} is in use: set S3_PORT to a free port`).catch(async (error) => {
    await closeListeners([edgeListener]);
    throw error;
  });
  /** What a start that fails half-way undoes, besides the ports. */
  const undo: (() => void)[] = [];
  try {
    return await startLocalAwsOn(options, { edge: edgeListener, s3: s3Listener }, undo);
  } catch (error) {
    for (const step of undo) step();
    await closeListeners([edgeListener, s3Listener]);
    throw error;
  }
}

async function startLocalAwsOn(options: LocalAwsOptions, listeners: { edge: Server; s3: Server }, undo: (() => void)[]): Promise<LocalAws> {
  const edgeUrl = `http://127.0.0.1:${portOf(listeners.edge)}`;
  const s3Endpoint = `http://127.0.0.1:${portOf(listeners.s3)}`;
  const stack = readSynthesizedStack(options.dir);
  const { region, account } = stack;
  const faults = { lambda: faultsOf(options.faults, 'lambda'), streams: faultsOf(options.faults, 'streams'), queues: faultsOf(options.faults, 'queues') };
  const usage = newUsage();
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const queuesByKey = new Map<string, LocalQueue>();
  const queuesById = new Map<string, LocalQueue>();
  const functions = new Map<string, FunctionSpec & { role: string; roleName: string; maxWorkers: number }>();
  const pools = new Map<string, FunctionPool>();
  const denials: AccessDenial[] = [];
  const onDenied = (denial: AccessDenial) => {
    logger.error('local AWS: AWS call refused by IAM; the template lacks this grant', { ...denial });
    denials.push(denial);
    if (denials.length > 100) denials.shift();
  };

  const streamLabels = new Map<string, string>();
  const resources = localResources(stack, {
    tableName: options.tableName,
    edgeUrl,
    apiUrl: options.apiUrl,
    streamLabel: (table) => streamLabels.get(table) ?? 'none',
  });
  const { resolve, nameOf, arnOf } = resources;
  for (const [table, label] of await ensureTables(options.dynamodbEndpoint, resourcesOfType(stack, 'AWS::DynamoDB::Table'), nameOf)) streamLabels.set(table, label);
  for (const [logicalId] of resourcesOfType(stack, 'AWS::S3::Bucket')) await options.s3.createBucket(nameOf(logicalId));
  if (options.sources) options.s3.allowAccessKey(SOURCE_MODE_CALLER, FUNCTION_SECRET_KEY);
  // The operator signs with its own key (`operatorEnvironment`): the store checks its signatures too. A test process that
  // acts as the operator also runs source mode's functions, whose SDKs then sign with it.
  options.s3.allowAccessKey(OPERATOR_ACCESS_KEY_ID, OPERATOR_ACCESS_KEY_ID);
  const policies = createAccessPolicies(stack, resolve, (role) => arnOf(role));

  // Queues: the dead-letter queues first, so that a redrive policy finds its target.
  const queueResources = resourcesOfType(stack, 'AWS::SQS::Queue');
  const redriveOf = (queue: CfnResource) => queue.Properties?.RedrivePolicy as { deadLetterTargetArn: unknown; maxReceiveCount: number } | undefined;
  for (const [logicalId, queue] of [...queueResources].sort(([, a], [, b]) => Number(!!redriveOf(a)) - Number(!!redriveOf(b)))) {
    const properties = queue.Properties ?? {};
    const redrive = redriveOf(queue);
    const deadLetterQueue = redrive ? queuesByKey.get(resolve(redrive.deadLetterTargetArn) as string) : undefined;
    const local = new LocalQueue({
      name: nameOf(logicalId),
      arn: arnOf(logicalId),
      url: resources.queueUrl(logicalId),
      visibilityTimeoutSeconds: Number(properties.VisibilityTimeout ?? 30),
      delaySeconds: Number(properties.DelaySeconds ?? 0),
      maximumMessageBytes: Number(properties.MaximumMessageSize ?? AWS_LIMITS.sqs.messageBytes),
      retentionSeconds: Number(properties.MessageRetentionPeriod ?? 345_600),
      ...(redrive && deadLetterQueue ? { redrive: { deadLetterQueue, maxReceiveCount: Number(redrive.maxReceiveCount) } } : {}),
    });
    for (const key of [local.settings.arn, local.settings.url, local.settings.name]) queuesByKey.set(key, local);
    queuesById.set(logicalId, local);
  }
  const queueOf = (logicalId: string) => {
    const queue = [...queuesById].find(([id]) => id === logicalId || id.startsWith(logicalId))?.[1];
    if (!queue) throw new Error(`The template has no queue ${logicalId}`);
    return queue;
  };
  const persisted = readPersistedQueues(options.dataDir);
  for (const queue of queuesById.values()) queue.restore(persisted[queue.settings.name] ?? []);

  /**
   * What every function is given besides its template's variables and Lambda's own: its AWS
   * calls go to the edge as the function (its logical id is its access key id), webhook retries
   * come seconds apart as on this machine, and the developer's local settings pass through.
   */
  const localVariables = (accessKeyId: string) => ({
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: FUNCTION_SECRET_KEY,
    AWS_ENDPOINT_URL: edgeUrl,
    AWS_ENDPOINT_URL_S3: s3Endpoint,
    // Local webhook retries are seconds apart (product-decisions §9), not AWS's 30 s and more.
    ...retryPolicyVariables(LOCAL_WEBHOOK_SETTINGS.policy),
    // Every webhook receiver on this machine has a private address.
    WEBHOOK_ALLOW_PRIVATE_URLS: process.env.WEBHOOK_ALLOW_PRIVATE_URLS ?? 'true',
    ...Object.fromEntries(PASSED_THROUGH.filter((variable) => process.env[variable] !== undefined).map((variable) => [variable, process.env[variable]!])),
  });
  const variablesOf = new Map<string, () => Record<string, string>>();
  /**
   * Source mode runs every function in this process, so they share one environment: each
   * function's template variables (which must agree where they name the same variable) and the
   * local ones, set when the first function starts (the API's URL is known by then) and put
   * back when the stack stops.
   */
  const replacedVariables = new Map<string, string | undefined>();
  function setSourceEnvironment() {
    if (replacedVariables.size > 0) return;
    const shared: Record<string, string> = {};
    for (const [logicalId, variables] of variablesOf) {
      for (const [name, value] of Object.entries(variables())) {
        if (shared[name] !== undefined && shared[name] !== value) throw new Error(`Source mode runs every function in one process, but ${name} differs between functions (${logicalId}: ${value}, another: ${shared[name]})`);
        shared[name] = value;
      }
    }
    // One output for every function: the metric documents CloudWatch would take from each function's log group stay off, unless METRICS_DISABLED says otherwise.
    const metrics = { METRICS_DISABLED: process.env.METRICS_DISABLED ?? 'true' };
    for (const [name, value] of Object.entries({ ...shared, ...localVariables(SOURCE_MODE_CALLER), ...metrics })) {
      replacedVariables.set(name, process.env[name]);
      process.env[name] = value;
    }
  }

  /**
   * A handler module, loaded as the function's init: the process-wide table client it calls
   * through refuses each call past its invocation's timeout. Both are imported here, not above,
   * so that they are the instances the module registry hands the handlers (a test that restarts
   * the stack loads them anew, as a new execution environment would).
   */
  async function loadModule(spec: FunctionSpec) {
    refuseCallsPastDeadline((await import('../../../shared/db/client')).documentClient());
    return (await import(spec.codeDir)).handler;
  }

  // Functions: the bundle (or, with `sources`, the handler module) the template names, with its role, memory, timeout and environment.
  const maxWorkers = options.maxWorkersPerFunction ?? defaultEnvironmentsPerFunction();
  for (const [logicalId, fn] of resourcesOfType(stack, 'AWS::Lambda::Function')) {
    const properties = fn.Properties ?? {};
    const asset = options.sources ? fn.Metadata?.[SOURCE_ENTRY_METADATA] : fn.Metadata?.['aws:asset:path'];
    if (typeof asset !== 'string') {
      throw new Error(options.sources ? `Function ${logicalId} names no handler module (${SOURCE_ENTRY_METADATA})` : `Function ${logicalId} has no bundled asset (aws:asset:path): the local AWS needs a cdk synth output`);
    }
    if (!String(properties.Runtime ?? '').startsWith('nodejs')) throw new Error(`Function ${logicalId} runs ${properties.Runtime}; the local AWS runs Node.js functions`);
    const role = refOf(properties.Role);
    if (!role) throw new Error(`Function ${logicalId} has no role of the template`);
    const name = nameOf(logicalId);
    // The local S3 checks each function's signatures (its calls and the URLs it presigns) as S3 checks a role's.
    options.s3.allowAccessKey(logicalId, FUNCTION_SECRET_KEY);
    const memoryMb = Number(properties.MemorySize ?? 128);
    const templateVariables = () => resolve((properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, string>;
    variablesOf.set(logicalId, templateVariables);
    const reserved = properties.ReservedConcurrentExecutions;
    functions.set(logicalId, {
      logicalId,
      name,
      arn: arnOf(logicalId),
      codeDir: options.sources ? resolvePath(PROJECT_ROOT, asset) : resolvePath(options.dir, asset),
      handler: String(properties.Handler),
      memoryMb,
      timeoutSeconds: Number(properties.Timeout ?? 3),
      role,
      roleName: nameOf(role),
      maxWorkers: reserved === undefined ? maxWorkers : Math.min(maxWorkers, Number(reserved)),
      environment: () => ({
        ...templateVariables(),
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LANG: 'en_US.UTF-8',
        TZ: ':UTC',
        LAMBDA_TASK_ROOT: resolvePath(options.dir, asset),
        _HANDLER: String(properties.Handler),
        AWS_EXECUTION_ENV: `AWS_Lambda_${properties.Runtime}`,
        AWS_LAMBDA_FUNCTION_NAME: name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
        AWS_LAMBDA_LOG_STREAM_NAME: 'artifact-mode',
        ...localVariables(logicalId),
      }),
    });
  }
  const functionByKey = (key: string) => [...functions.values()].find((spec) => spec.arn === key || spec.name === key || spec.logicalId === key);
  const poolOf = (logicalId: string): FunctionPool => {
    if (!pools.has(logicalId)) {
      const spec = functions.get(logicalId)!;
      if (options.sources) setSourceEnvironment();
      pools.set(
        logicalId,
        options.sources
          ? createModulePool(spec, () => loadModule(spec), { maxWorkers: spec.maxWorkers, faults: faults.lambda })
          : createFunctionPool(spec, { maxWorkers: spec.maxWorkers, logFile: options.logDir && join(options.logDir, `${spec.name}.log`), faults: faults.lambda }),
      );
    }
    return pools.get(logicalId)!;
  };

  /** May this service, acting for `sourceArn`, invoke the function (its AWS::Lambda::Permission resources)? */
  const mayInvoke = (spec: FunctionSpec, service: string, sourceArn: string) =>
    policies.decide(
      { caller: { service }, action: 'lambda:InvokeFunction', resource: spec.arn, context: { 'aws:SourceArn': sourceArn, 'aws:SourceAccount': account } },
      [spec.arn, spec.name],
    );

  /** Each function's AWS::Lambda::EventInvokeConfig: its MaximumRetryAttempts, else Lambda's two; its MaximumEventAgeInSeconds, else Lambda's six hours. */
  const asyncInvokeConfig = (spec: FunctionSpec) => {
    const config = resourcesOfType(stack, 'AWS::Lambda::EventInvokeConfig')
      .map(([, resource]) => resolve(resource.Properties ?? {}) as { FunctionName?: string; MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number })
      .find((properties) => properties.FunctionName === spec.name || properties.FunctionName === spec.arn);
    return { retries: config?.MaximumRetryAttempts ?? AWS_LIMITS.lambda.asyncRetryWaitsMs.length, maxEventAgeMs: (config?.MaximumEventAgeInSeconds ?? 6 * 3600) * 1000 };
  };
  const asyncRetries = new Set<NodeJS.Timeout>();
  /**
   * An asynchronous invocation (a rule's target): on a function error, retried later as Lambda
   * does, unless the event would be older than the function's maximum event age by then (Lambda
   * drops it).
   */
  function invokeAsync(pool: FunctionPool, event: unknown, attempt = 0, receivedAt = Date.now()): Promise<void> {
    return pool.invoke(event, 'Event').then((outcome) => {
      if (outcome.ok) return;
      const config = asyncInvokeConfig(pool.spec);
      const wait = attempt < config.retries ? AWS_LIMITS.lambda.asyncRetryWaitsMs[attempt] : undefined;
      const delay = wait !== undefined && Date.now() + wait - receivedAt <= config.maxEventAgeMs ? wait : undefined;
      logger.error('local AWS: asynchronous invocation failed', { function: pool.spec.name, error: outcome.errorMessage, retryInMs: delay ?? null });
      if (delay === undefined) return;
      const timer = setTimeout(() => {
        asyncRetries.delete(timer);
        void invokeAsync(pool, event, attempt + 1, receivedAt);
      }, delay);
      asyncRetries.add(timer);
    });
  }

  // Buses and rules: a rule's target is a queue (by its queue policy) or a function (by its permissions).
  const buses = new Map<string, string>([['default', `arn:aws:events:${region}:${account}:event-bus/default`]]);
  for (const [logicalId] of resourcesOfType(stack, 'AWS::Events::EventBus')) buses.set(nameOf(logicalId), arnOf(logicalId));
  const rules: LocalRule[] = resourcesOfType(stack, 'AWS::Events::Rule').map(([logicalId, rule]) =>
    ruleOf(
      resolve(rule.Properties ?? {}) as Record<string, unknown>,
      nameOf(logicalId),
      arnOf(logicalId),
      rule.Properties?.EventBusName ? (resolve(rule.Properties.EventBusName) as string) : undefined,
    ),
  );
  async function deliver(target: RuleTarget, event: BusEvent, rule: LocalRule): Promise<void> {
    const queue = queuesByKey.get(target.arn);
    if (queue) {
      const decision = policies.decide(
        { caller: { service: 'events.amazonaws.com' }, action: 'sqs:SendMessage', resource: queue.settings.arn, context: { 'aws:SourceArn': rule.arn, 'aws:SourceAccount': account } },
        [queue.settings.arn, queue.settings.url],
      );
      if (!decision.allowed) throw new Error(`the queue policy of ${queue.settings.name} refuses rule ${rule.name}: ${decision.reason}`);
      usage.sqsRequests++;
      queue.send(JSON.stringify(event));
      return;
    }
    const spec = functionByKey(target.arn);
    if (!spec) throw new Error(`target ${target.arn} is not a queue or function of the stack`);
    const decision = mayInvoke(spec, 'events.amazonaws.com', rule.arn);
    if (!decision.allowed) throw new Error(`no permission lets rule ${rule.name} invoke ${spec.name}: ${decision.reason}`);
    await invokeAsync(poolOf(spec.logicalId), event);
  }
  const eventBridge = createLocalEventBridge({ region, account, buses, rules, deliver, usage: (events) => (usage.eventBridgeEvents += events) });

  const routes = readRoutes(stack, resources, functionByKey);
  const routeTimeoutSeconds = options.sources?.routeTimeoutSeconds;
  if (routeTimeoutSeconds !== undefined) for (const route of routes) route.spec.timeoutSeconds = routeTimeoutSeconds;
  const defaultRoute = routes.find(({ key }) => key === DEFAULT_ROUTE_KEY);
  if (!defaultRoute) throw new Error(`The template's HTTP API has no ${DEFAULT_ROUTE_KEY} route: requests no route takes would get no answer of the service`);
  // The stage's access log lines go to its log group's file, beside the functions' (bench:cost counts them all).
  const accessLog = options.logDir ? openAccessLog(readAccessLog(stack, resources), options.logDir) : undefined;
  undo.push(() => accessLog?.close());
  const loadHandler = async (routeId: string) => {
    const route = routes.find((candidate) => candidate.handler === routeId)!;
    return routeHandler(route, {
      invoke: (event) => {
        usage.apiRequests++;
        return poolOf(route.spec.logicalId).invoke(event);
      },
      mayInvoke: () => mayInvoke(route.spec, 'apigateway.amazonaws.com', route.sourceArn),
      onAnswered: accessLog && ((event, answer, latencyMs) => accessLog.write({ requestId: event.requestContext.requestId, routeKey: route.key, status: answer.statusCode ?? 200, responseLatency: latencyMs })),
    });
  };

  const mappings = readMappings(stack, resolve, { functionByKey, queueAt: (arn) => queuesByKey.get(arn), policies });

  // The template's secrets under their local ARNs: the acquirer's (the one its functions read as
  // ADYEN_SECRET_ARN) holds the local acquirer's credentials; every other one the value
  // CloudFormation would generate for it, kept in the data folder.
  const acquirerSecrets = new Set(
    resourcesOfType(stack, 'AWS::Lambda::Function').map(([, fn]) => refOf((fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.ADYEN_SECRET_ARN)),
  );
  const keptValue = keptSecretValues(options.dataDir);
  const secrets = localSecrets(
    resourcesOfType(stack, 'AWS::SecretsManager::Secret').map(([logicalId, secret]) => ({
      arn: arnOf(logicalId),
      name: nameOf(logicalId),
      value: acquirerSecrets.has(logicalId) ? options.acquirerSecret : keptValue(logicalId, (secret.Properties?.GenerateSecretString ?? {}) as GenerateSecretString),
    })),
  );

  // The template's SES identities: the only senders the local SES takes.
  const ses = createLocalSes({ region, account, identities: resourcesOfType(stack, 'AWS::SES::EmailIdentity').map(([logicalId]) => nameOf(logicalId)), mailbox: options.mailbox });

  // The template's customer managed keys, each with its aliases and key policy; their material in the data folder.
  const aliases = resourcesOfType(stack, 'AWS::KMS::Alias').map(([, alias]) => resolve(alias.Properties ?? {}) as { AliasName: string; TargetKeyId: string });
  const kms = createLocalKms({
    region,
    account,
    dataDir: options.dataDir,
    keys: resourcesOfType(stack, 'AWS::KMS::Key').map(([logicalId, key]) => ({
      keyId: nameOf(logicalId),
      arn: arnOf(logicalId),
      aliases: aliases.filter((alias) => alias.TargetKeyId === nameOf(logicalId) || alias.TargetKeyId === arnOf(logicalId)).map((alias) => alias.AliasName),
      policy: [(resolve(key.Properties?.KeyPolicy ?? {}) as { Statement?: PolicyStatement | PolicyStatement[] }).Statement ?? []].flat(),
      enabled: key.Properties?.Enabled !== false,
    })),
  });

  const edge = startAwsEdge(listeners.edge, {
    dynamodbEndpoint: options.dynamodbEndpoint,
    callerOf: (accessKeyId): EdgeCaller | undefined => {
      if (options.sources && accessKeyId === SOURCE_MODE_CALLER) return { functionName: 'source mode', role: '', principalArn: `arn:aws:sts::${account}:assumed-role/source-mode/local`, unchecked: true };
      // The operator's `npm run ops`: an administrator's credentials in AWS, which the local IAM does not model.
      if (accessKeyId === OPERATOR_ACCESS_KEY_ID) return { functionName: 'operator', role: '', principalArn: `arn:aws:sts::${account}:assumed-role/operator/local`, unchecked: true };
      const spec = functions.get(accessKeyId);
      return spec && { functionName: spec.name, role: spec.role, principalArn: `arn:aws:sts::${account}:assumed-role/${spec.roleName}/${spec.name}` };
    },
    policies,
    tableArn: (nameOrArn) => (nameOrArn.startsWith('arn:') ? nameOrArn : `arn:aws:dynamodb:${region}:${account}:table/${nameOrArn}`),
    queueAt: (key) => queuesByKey.get(key) ?? queuesByKey.get(key.split('/').at(-1)!),
    eventBridge,
    s3: { listener: listeners.s3, storeUrl: options.s3.url },
    secrets,
    ses,
    kms,
    account,
    onDenied,
    onSqsRequest: () => usage.sqsRequests++,
    onCall: (functionName, target) => countCall(usage, functionName, target),
  });
  const background: (() => Promise<void>)[] = [];
  const tableOfStream = (streamArn: string) => /:table\/([^/]+)\/stream\//.exec(streamArn)![1];
  const startStream = (mapping: (typeof mappings)[number]) =>
    startStreamMapping({
      settings: mapping.settings,
      pool: poolOf(mapping.spec.logicalId),
      endpoint: options.dynamodbEndpoint,
      tableName: tableOfStream(mapping.sourceArn),
      region,
      eventSourceArn: mapping.sourceArn,
      checkpoints: mappingCheckpoints(options.dataDir, mapping.logicalId),
      faults: faults.streams,
    });
  return {
    awsEndpoint: edgeUrl,
    operatorEnvironment: () => operatorEnvironment(edgeUrl, region, stack.stackName),
    s3Endpoint,
    recentDenials: () => [...denials],
    routes: routes
      .filter(({ key }) => key !== DEFAULT_ROUTE_KEY)
      .map(({ key, handler }) => {
        const [method, path] = key.split(' ');
        return { method, path, handler };
      }),
    defaultRoute: defaultRoute.handler,
    loadHandler,
    async startBackground() {
      background.push(eventBridge.startSchedules());
      for (const mapping of mappings) {
        const pool = poolOf(mapping.spec.logicalId);
        const started = mapping.queue
          ? startQueueMapping({ settings: mapping.settings, pool, queue: mapping.queue, region, pollers: Math.min(5, mapping.spec.maxWorkers), faults: faults.queues, onRequest: () => usage.sqsRequests++ })
          : startStream(mapping);
        background.push(started.stop);
      }
    },
    async startCreditRolling() {
      for (const mapping of mappings.filter((candidate) => !candidate.queue && candidate.settings.filters.some((filter) => filter(PENDING_CREDIT_SAMPLE)))) {
        background.push(startStream(mapping).stop);
      }
    },
    runMinuteJobs: (at) => eventBridge.fireSchedules(at),
    stats: () => Object.fromEntries([...pools.values()].map((pool) => [pool.spec.name, pool.stats()])),
    queueMessages: (logicalId) => queueOf(logicalId).peek(),
    faults: () => addCounts(faults.lambda.injected(), faults.streams.injected(), faults.queues.injected()),
    setFaults: (plan) => Object.values(faults).forEach((part) => part.replan(plan)),
    usage: () => structuredClone(usage),
    functionOfRoute(routeKey) {
      const route = routes.find((candidate) => candidate.key === routeKey);
      if (!route) throw new Error(`The template has no route ${routeKey}`);
      return route.spec.name;
    },
    async stop() {
      // Each background part stops taking work at once; killing the workers then ends what is in flight.
      const stopping = background.map((stop) => stop());
      for (const timer of asyncRetries) clearTimeout(timer);
      await Promise.all([...pools.values()].map((pool) => pool.stop()));
      await Promise.all(stopping);
      await edge.close();
      accessLog?.close();
      persistQueues(options.dataDir, [...queuesById.values()]);
      for (const [name, value] of replacedVariables) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
