import { buildSync, type BuildOptions } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..');
const FUNCTIONS = join(ROOT, 'functions');

/**
 * How every function is bundled: minified ESM for Node 22, with an external source map (no
 * sourcesContent) beside it that the runtime does not load (`--enable-source-maps` made the GET
 * payment-link init 1.4× slower: `npm run bench:cold`; stack traces are mapped offline,
 * docs/operations.md). The SDK is bundled too: one pinned version everywhere, tree-shaken.
 */
const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  outExtension: { '.js': '.mjs' },
  // ESM has no `require`; bundled CommonJS modules that call it get Node's.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  // Tells the code it is bundled: a module it loads on first need is then a file beside it (BUNDLED_APART below).
  define: { BUNDLED_APART: 'true' },
  absWorkingDir: ROOT,
  logLevel: 'warning',
};

/**
 * Modules a function loads on first need, bundled as files of their own beside its index.mjs
 * (by name), so that its init does not parse them: V8 parses a bundle whole, evaluated or not.
 * The code imports one as `require.resolve('./<name>')` where `BUNDLED_APART` is defined (the
 * source, in source mode); an asset whose bundle names it carries it. The PDF library of a live
 * dispute (docs/decisions.md 84) made the dispute functions' init 1.72× the floor's, inlined.
 */
const BUNDLED_APART: Record<string, string> = {
  'evidence-pdf.mjs': join(ROOT, 'shared', 'pdf', 'evidence-pdf.ts'),
  // The passkeys' ceremonies and the two-factor QR code: the Security page's init 1.79× the floor's, inlined (decisions 139).
  'webauthn.mjs': join(ROOT, 'shared', 'auth', 'webauthn.ts'),
  'qr-code.mjs': join(ROOT, 'shared', 'dashboard', 'qr-code.ts'),
};

/** Where an entry's bundle lands in a build folder: `index.mjs` and `index.mjs.map`, as Lambda's handler `index.handler` finds it. */
const bundleFolder = (entry: string) => relative(ROOT, entry).replace(/\.ts$/, '');

/**
 * Per cloud assembly (the folder of the assets' bundling folders): one build folder in it, so
 * that it goes with the assembly if the process is killed, removed when the process ends, and
 * the entries built there. A test that removes its assembly gets a new one for the next.
 */
const builds = new Map<string, { dir: string; built: Set<string> }>();

function buildFolderFor(outputDir: string): { dir: string; built: Set<string> } {
  const assembly = dirname(outputDir);
  let folder = builds.get(assembly);
  if (!folder || !existsSync(folder.dir)) {
    const dir = mkdtempSync(join(assembly, 'function-bundles-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    builds.set(assembly, (folder = { dir, built: new Set() }));
  }
  return folder;
}

/** The `sources` line of a source map as esbuild writes it. */
const sourcesLine = (sources: string[]) => `"sources": [${sources.map((source) => JSON.stringify(source)).join(', ')}]`;

/**
 * The bundle's source map with its sources relative to where the bundle now lies, as esbuild
 * writes them for a bundle built there: the map is then the one a build in place writes, and
 * the asset's hash, which covers it, does not depend on the build folder's random name.
 */
function copySourceMap(from: string, outputDir: string): void {
  const text = readFileSync(join(from, 'index.mjs.map'), 'utf8');
  const { sources } = JSON.parse(text) as { sources: string[] };
  const moved = sources.map((source) => relative(outputDir, resolve(from, source)).split('\\').join('/'));
  if (!text.includes(sourcesLine(sources))) throw new Error(`esbuild wrote ${join(from, 'index.mjs.map')} in a layout this build does not know`);
  writeFileSync(join(outputDir, 'index.mjs.map'), text.replace(sourcesLine(sources), sourcesLine(moved)));
}

/**
 * The app context that makes the first bundle built build every handler of functions/ in the
 * same esbuild run (the service's app sets it): the functions share most of their modules (the
 * SDK, the domain, zod), which one run parses once, where a run per function parsed them for
 * each of the ~90 functions (docs/decisions.md 73). An app of a few functions (a test's, the
 * benchmark's) leaves it unset and builds each alone.
 */
export const BUNDLE_EVERY_HANDLER_CONTEXT = 'payment-ops:bundle-every-handler';

/**
 * Writes `entry`'s bundle into `outputDir` (a function asset's bundling output), with `files`
 * (relative to the project root) copied in at the same paths; with `everyHandler`, the first
 * build takes every handler of functions/ along.
 */
export function bundleInto(entry: string, outputDir: string, options: { files?: string[]; everyHandler: boolean }): void {
  const { dir, built } = buildFolderFor(outputDir);
  if (!built.has(entry)) {
    const handlers = options.everyHandler
      ? readdirSync(FUNCTIONS)
          .map((name) => join(FUNCTIONS, name, 'handler.ts'))
          .filter((handler) => existsSync(handler) && !built.has(handler))
      : [];
    const entries = handlers.includes(entry) ? handlers : [entry];
    buildSync({ ...BUNDLE_OPTIONS, entryPoints: Object.fromEntries(entries.map((one) => [join(bundleFolder(one), 'index'), one])), outdir: dir });
    for (const one of entries) built.add(one);
  }
  const from = join(dir, bundleFolder(entry));
  copyFileSync(join(from, 'index.mjs'), join(outputDir, 'index.mjs'));
  copySourceMap(from, outputDir);
  const bundle = readFileSync(join(outputDir, 'index.mjs'), 'utf8');
  for (const [name, source] of Object.entries(BUNDLED_APART)) {
    if (!bundle.includes(`"./${name}"`)) continue;
    const apart = join('apart', name.replace(/\.mjs$/, ''));
    if (!built.has(source)) {
      buildSync({ ...BUNDLE_OPTIONS, entryPoints: { [apart]: source }, outdir: dir });
      built.add(source);
    }
    copyFileSync(join(dir, `${apart}.mjs`), join(outputDir, name));
  }
  for (const file of options.files ?? []) {
    mkdirSync(join(outputDir, dirname(file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(outputDir, file));
  }
}
