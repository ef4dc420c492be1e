import { configuredUrls } from '../../shared/config';
import type { AdyenSecret } from '../../shared/acquirer/adyen-secret';
import { createDocumentClient, documentClient } from '../../shared/db/client';
import { runAllJobs } from '../../shared/jobs';
import { createServices } from '../../shared/services';
import { createDirectory } from '../../shared/db/directory';
import { routes, unmatchedRouteHandler } from '../../shared/api';
import { methodsOf } from '../../shared/api/operation';
import { SCOPES } from '../../shared/auth/principal';
import type { LocalAcquirer } from './adyen';
import { LOCAL_MERCHANT_ACCOUNT, planLocalAcquirer, startNotificationMapping, type LocalAcquirerPlan } from './acquirer';
import { startArtifactFunctions, type ArtifactFunctions } from './artifacts/functions';
import { backgroundTasks } from './background';
import { startCreditRolling } from './event-pipeline';
import { freePort } from './free-port';
import { localSecrets, startLocalSecretsManager } from './secrets-manager';
import { ensureDynamoDbLocal, ensureTable, type RunningDynamoDb } from './dynamodb-local';
import { LOCAL_DOCUMENTS_BUCKET, startLocalS3 } from './s3';
import type { LocalFunctions, RouteInvoker } from './functions';
import { createConcurrencyLimit, defaultEnvironmentsPerFunction, inProcessRoute, refuseCallsPastDeadline } from './invocation';
import { startApiServer, type LocalApiServer } from './http-server';

export interface LocalStackOptions {
  port: number;
  host?: string;
  dynamodbEndpoint: string;
  tableName: string;
  dataDir: string;
  /** Create the demo organization and keys when the store has no organization. */
  seedDemo?: boolean;
  /** Run the minute jobs and the outbox publisher in this process. */
  background?: boolean;
  /**
   * A `cdk synth -o <dir>` output: serve the bundles it holds, as the template wires them,
   * instead of the sources (artifact mode, docs/architecture.md).
   */
  artifacts?: string;
  /** Execution environments per function at the same time (invocations beyond wait). */
  maxWorkersPerFunction?: number;
  /**
   * Source mode: the API functions' timeout instead of the deployed ROUTE_TIMEOUT_SECONDS, for a
   * test that waits one out (artifact mode runs the template's).
   */
  routeTimeoutSeconds?: number;
  /** The local S3's port (S3_PORT, default 4568); 0 takes a free one. */
  s3Port?: number;
  /** Artifact mode: a folder for each function's output (`<name>.log`) instead of this process's stdout. */
  logDir?: string;
  /** Where the local Adyen listens (`npm start`: ACQUIRER_PORT, default 3001); unset or 0 takes a free port. */
  acquirerPort?: number;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  /** The local S3 (evidence documents). */
  s3Url: string;
  /** The local Adyen (product-decisions §12): where its hosted pages and test controls are, and the credentials of this run. */
  acquirer: { url: string; secret: AdyenSecret };
  /** Runs every minute job once now, as the schedule would (artifact mode: the schedule's function), and waits for it. */
  runMinuteJobs(): Promise<void>;
  demo?: DemoAccount;
  /** Artifact mode only: the functions' execution environments. */
  artifacts?: ArtifactFunctions;
  stop(): Promise<void>;
}

export interface DemoAccount {
  orgId: string;
  acceptorId: string;
  /** The member user who created the demo keys: the `--creator` of `ops key create`. */
  userId: string;
  testToken: string;
  liveToken: string;
}

/**
 * Source mode's functions: each handler module loaded the way Lambda would load its function's
 * bundle, behind its route with the function's timeout (or `timeoutSeconds`) and at most `environmentsPerFunction`
 * invocations at once. Every handler calls the table through the process-wide client, which
 * refuses the calls of an invocation past its timeout.
 */
