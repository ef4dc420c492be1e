process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'SILENT';

const { ARTIFACT_ONLY, NOT_AGAINST_BUNDLES } = require('./test/support/suite-passes');
const rooted = (files) => files.map((file) => `/${file}`);

/** Jest: @swc/jest transpiles only (tsc --noEmit type-checks in `npm test`). */
module.exports = {
  testEnvironment: 'node',
  // The artifact suites (test/http/artifacts) run in `npm run test:artifacts`, which synthesizes once for them.
  roots: ['<rootDir>/test'],
  // Against the bundles, the suites that run in source mode only are not even started
  // (test/support/suite-passes.js); in source mode, those that run against the bundles only.
  testPathIgnorePatterns: process.env.LAMBDA_ARTIFACTS
    ? ['/node_modules/', ...rooted(NOT_AGAINST_BUNDLES)]
    : ['/node_modules/', '/test/http/artifacts/', ...rooted(ARTIFACT_ONLY)],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // middy 6 and the oslo packages ship ESM only: let swc turn it into CommonJS for Jest's module system.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@oslojs)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/support/duration-sequencer.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
