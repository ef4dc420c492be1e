import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

/** CI installs cfn-lint (.ci/run); a developer machine without it skips the lint checks. */
export const lintsTemplates = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0 || process.env.CI === 'true';

/**
 * cfn-lint's errors on templates (a stack's and its nested stacks'), empty when it passes them;
 * W3005 (CDK's own DependsOn beside a GetAtt) is ignored. CPU-bound for a quarter of a minute a
 * stack: start it early and await it in the test.
 */
export async function cfnLintErrors(templateFiles: string[]): Promise<{ status: unknown; errors: string[] }> {
  const { status, output } = await promisify(execFile)('cfn-lint', ['--non-zero-exit-code', 'error', '--ignore-checks', 'W3005', '--', ...templateFiles], { maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ status: 0 as unknown, output: `${stdout}${stderr}` }),
    (error: { code?: unknown; stdout?: string; stderr?: string }) => ({ status: error.code, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  return { status, errors: output.split('\n').filter((line) => /^E\d/.test(line)) };
}
