/** `npm run ops -- <command>`: operator commands against the service's table. */
import '../shared/quiet-sdk';
import { ServiceError } from '../shared/errors';
import { HelpRequested, TextOutput, UsageError, runOps } from '../shared/ops/cli';
import { opsCommands } from '../shared/ops/commands';

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
