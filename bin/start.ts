/**
 * `npm start`: the whole service on this machine. Environment (product-decisions §11):
 * PORT (3000), DYNAMODB_ENDPOINT (http://127.0.0.1:8000), TABLE_NAME (payment-ops),
 * DATA_DIR (.data; ':memory:' keeps nothing); S3_PORT (4568: the local S3 of the evidence
 * documents); ACQUIRER_PORT (3001, the local Adyen); AWS_PORT (4566: the local AWS edge,
 * where `npm run ops` calls KMS); LAMBDA_ARTIFACTS (a `cdk synth -o`
 * folder: run its bundles, artifact mode); LAMBDA_MAX_WORKERS (invocations per function at
 * once, in both modes; two per core).
 */
import '../shared/quiet-sdk';
import { DEFAULT_ACQUIRER_PORT } from './local/adyen';
import { DEFAULT_MAIL_PORT } from './local/mailbox';
import { DEFAULT_AWS_PORT } from './local/operator';
import { startLocalStack } from './local/stack';

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  process.env.BASE_URL ??= `http://127.0.0.1:${port}`;
  const stack = await startLocalStack({
    port,
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT ?? 'http://127.0.0.1:8000',
    tableName: process.env.TABLE_NAME ?? 'payment-ops',
    dataDir: process.env.DATA_DIR ?? '.data',
    s3Port: process.env.S3_PORT ? Number(process.env.S3_PORT) : undefined,
    seedDemo: true,
    background: true,
    artifacts: process.env.LAMBDA_ARTIFACTS,
    maxWorkersPerFunction: process.env.LAMBDA_MAX_WORKERS ? Number(process.env.LAMBDA_MAX_WORKERS) : undefined,
    logDir: process.env.LAMBDA_LOG_DIR,
    acquirerPort: process.env.ACQUIRER_PORT ? Number(process.env.ACQUIRER_PORT) : DEFAULT_ACQUIRER_PORT,
    mailPort: process.env.MAIL_PORT ? Number(process.env.MAIL_PORT) : DEFAULT_MAIL_PORT,
    awsPort: process.env.AWS_PORT ? Number(process.env.AWS_PORT) : DEFAULT_AWS_PORT,
  });
  console.log(`Payment operations service ready at ${stack.baseUrl} (API under ${stack.baseUrl}/v1)`);
  console.log(`Local S3 (evidence documents) at ${stack.s3Url}`);
  console.log(`Local Adyen (the acquirer of live payments) at ${stack.acquirer.url}`);
  console.log(`Local mailbox (every email the service sent) at ${stack.mail.url}`);
  console.log(
    stack.mode === 'artifacts'
      ? `Artifact mode: every function runs from its bundle in ${process.env.LAMBDA_ARTIFACTS}`
      : 'Source mode: every function runs from its handler module in this process, behind the same local AWS as artifact mode',
  );
  if (stack.demo) {
    console.log(`Demo organization ${stack.demo.orgId}, acceptor ${stack.demo.acceptorId}, user ${stack.demo.userId}`);
    console.log(`Dashboard: ${stack.baseUrl}/dashboard, the owner ${stack.demo.ownerEmail} with the password ${stack.demo.ownerPassword}`);
    console.log(`Test key (every scope): ${stack.demo.testToken}`);
    console.log(`Live key (every scope): ${stack.demo.liveToken}`);
    console.log(`The password and keys are shown once; create more keys with \`npm run ops -- key create --org ${stack.demo.orgId} --creator ${stack.demo.userId} --mode test --scopes …\``);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
