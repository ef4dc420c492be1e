/** `npm run ops -- <command>`: operator commands against the service's table. */
import '../shared/quiet-sdk';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '../shared/errors';
import { localOperatorEnvironment } from './local/operator';
import { HelpRequested, TextOutput, UsageError, runOps } from './ops/cli';
import { opsCommands } from './ops/commands';

// Without DYNAMODB_ENDPOINT the deployed table is used when AWS credentials are configured;
// with none configured, the local stack's default endpoint (what `npm start` serves).
const hasAwsCredentials =
  !!process.env.AWS_ACCESS_KEY_ID || !!process.env.AWS_PROFILE || !!process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI ||
  existsSync(join(homedir(), '.aws', 'credentials')) || existsSync(join(homedir(), '.aws', 'config'));
if (!process.env.DYNAMODB_ENDPOINT && !hasAwsCredentials) process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:8000';
// Against the local stack, what seals and opens webhook secrets is the local KMS of `npm start`'s edge.
if (process.env.DYNAMODB_ENDPOINT) Object.assign(process.env, localOperatorEnvironment());

runOps(opsCommands(), process.argv.slice(2))
  .then((result) => {
    const text = result instanceof TextOutput ? result.text : `${JSON.stringify(result)}\n`;
    process.stdout.write(text, () => process.exit(0));
  })
  .catch((error: unknown) => {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${error.message}\n`);
      process.exit(0);
    }
    const message =
      error instanceof UsageError || error instanceof ServiceError
        ? error.message
        : `ops failed: ${(error as Error)?.message ?? String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
