import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredUrls } from '../../shared/config';
import type { AdyenSecret } from '../../shared/acquirer/adyen-secret';
import { createDocumentClient } from '../../shared/db/client';
import { createDirectory } from '../../shared/db/directory';
import { SCOPES } from '../../shared/auth/principal';
import type { LocalAcquirer } from './adyen';
import { LOCAL_MERCHANT_ACCOUNT, planLocalAcquirer } from './acquirer';
import { startLocalAws, type LocalAws } from './aws/functions';
import { freePort } from './free-port';
import { configureTable } from './contention';
import { ensureDynamoDbLocal, type RunningDynamoDb } from './dynamodb-local';
import { createMailbox, startMailboxServer, type Mailbox } from './mailbox';
import { addCounts, faultPlanFrom, type FaultKind, type FaultPlan } from './faults';
import { DEFAULT_S3_PORT, startLocalS3 } from './s3';
import { startApiServer, type LocalApiServer } from './http-server';

export interface LocalStackOptions {
  port: number;
  host?: string;
  dynamodbEndpoint: string;
  tableName: string;
  dataDir: string;
  /** Create the demo organization and keys when the store has no organization. */
  seedDemo?: boolean;
  /** Run the schedules and every event source mapping (the outbox, webhook deliveries, notifications), not only the credits' roll. */
  background?: boolean;
  /**
   * A `cdk synth -o <dir>` output: serve the bundles it holds, as the template wires them,
   * instead of the sources (artifact mode, docs/architecture.md).
   */
  artifacts?: string;
  /**
   * Source mode: a `synthesizeForSources` output to serve the handler modules by (the tests
   * synthesize once per run); by default the stack synthesizes its own at start.
   */
  sourceTemplate?: string;
  /** Execution environments per function at the same time (invocations beyond wait). */
  maxWorkersPerFunction?: number;
  /**
   * Source mode: the API functions' timeout instead of the deployed ROUTE_TIMEOUT_SECONDS, for a
   * test that waits one out (artifact mode runs the template's).
   */
  routeTimeoutSeconds?: number;
  /** The local S3's port (S3_PORT, default 4568); 0 takes a free one. */
  s3Port?: number;
  /** Artifact mode: a folder for each function's output (`<name>.log`) instead of this process's stdout (source mode's functions write to this process's). */
  logDir?: string;
  /** Where the local Adyen listens (`npm start`: ACQUIRER_PORT, default 3001); unset or 0 takes a free port. */
  acquirerPort?: number;
  /** Where the local mailbox is served (`npm start`: MAIL_PORT, default 3002); unset or 0 takes a free port. */
  mailPort?: number;
  /** Where the local AWS edge answers (`npm start`: AWS_PORT, default 4566, where `npm run ops` finds it); unset or 0 takes a free port. */
  awsPort?: number;
  /** The faults to inject (FAULTS, docs/architecture.md): by default the environment's, usually none. */
  faults?: FaultPlan;
  /**
   * DynamoDB's partition limits at this share (DYNAMODB_PARTITION_SCALE), set on the contention
   * layer for this stack's table with `faults`; by default the layer's own settings.
   */
  partitionScale?: number;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  /** The local S3 (evidence documents): S3's endpoint, where the functions' S3 calls and their presigned URLs go. */
  s3Url: string;
  /** The S3-compatible store behind it, which takes what S3 would refuse: for a test that writes past S3's checks. */
  s3StoreUrl: string;
  /** The local Adyen (product-decisions §12): where its hosted pages and test controls are, and the credentials of this run. */
  acquirer: { url: string; secret: AdyenSecret };
  /** The local mailbox (product-decisions §16): every message the local SES sent, and where its JSON and inbox page are served. */
  mail: { url: string; mailbox: Mailbox };
  /**
   * Fires the minute schedule now (its function runs every job) and waits for it; with a later
   * `at`, its event says it fired then, and the jobs run as of then (functions/run-jobs: a test
   * moves the jobs past a deadline without waiting for it).
   */
  runMinuteJobs(at?: Date): Promise<void>;
  demo?: DemoAccount;
  /** Whether the functions run from the TypeScript sources in this process or from their bundles in processes of their own. */
  mode: 'sources' | 'artifacts';
  /** The local AWS the functions run in: its edge, their environments, IAM's refusals. */
  aws: LocalAws;
  /** The faults injected so far in the functions, their event sources and the local Adyen (DynamoDB's: `contentionStats`). */
  faults(): Partial<Record<FaultKind, number>>;
  /** Other faults from now on, everywhere in the stack and its table (none: undefined), as a run's quiet period turns them off. */
  setFaults(plan: FaultPlan | undefined): Promise<void>;
  /**
   * The service stopped and started again on the same port, table and data folder (the fault
   * `stack.restart`): its functions and API, as a deploy or an outage restarts them; the local
   * Adyen, S3 and DynamoDB, which are not the service's, go on.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface DemoAccount {
  orgId: string;
  acceptorId: string;
  /** The demo owner, who created the demo keys: the `--creator` of `ops key create`. */
  userId: string;
  /** The demo owner's sign-in to the dashboard (product-decisions §16). */
  ownerEmail: string;
  ownerPassword: string;
  testToken: string;
  liveToken: string;
}

