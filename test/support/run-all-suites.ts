import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the lists jest.config.js reads too
const { SOURCE_PASS, CPU_ONLY } = require('./suite-passes') as { SOURCE_PASS: string[]; CPU_ONLY: string[] };

const ROOT = join(__dirname, '..', '..');
const JEST = join(ROOT, 'node_modules', '.bin', 'jest');

/** A child's exit status: its code, 1 when a signal ended it or it could not start. */
const exited = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/**
 * `npm test`, in two lanes on the machine's cores:
 * - the passes, at normal priority: the source pass (`SOURCE_PASS` of suite-passes.js: the unit
 *   tests and the HTTP suites that must run in source mode), then the HTTP suites against the
 *   bundles (`test/support/run-artifact-suites.ts`). The one `cdk synth` those need starts
 *   first, niced, so that esbuild takes what the source pass leaves idle;
 * - beside them, at the lowest priority, the checks (`npm run checks`: type check, lint, cycles)
 *   and the CDK tests (`CPU_ONLY`): CPU alone, checking no clock and no load, they take the
 *   cores the passes leave idle (the artifact pass waits on its functions a quarter of the time)
 *   instead of running before them (docs/decisions.md 156). Their output is printed at the end.
 * Each step's end is printed with the time since the start. The first step that fails ends the
 * run: the other steps are stopped, as a failed check stopped the run before any test.
 */
async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
  const synthLog = `${dir}.synth.log`;
  const besideLog = `${dir}.beside.log`;
  /** Processes started in a group of their own, so that stopping one stops its children too (esbuild, jest's workers). */
  const groups: ChildProcess[] = [];
  const grouped = (command: string, args: string[], output: number | 'inherit', env: Record<string, string> = {}) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', output, output], detached: true, env: { ...process.env, ...env } });
    groups.push(child);
    return child;
  };
  // Without aws-cdk-lib's built-in CloudFormation validation, which only warns: cfn-lint checks the template (test/http/artifacts).
  const synth = grouped('nice', ['-n', '10', 'npx', 'cdk', 'synth', '--quiet', '--no-validation', '--output', dir], openSync(synthLog, 'w'));
  const synthDone = exited(synth);
  const cleanUp = () => {
    for (const child of groups) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group ended on its own meanwhile.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(synthLog, { force: true });
    rmSync(besideLog, { force: true });
  };
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      cleanUp();
      process.exit(status);
    });
  }
  const started = Date.now();
  const step = (what: string, status = 0) =>
    process.stdout.write(`[npm test] ${what}${status === 0 ? '' : ' (failed)'} at ${Math.round((Date.now() - started) / 1000)} s\n`);
  void synthDone.then((status) => step('cdk synth done', status));

  const besideOutput = openSync(besideLog, 'w');
  const lowest = (command: string, args: string[]) => exited(grouped('nice', ['-n', '19', command, ...args], besideOutput));
  const beside = (async () => {
    const checks = await lowest('npm', ['run', 'checks']);
    step('checks done', checks);
    const cdk = await lowest(JEST, CPU_ONLY);
    step('CDK tests done', cdk);
    closeSync(besideOutput);
    return checks || cdk;
  })();

  const passes = async (): Promise<number> => {
    const jest = await exited(grouped(JEST, SOURCE_PASS, 'inherit'));
    step('source pass done', jest);
    if (jest !== 0) return jest;
    if ((await synthDone) !== 0) {
      process.stderr.write(`cdk synth failed:\n${readFileSync(synthLog, 'utf8')}\n`);
      return 1;
    }
    const artifacts = await exited(grouped(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'run-artifact-suites.ts')], 'inherit', { LAMBDA_ARTIFACTS: dir }));
    step('artifact pass done', artifacts);
    return artifacts;
  };

  try {
    // The first failure, of either lane, ends the run (the other lane's processes are stopped).
    const besideFailed = beside.then((status) => (status === 0 ? new Promise<never>(() => {}) : status));
    const status = await Promise.race([passes().then(async (passed) => passed || (await beside)), besideFailed]);
    process.stdout.write(`\n[npm test] The output of the checks and the CDK tests:\n${readFileSync(besideLog, 'utf8')}\n`);
    return status;
  } finally {
    cleanUp();
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
