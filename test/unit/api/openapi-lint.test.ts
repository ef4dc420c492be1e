import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiOperations } from '../../../shared/api';
import { buildOpenApiDocument } from '../../../shared/openapi';

const root = join(__dirname, '..', '..', '..');
// As deployed: API Gateway's endpoint (the linter rightly flags example.com and localhost servers).
const base = 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com';
const urls = { base, checkout: `${base}/checkout`, dashboard: `${base}/dashboard`, docs: `${base}/docs` };

/**
 * `@redocly/cli lint` with its recommended rules (redocly.yaml) and no recorded exception (the
 * public GET /v1/openapi.json documents the stage throttle's 429, its one 4xx), offline: the CLI
 * runs with every network connection refused, so telemetry or an update check would fail the test.
 */
test('openapi: the document lints clean with Redocly recommended rules, offline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'redocly-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(buildOpenApiDocument(apiOperations, urls)));
    copyFileSync(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
    const lint = spawnSync(process.execPath, ['--import', pathToFileURL(join(root, 'test', 'support', 'no-network.mjs')).href, join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', 'openapi.json', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    expect(lint.stderr).not.toContain('network refused');
    expect(lint.status).toBe(0);
    const report = JSON.parse(lint.stdout);
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