export function sourceRoutes(environmentsPerFunction = defaultEnvironmentsPerFunction(), timeoutSeconds?: number): (name: string) => Promise<RouteInvoker> {
  return async (name) => {
    const module = await import(`../../functions/${name}/handler`);
    refuseCallsPastDeadline(documentClient());
    return inProcessRoute(module.handler, name, createConcurrencyLimit(environmentsPerFunction), timeoutSeconds);
  };
}

/**
 * The TypeScript sources: the same handler modules in this process, the minute jobs, the event
 * pipeline and the acquirer notifications' stream mapping in-process too. The acquirer's secret
 * is read as in AWS (ADYEN_SECRET_ARN), from a local Secrets Manager (SECRETS_MANAGER_ENDPOINT).
 */
async function sourceFunctions(options: LocalStackOptions, acquirer: LocalAcquirerPlan): Promise<LocalFunctions> {
  await ensureTable(options.dynamodbEndpoint, options.tableName);
  const secretsManager = await startLocalSecretsManager(localSecrets([acquirer.secret]));
  process.env.SECRETS_MANAGER_ENDPOINT = secretsManager.url;
  process.env.ADYEN_SECRET_ARN = acquirer.secret.arn;
  const stoppers: (() => Promise<void>)[] = [secretsManager.close];
  return {
    // One route per method, as the stack deploys them.
    routes: routes.flatMap((route) => methodsOf(route).map((method) => ({ method, path: route.path, handler: route.handler }))),
    defaultRoute: unmatchedRouteHandler,
    loadHandler: sourceRoutes(options.maxWorkersPerFunction, options.routeTimeoutSeconds),
    async startBackground() {
      stoppers.push(startMinuteJobs(options));
      for (const start of backgroundTasks) stoppers.push(await start({ dynamodbEndpoint: options.dynamodbEndpoint, tableName: options.tableName, dataDir: options.dataDir }));
      stoppers.push(await startNotificationMapping({ endpoint: options.dynamodbEndpoint, tableName: options.tableName, dataDir: options.dataDir }));
    },
    async startCreditRolling() {
      stoppers.push(startCreditRolling({ dynamodbEndpoint: options.dynamodbEndpoint, tableName: options.tableName }).stop);
    },
    runMinuteJobs: () => runJobsOnce(options),
    async stop() {
      for (const stop of stoppers.reverse()) await stop();
    },
  };
}

