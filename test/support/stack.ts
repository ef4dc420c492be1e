import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SCOPES, type Mode, type Scope } from '../../shared/auth/principal';
import { createDocumentClient } from '../../shared/db/client';
import { client } from './http';
import { createDirectory, type Directory } from '../../shared/db/directory';
import { startLocalStack, type LocalStack } from '../../bin/local/stack';
import { LOCAL_MERCHANT_ACCOUNT } from '../../bin/local/acquirer';
import type { FaultPlan } from '../../bin/local/faults';
import type { SecretSealer } from '../../shared/domain/sealing';
import { operatorSealer } from './sealer';

export interface TestStack extends LocalStack {
  tableName: string;
  /** Artifact mode: the folder of this stack's function logs (`<function name>.log`), when LAMBDA_LOG_DIR is set. */
  logDir?: string;
  directory: Directory;
  db: ReturnType<typeof createDocumentClient>;
  /** The operator's sealer on the stack's local KMS: what a test writing webhook endpoints as the operator seals their secrets with. */
  sealer: SecretSealer;
}

/**
 * The local stack on a free port, with a table of its own in the run's DynamoDB Local, so
 * that test files never see each other's data. With LAMBDA_ARTIFACTS (a `cdk synth -o`
 * folder) it serves the synthesized bundles instead of the sources (artifact mode), their
 * output in a folder of LAMBDA_LOG_DIR when set (one file per function). `env`
 * sets service settings (REFUND_CANCEL_WINDOW_SECONDS…) until the stack stops; `restartOf`
 * starts it again on the table and data folder of one stopped before;
 * `routeTimeoutSeconds` shortens the API functions' timeout in source mode. This process is
 * the stack's operator: `ops` commands run in it call the local AWS as `npm run ops` does
 * (bin/local/operator.ts).
 */
export async function startTestStack(
  options: {
    background?: boolean;
    artifacts?: string;
    env?: Record<string, string>;
    logDir?: string;
    routeTimeoutSeconds?: number;
    /** Source mode: a template folder of the test's own instead of the run's (LOCAL_SOURCE_TEMPLATE). */
    sourceTemplate?: string;
    /** A restart: the table and data folder (queues, stream checkpoints) of a stack stopped before. */
    restartOf?: { tableName: string; dataDir: string };
    /** Faults to inject (bin/local/faults.ts), and DynamoDB's partition limits at a share, for this stack's table. */
    faults?: FaultPlan;
    partitionScale?: number;
  } = {},
): Promise<TestStack> {
  const tableName = options.restartOf?.tableName ?? `test-${randomUUID()}`;
  delete process.env.BASE_URL;
  const settings = Object.entries(options.env ?? {});
  for (const [name, value] of settings) process.env[name] = value;
  const logDir = options.logDir ?? (process.env.LAMBDA_LOG_DIR && join(process.env.LAMBDA_LOG_DIR, tableName));
  const stack = await startLocalStack({
    port: 0,
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName,
    dataDir: options.restartOf?.dataDir ?? ':memory:',
    s3Port: 0,
    background: options.background ?? false,
    routeTimeoutSeconds: options.routeTimeoutSeconds,
    artifacts: options.artifacts ?? process.env.LAMBDA_ARTIFACTS,
    sourceTemplate: options.sourceTemplate ?? process.env.LOCAL_SOURCE_TEMPLATE,
    // One folder per stack: the suites run side by side, and their functions have the same names.
    logDir,
    faults: options.faults,
    partitionScale: options.partitionScale,
    awsPort: 0,
  });
  const operator = Object.entries(stack.aws.operatorEnvironment()).map(([name, value]) => [name, process.env[name], value] as const);
  for (const [name, , value] of operator) process.env[name] = value;
  const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  const sealer = operatorSealer(() => stack.aws);
  const stopStack = stack.stop;
  const stop = async () => {
    await stopStack();
    sealer.close();
    for (const [name] of settings) delete process.env[name];
    for (const [name, before] of operator) {
      if (before === undefined) delete process.env[name];
      else process.env[name] = before;
    }
  };
  // The stack itself, not a copy: its `aws` follows a restart.
  return Object.assign(stack, { stop, tableName, logDir, db, directory: createDirectory(db, tableName), sealer });
}

export interface Merchant {
  orgId: string;
  acceptorId: string;
  userId: string;
  /** Organization-scoped keys with every scope. */
  test: string;
  live: string;
  key(options?: { mode?: Mode; scopes?: Scope[]; acceptorId?: string; creatorId?: string }): Promise<string>;
}

/** A fresh organization with one acceptor (with the local Adyen's merchant account), one member user and a test and a live key. */
export async function createMerchant(stack: TestStack): Promise<Merchant> {
  const { directory } = stack;
  const org = await directory.createOrganization(`Org ${randomUUID().slice(0, 8)}`);
  const acceptor = await directory.createAcceptor(org.id, 'Web shop', LOCAL_MERCHANT_ACCOUNT);
  const user = await directory.createUser(org.id, 'member');
  const key: Merchant['key'] = async (options = {}) =>
    (
      await directory.createApiKey({
        orgId: org.id,
        creatorId: options.creatorId ?? user.userId,
        mode: options.mode ?? 'test',
        scopes: options.scopes ?? [...SCOPES],
        acceptorId: options.acceptorId,
      })
    ).token;
  return {
    orgId: org.id,
    acceptorId: acceptor.id,
    userId: user.userId,
    test: await key({ mode: 'test' }),
    live: await key({ mode: 'live' }),
    key,
  };
}

export type Api = ReturnType<typeof client>;

/** A test stack, one merchant, and an API client with its test key: the usual start of a file. */
export async function startMerchantStack(options: Parameters<typeof startTestStack>[0] = {}): Promise<{ stack: TestStack; merchant: Merchant; api: Api }> {
  const stack = await startTestStack(options);
  const merchant = await createMerchant(stack);
  return { stack, merchant, api: client(stack.baseUrl, merchant.test) };
}
