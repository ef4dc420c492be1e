import { App, Stack } from 'aws-cdk-lib';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceFunction } from '../../../lib/api-function';

/** The source of `handler`'s bundle, built by the stack's own construct. */
function bundleOf(handler: string): string {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-bundle-'));
  try {
    const app = new App({ outdir });
    new ServiceFunction(new Stack(app, 'Bundle'), 'Function', { handler });
    app.synth();
    const [asset] = readdirSync(outdir).filter((entry) => entry.startsWith('asset.') && existsSync(join(outdir, entry, 'index.mjs')));
    return readFileSync(join(outdir, asset, 'index.mjs'), 'utf8');
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('Construct: ServiceFunction', () => {
  // What issue 14 took out of every function (docs/benchmarks.md): zod's classic API, the OpenAPI
  // generator, and the areas a function does not call (their modules run at load when imported).
  test('bundle: GET payment link holds zod/mini only, no OpenAPI generator, no webhook signing', () => {
    // Act
    const source = bundleOf('get-payment-link');

    // Assess
    expect(source).toContain('"ZodMiniObject"');
    expect(source).not.toContain('"ZodObject"');
    expect(source).not.toContain('cannot be represented in OpenAPI');
    expect(source).not.toContain('webhook-signature');
  }, 120_000);

  test('bundle: GET openapi.json carries the OpenAPI generator', () => {
    expect(bundleOf('get-openapi')).toContain('cannot be represented in OpenAPI');
  }, 120_000);
});