/**
 * The whole service on one machine (product-decisions §11):
 * 1. use or start DynamoDB Local and create the table; start the local S3 with its bucket;
 * 2. serve every route through the same Lambda handlers (the sources, or the bundles of a
 *    `cdk synth` output in artifact mode);
 * 3. on an empty store, create the demo organization with a test and a live key;
 * 4. start the local Adyen, its notifications going to the stack's receiver;
 * 5. run the minute jobs, the outbox publisher and the notifications' processing until stopped.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo: RunningDynamoDb = await ensureDynamoDbLocal(options.dynamodbEndpoint, options.dataDir);
  const configuredBaseUrl = process.env.BASE_URL;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = options.tableName;

  const stoppers: (() => Promise<void>)[] = [];
  let api: LocalApiServer | undefined;
  try {
    const local = { ...options, dynamodbEndpoint: dynamo.endpoint };
    const s3 = await startLocalS3({ port: options.s3Port, dataDir: options.dataDir, buckets: [LOCAL_DOCUMENTS_BUCKET] });
    stoppers.push(s3.stop);
    // Source mode's functions reach it as the deployed ones reach S3; artifact mode's through the AWS edge.
    process.env.S3_ENDPOINT = s3.url;
    process.env.DOCUMENTS_BUCKET ??= LOCAL_DOCUMENTS_BUCKET;
    const acquirer = planLocalAcquirer(options.acquirerPort || (await freePort()));
    // It listens at once, so that no other process takes the port probed free meanwhile; its
    // notifications go to the receiver, whose address is known once the API listens.
    let notificationUrl = '';
    const localAdyen: LocalAcquirer = await acquirer.start(() => notificationUrl).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(`ACQUIRER_PORT ${acquirer.port} is in use: set ACQUIRER_PORT to a free port for the local Adyen`) : error;
    });
    stoppers.push(localAdyen.stop);
    const artifacts = options.artifacts
      ? await startArtifactFunctions({
          dir: options.artifacts,
          s3,
          dynamodbEndpoint: dynamo.endpoint,
          tableName: options.tableName,
          dataDir: options.dataDir,
          maxWorkersPerFunction: options.maxWorkersPerFunction,
          logDir: options.logDir,
          apiUrl: () => configuredBaseUrl ?? `http://127.0.0.1:${api!.port}`,
          acquirerSecret: acquirer.secret.value,
        })
      : undefined;
    const functions = artifacts ?? (await sourceFunctions(local, acquirer));
    stoppers.push(functions.stop);
    api = await startApiServer({
      routes: functions.routes,
      defaultRoute: functions.defaultRoute,
      port: options.port,
      host: options.host,
      loadHandler: functions.loadHandler,
      onListening: (port) => {
        process.env.BASE_URL ??= `http://127.0.0.1:${port}`;
      },
    });
    stoppers.push(api.close);
    const baseUrl = configuredBaseUrl ?? `http://127.0.0.1:${api.port}`;
    // The dashboard's page uploads evidence documents from its origin straight to the bucket.
    await s3.allowUploadsFrom(new URL(configuredUrls().dashboard).origin);
    notificationUrl = `${baseUrl}/acquirer/adyen/notifications`;
    const demo = options.seedDemo ? await seedDemo(local) : undefined;
    if (options.background) await functions.startBackground();
    else await functions.startCreditRolling();
    return {
      baseUrl,
      port: api.port,
      s3Url: s3.url,
      acquirer: { url: localAdyen.url, secret: JSON.parse(acquirer.secret.value) as AdyenSecret },
      runMinuteJobs: functions.runMinuteJobs,
      demo,
      artifacts,
      stop: async () => {
        for (const stop of stoppers.reverse()) await stop();
        await dynamo.stop();
      },
    };
  } catch (error) {
    for (const stop of stoppers.reverse()) await stop();
    await dynamo.stop();
    throw error;
  }
}

async function seedDemo(options: LocalStackOptions): Promise<DemoAccount | undefined> {
  const db = createDocumentClient({ endpoint: options.dynamodbEndpoint });
  try {
    return await seedDemoWith(createDirectory(db, options.tableName));
  } finally {
    db.destroy();
  }
}

async function seedDemoWith(directory: ReturnType<typeof createDirectory>): Promise<DemoAccount | undefined> {
  if (await directory.hasAnyOrganization()) return undefined;
  const org = await directory.createOrganization('Demo organization');
  const acceptor = await directory.createAcceptor(org.id, 'Demo web shop', LOCAL_MERCHANT_ACCOUNT);
  const user = await directory.createUser(org.id, 'member');
  const scopes = [...SCOPES];
  const test = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes });
  const live = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'live', scopes });
  return { orgId: org.id, acceptorId: acceptor.id, userId: user.userId, testToken: test.token, liveToken: live.token };
}

/** Every minute job once, as the schedule runs them; a failed job is reported, the others run. */
async function runJobsOnce(options: LocalStackOptions): Promise<void> {
  const db = createDocumentClient({ endpoint: options.dynamodbEndpoint });
  try {
    for (const result of await runAllJobs(createServices(db, options.tableName).jobs)) if (result.error) console.error(`job ${result.name} failed: ${result.error}`);
  } finally {
    db.destroy();
  }
}

/** The EventBridge schedule's local twin: every minute job, every minute, until stopped. */
function startMinuteJobs(options: LocalStackOptions): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return; // a run longer than a minute is not overlapped by the next
    running = runJobsOnce(options).finally(() => (running = undefined));
  }, 60_000);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
