import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import swaggerUiPackage from 'swagger-ui-dist/package.json';
import { NotFoundError } from '../errors';

/**
 * Swagger UI, served by the stack itself from the `swagger-ui-dist` package (no CDN). Locally
 * the files are read from node_modules; in Lambda the docs-asset function's bundle carries a
 * copy of them under node_modules/ (the route's `files`), so the same resolution finds them.
 */
const PACKAGE = 'swagger-ui-dist';

/** The files the reference page loads, with their media types. */
export const SWAGGER_UI_ASSETS: Record<string, { type: string; compress: boolean }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', compress: true },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', compress: true },
  'favicon-32x32.png': { type: 'image/png', compress: false },
  'favicon-16x16.png': { type: 'image/png', compress: false },
};

/** What the docs-asset function's bundle must carry: the assets, the package manifest and its licence. */
export const SWAGGER_UI_BUNDLE_FILES = ['package.json', 'LICENSE', 'NOTICE', ...Object.keys(SWAGGER_UI_ASSETS)].map(
  (file) => `node_modules/${PACKAGE}/${file}`,
);

let root: string | undefined;
function packageRoot(): string {
  root ??= dirname(require.resolve(`${PACKAGE}/package.json`));
  return root;
}

/** The package version: asset URLs carry it, so they can be cached for a long time. */
export const SWAGGER_UI_VERSION: string = swaggerUiPackage.version;

export interface StaticFile {
  bytes: Buffer;
  type: string;
  encoding?: 'gzip';
}

const cache = new Map<string, { raw: Buffer; gzip?: Buffer; type: string }>();

/** One Swagger UI asset by file name (only the listed ones: no path is ever built from input), gzipped when accepted. */
export function swaggerUiAsset(file: string, acceptsGzip: boolean): StaticFile {
  const asset = Object.hasOwn(SWAGGER_UI_ASSETS, file) ? SWAGGER_UI_ASSETS[file] : undefined;
  if (!asset) throw new NotFoundError('No such file');
  let entry = cache.get(file);
  if (!entry) {
    const raw = readFileSync(join(packageRoot(), file));
    entry = { raw, type: asset.type, ...(asset.compress ? { gzip: gzipSync(raw) } : {}) };
    cache.set(file, entry);
  }
  return acceptsGzip && entry.gzip ? { bytes: entry.gzip, type: entry.type, encoding: 'gzip' } : { bytes: entry.raw, type: entry.type };
}
