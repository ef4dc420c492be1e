import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesizedArtifacts } from './artifacts';

/** Lines of one function's log shown when a suite failed. */
const ERROR_LINES_SHOWN = 20;

/**
 * What a failed run shows of the functions' logs: per stack (a folder each) and function, its
 * last lines at ERROR (the logger's JSON) or outside the logger (the runtime's own reports,
 * uncaught errors), with the folder that keeps all of them.
 */
function failureLogs(logDir: string): string {
  const files = existsSync(logDir) ? readdirSync(logDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.log')) : [];
  const sections = files.sort().flatMap((file) => {
    const noteworthy = readFileSync(join(logDir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !(line.startsWith('{') && !line.includes('"level":"ERROR"')));
    return noteworthy.length === 0 ? [] : [`${file}:`, ...noteworthy.slice(-ERROR_LINES_SHOWN).map((line) => `  ${line}`)];
  });
  return [`The functions' logs (a folder per test stack, a file per function): ${logDir}`, ...sections].join('\n');
}

/**
 * `npm run test:artifacts`: synthesizes the stack once (esbuild bundles every function, as
 * `cdk deploy` does) and runs the HTTP suites against those bundles (LAMBDA_ARTIFACTS), with
 * IAM checks on. The functions write to one log file each (LAMBDA_LOG_DIR, as a log group per
 * function), not into jest's output; a failed run prints their errors. Extra arguments go to
 * jest: files or folders of test/http run instead of all of it
 * (`npm run test:artifacts -- test/http/webhooks`), options as given (`-t name`).
 */
async function main(): Promise<number> {
  const artifacts = await synthesizedArtifacts();
  const logDir = process.env.LAMBDA_LOG_DIR ?? mkdtempSync(join(tmpdir(), 'artifact-logs-'));
  try {
    const args = process.argv.slice(2);
    const suites = args.some((arg) => arg.startsWith('test/')) ? [] : ['test/http'];
    const jest = spawnSync(join(__dirname, '..', '..', 'node_modules', '.bin', 'jest'), [...suites, ...args], {
      stdio: 'inherit',
      env: { ...process.env, LAMBDA_ARTIFACTS: artifacts.dir, LAMBDA_LOG_DIR: logDir },
    });
    if (jest.status !== 0) process.stdout.write(`${failureLogs(logDir)}\n`);
    else if (!process.env.LAMBDA_LOG_DIR) rmSync(logDir, { recursive: true, force: true });
    return jest.status ?? 1;
  } finally {
    artifacts.remove();
  }
}

main().then((status) => process.exit(status));
