import { App, Stack } from 'aws-cdk-lib';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceFunction } from '../../../lib/api-function';
import { routes } from '../../../shared/api';

/**
 * The docs-asset function as Lambda runs it: bundled by the stack's own construct (esbuild, ESM),
 * with the route's files copied in, then invoked from the bundle in a plain Node process.
 */
test('bundle: the docs-asset function carries the Swagger UI files and serves them from its bundle', () => {
  const route = routes.find((candidate) => candidate.handler === 'docs-asset')!;
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-docs-'));
  try {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundle');
    new ServiceFunction(stack, 'Docs', { handler: route.handler, files: route.files });
    app.synth();
    const bundles = readdirSync(outdir).filter((entry) => entry.startsWith('asset.') && existsSync(join(outdir, entry, 'index.mjs')));
    expect(bundles).toHaveLength(1);
    const bundle = join(outdir, bundles[0]);
    for (const file of route.files!) expect(existsSync(join(bundle, file))).toBe(true);
    const invoke = `
      const { handler } = await import(${JSON.stringify(join(bundle, 'index.mjs'))});
      const answers = [];
      for (const file of ['swagger-ui.css', 'package.json']) {
        const result = await handler(
          { version: '2.0', rawPath: '/docs/assets/' + file, headers: { host: 'example.com' }, pathParameters: { file }, requestContext: { http: { method: 'GET' } } },
          { getRemainingTimeInMillis: () => 10000 },
        );
        answers.push({ status: result.statusCode, type: result.headers['content-type'], length: result.isBase64Encoded ? Buffer.from(result.body, 'base64').length : 0 });
      }
      console.log(JSON.stringify(answers));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', invoke], {
      cwd: bundle,
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: 'eu-west-1', LOG_LEVEL: 'SILENT' },
    });
    const css = readFileSync(join(__dirname, '..', '..', '..', 'node_modules', 'swagger-ui-dist', 'swagger-ui.css'));
    expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual([
      { status: 200, type: 'text/css; charset=utf-8', length: css.length },
      { status: 404, type: 'text/html; charset=utf-8', length: 0 },
    ]);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, 120_000);
