import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { synthesizedArtifacts } from './artifacts';

/**
 * `npm run test:artifacts`: synthesizes the stack once (esbuild bundles every function, as
 * `cdk deploy` does) and runs the HTTP suites against those bundles (LAMBDA_ARTIFACTS), with
 * IAM checks on. Extra arguments go to jest: files or folders of test/http run instead of all
 * of it (`npm run test:artifacts -- test/http/webhooks`), options as given (`-t name`).
 */
async function main(): Promise<number> {
  const artifacts = await synthesizedArtifacts();
  try {
    const args = process.argv.slice(2);
    const suites = args.some((arg) => arg.startsWith('test/')) ? [] : ['test/http'];
    const jest = spawnSync(join(__dirname, '..', '..', 'node_modules', '.bin', 'jest'), [...suites, ...args], {
      stdio: 'inherit',
      env: { ...process.env, LAMBDA_ARTIFACTS: artifacts.dir },
    });
    return jest.status ?? 1;
  } finally {
    artifacts.remove();
  }
}

main().then((status) => process.exit(status));