/** The demo organization's owner (product-decisions §16). */
export const DEMO_OWNER_EMAIL = 'owner@example.com';

/**
 * The whole service on one machine (product-decisions §11):
 * 1. use or start DynamoDB Local (behind its contention layer) and the local S3;
 * 2. start the local Adyen, its notifications going to the stack's receiver, and the local
 *    mailbox, where the local SES keeps what it sends;
 * 3. run the template on the local AWS (`startLocalAws`): its table and bucket, its routes
 *    served by its functions (the handler modules of a template synthesized now, or the bundles
 *    of a `cdk synth` output in artifact mode);
 * 4. on an empty store, create the demo organization with a test and a live key;
 * 5. run the template's schedule and event source mappings until stopped (without `background`,
 *    only the stream mapping that rolls credits into balances).
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo: RunningDynamoDb = await ensureDynamoDbLocal(options.dynamodbEndpoint, options.dataDir);
  const faults = options.faults ?? faultPlanFrom();
  if (options.faults !== undefined || options.partitionScale !== undefined) {
    await configureTable(dynamo.endpoint, options.tableName, { partitionScale: options.partitionScale, ...(options.faults ? { faults: options.faults } : {}) });
  }
  const configuredBaseUrl = process.env.BASE_URL;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = options.tableName;

  const stoppers: (() => Promise<void>)[] = [];
  let api: LocalApiServer | undefined;
  try {
    const local = { ...options, dynamodbEndpoint: dynamo.endpoint };
    const s3 = await startLocalS3({ dataDir: options.dataDir });
    stoppers.push(s3.stop);
    const acquirer = planLocalAcquirer(options.acquirerPort || (await freePort()));
    // It listens at once, so that no other process takes the port probed free meanwhile; its
    // notifications go to the receiver, whose address is known once the API listens.
    let notificationUrl = '';
    const localAdyen: LocalAcquirer = await acquirer.start(() => notificationUrl, faults).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(`ACQUIRER_PORT ${acquirer.port} is in use: set ACQUIRER_PORT to a free port for the local Adyen`) : error;
    });
    stoppers.push(localAdyen.stop);
    const mailbox = createMailbox(options.dataDir);
    const mailServer = await startMailboxServer(mailbox, options.mailPort ?? 0).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(`MAIL_PORT ${options.mailPort} is in use: set MAIL_PORT to a free port for the local mailbox`) : error;
    });
    stoppers.push(mailServer.close);
    const template = options.artifacts ?? options.sourceTemplate ?? (await synthesizedSources(stoppers));
    let plan = faults;
    /** The service itself, what a deploy ships: the template's functions on the local AWS, and the API in front of them. */
    const startService = async (port: number) => {
      const functions = await startLocalAws({
        dir: template,
        sources: options.artifacts ? undefined : { routeTimeoutSeconds: options.routeTimeoutSeconds },
        s3,
        s3Port: options.s3Port ?? DEFAULT_S3_PORT,
        edgePort: options.awsPort,
        dynamodbEndpoint: dynamo.endpoint,
        tableName: options.tableName,
        dataDir: options.dataDir,
        maxWorkersPerFunction: options.maxWorkersPerFunction,
        logDir: options.logDir,
        apiUrl: () => configuredBaseUrl ?? `http://127.0.0.1:${api!.port}`,
        acquirerSecret: acquirer.secret.value,
        mailbox,
        faults: plan,
      });
      try {
        api = await startApiServer({
          routes: functions.routes,
          defaultRoute: functions.defaultRoute,
          port,
          host: options.host,
          loadHandler: functions.loadHandler,
          onListening: (listening) => {
            process.env.BASE_URL ??= `http://127.0.0.1:${listening}`;
          },
        });
      } catch (error) {
        await functions.stop();
        throw error;
      }
      return { functions, api };
    };
    let service = await startService(options.port);
    const stopService = async () => {
      await service.api.close();
      await service.functions.stop();
    };
    stoppers.push(() => stopService());
    const startWork = () => (options.background ? service.functions.startBackground() : service.functions.startCreditRolling());
    const baseUrl = configuredBaseUrl ?? `http://127.0.0.1:${service.api.port}`;
    // The dashboard's page uploads evidence documents from its origin straight to the bucket.
    await s3.allowUploadsFrom(new URL(configuredUrls().dashboard).origin);
    notificationUrl = `${baseUrl}/acquirer/adyen/notifications`;
    const demo = options.seedDemo ? await seedDemo(local) : undefined;
    await startWork();
    /** Faults injected by the service's parts before a restart replaced them. */
    let before: Partial<Record<FaultKind, number>> = {};
    return {
      baseUrl,
      port: service.api.port,
      s3Url: service.functions.s3Endpoint,
      s3StoreUrl: s3.url,
      acquirer: { url: localAdyen.url, secret: JSON.parse(acquirer.secret.value) as AdyenSecret },
      mail: { url: mailServer.url, mailbox },
      runMinuteJobs: (at) => service.functions.runMinuteJobs(at),
      demo,
      mode: options.artifacts ? 'artifacts' : 'sources',
      get aws() {
        return service.functions;
      },
      faults: () => addCounts(before, service.functions.faults(), localAdyen.faults()),
      async setFaults(next) {
        plan = next;
        service.functions.setFaults(next);
        localAdyen.setFaults(next);
        await configureTable(dynamo.endpoint, options.tableName, { faults: next ?? null });
      },
      async restart() {
        before = addCounts(before, service.functions.faults());
        const { port } = service.api;
        await stopService();
        service = await startService(port);
        await startWork();
      },
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

/** Source mode's template, synthesized now into a folder removed when the stack stops; aws-cdk-lib is loaded only then. */
async function synthesizedSources(stoppers: (() => Promise<void>)[]): Promise<string> {
  const { synthesizeForSources } = await import('./source-template');
  const dir = mkdtempSync(join(tmpdir(), 'source-template-'));
  stoppers.push(async () => rmSync(dir, { recursive: true, force: true }));
  return synthesizeForSources(dir);
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
  // 20 random characters: shown once, at this start, like the keys.
  const ownerPassword = randomBytes(15).toString('base64url');
  const user = await directory.createUser(org.id, 'member', { email: DEMO_OWNER_EMAIL, name: 'Demo owner', teamRole: 'owner', password: ownerPassword });
  const scopes = [...SCOPES];
  const test = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes });
  const live = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'live', scopes });
  return { orgId: org.id, acceptorId: acceptor.id, userId: user.userId, ownerEmail: DEMO_OWNER_EMAIL, ownerPassword, testToken: test.token, liveToken: live.token };
}
