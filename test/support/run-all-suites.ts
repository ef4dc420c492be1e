import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the list jest.config.js reads too
const { SOURCE_PASS } = require('./suite-passes') as { SOURCE_PASS: string[] };

const ROOT = join(__dirname, '..', '..');

/** A child's exit status: its code, 1 when a signal ended it or it could not start. */
const exited = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/**
 * `npm test`: the checks (`npm run checks`: type check, lint, cycles), the source pass
 * (`SOURCE_PASS` of suite-passes.js: the unit tests and the HTTP suites that must run in source
 * mode), then the HTTP suites against the bundles (`test/support/run-artifact-suites.ts`). The
 * one `cdk synth` those need starts first, niced, so that esbuild takes the cores the checks and
 * the source pass leave idle instead of running alone after them. Each step's end is printed
 * with the time since the start.
 */
async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
  const synthLog = `${dir}.synth.log`;
  // Its own process group, so that stopping it stops esbuild too.
  const synth = spawn('nice', ['-n', '10', 'npx', 'cdk', 'synth', '--quiet', '--output', dir], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', openSync(synthLog, 'w')],
    detached: true,
  });
  const synthDone = exited(synth);
  const cleanUp = () => {
    if (synth.exitCode === null && synth.signalCode === null) {
      try {
        process.kill(-synth.pid!, 'SIGKILL');
      } catch {
        // The group ended on its own meanwhile.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(synthLog, { force: true });
  };
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      cleanUp();
      process.exit(status);
    });
  }
  const started = Date.now();
  const step = (what: string) => process.stdout.write(`[npm test] ${what} at ${Math.round((Date.now() - started) / 1000)} s\n`);
  void synthDone.then(() => step('cdk synth done'));
  try {
    const checks = await exited(spawn('npm', ['run', 'checks'], { cwd: ROOT, stdio: 'inherit' }));
    if (checks !== 0) return checks;
    step('checks done');
    const jest = await exited(spawn(join(ROOT, 'node_modules', '.bin', 'jest'), SOURCE_PASS, { cwd: ROOT, stdio: 'inherit' }));
    step('source pass done');
    if (jest !== 0) return jest;
    if ((await synthDone) !== 0) {
      process.stderr.write(`cdk synth failed:\n${readFileSync(synthLog, 'utf8')}\n`);
      return 1;
    }
    const artifacts = await exited(
      spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'run-artifact-suites.ts')], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, LAMBDA_ARTIFACTS: dir },
      }),
    );
    step('artifact pass done');
    return artifacts;
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
