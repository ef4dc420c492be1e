import { createDocumentClient } from '../db/client';
import { runAllJobs } from '../jobs';
import { createServices } from '../services';
import { createDirectory } from '../db/directory';
import { routes } from '../api';
import { SCOPES } from '../auth/principal';
import { backgroundTasks } from './background';
import { ensureDynamoDbLocal, ensureTable, type RunningDynamoDb } from './dynamodb-local';
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
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  demo?: DemoAccount;
  stop(): Promise<void>;
}

export interface DemoAccount {
  orgId: string;
  acceptorId: string;
  testToken: string;
  liveToken: string;
}

/** The handler modules, loaded the way Lambda would load each function's bundle. */
export async function loadHandler(name: string) {
  const module = await import(`../../functions/${name}/handler`);
  return module.handler;
}

/**
 * The whole service on one machine (product-decisions §11):
 * 1. use or start DynamoDB Local and create the table;
 * 2. serve every route through the same Lambda handlers;
 * 3. on an empty store, create the demo organization with a test and a live key;
 * 4. run the minute jobs and the outbox publisher until stopped.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo: RunningDynamoDb = await ensureDynamoDbLocal(options.dynamodbEndpoint, options.dataDir);
  await ensureTable(dynamo.endpoint, options.tableName);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = options.tableName;

  const stoppers: (() => Promise<void>)[] = [];
  let api: LocalApiServer | undefined;
  try {
    api = await startApiServer({
      routes,
      port: options.port,
      host: options.host,
      loadHandler,
      onListening: (port) => {
        process.env.BASE_URL ??= `http://127.0.0.1:${port}`;
      },
    });
    stoppers.push(api.close);
    const demo = options.seedDemo ? await seedDemo(options) : undefined;
    if (options.background) stoppers.push(startMinuteJobs(options));
    if (options.background) {
      for (const start of backgroundTasks) stoppers.push(await start({ dynamodbEndpoint: dynamo.endpoint, tableName: options.tableName }));
    }
    return {
      baseUrl: process.env.BASE_URL!,
      port: api.port,
      demo,
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
  const acceptor = await directory.createAcceptor(org.id, 'Demo web shop');
  const user = await directory.createUser(org.id, 'member');
  const scopes = [...SCOPES];
  const test = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes });
  const live = await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'live', scopes });
  return { orgId: org.id, acceptorId: acceptor.id, testToken: test.token, liveToken: live.token };
}

/** The EventBridge schedule's local twin: every minute job, every minute, until stopped. */
function startMinuteJobs(options: LocalStackOptions): () => Promise<void> {
  const db = createDocumentClient({ endpoint: options.dynamodbEndpoint });
  const { jobs } = createServices(db, options.tableName);
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return; // a run longer than a minute is not overlapped by the next
    running = runAllJobs(jobs)
      .then((results) => {
        for (const result of results) if (result.error) console.error(`job ${result.name} failed: ${result.error}`);
      })
      .finally(() => (running = undefined));
  }, 60_000);
  return async () => {
    clearInterval(timer);
    await running;
    db.destroy();
  };
}
