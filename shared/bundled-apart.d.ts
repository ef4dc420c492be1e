/**
 * Defined as `true` in a function's bundle (lib/function-bundles.ts): a module the function loads
 * on first need is then a file of its own beside the bundle (`require.resolve('./<name>.mjs')`),
 * since V8 parses a bundle whole at init, evaluated or not; in source mode it is undefined and
 * the module itself is imported. Tested at each use as `typeof BUNDLED_APART !== 'undefined'`,
 * so that esbuild drops the source branch (and the module with it) from the bundle.
 */
declare const BUNDLED_APART: true | undefined;
