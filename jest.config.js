process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'SILENT';
// Artifact mode's functions carry the stack's metric namespace: their EMF lines are noise in a test run.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/**
 * Suites whose subject only the artifacts run as AWS does, so that CI runs them there alone (it
 * must end within 15 minutes; docs/decisions.md 63): writers racing from processes of their own,
 * without the shared memory of one test process, and the SQS stand-in's fair queues, where source
 * mode runs its own local queue instead.
 */
const ARTIFACT_ONLY = [
  '/test/http/checkout/paid-concurrency.test.ts',
  '/test/http/refunds/concurrency.test.ts',
  '/test/http/webhooks/fairness.test.ts',
];

/** Jest: @swc/jest transpiles only (tsc --noEmit type-checks in `npm test`). */
module.exports = {
  testEnvironment: 'node',
  // The artifact suites (test/http/artifacts) run in `npm run test:artifacts`, which synthesizes once for them.
  roots: ['<rootDir>/test'],
  // Against the bundles, files whose every test looks inside the test process are not even
  // started (test/support/mode.ts), nor, to keep CI within its budget, the settlement-file import
  // (an ops command, not a route: settlements.test.ts covers the routes) and the hostile-input
  // property (bad-input.test.ts fuzzes every route through the bundles).
  testPathIgnorePatterns: process.env.LAMBDA_ARTIFACTS
    ? [
        '/node_modules/',
        '/test/http/all-routes/round-trips.test.ts',
        '/test/http/all-routes/no-secrets-in-logs.test.ts',
        '/test/http/settlements/import.test.ts',
        '/test/http/all-routes/hostile-input.test.ts',
      ]
    : ['/node_modules/', '/test/http/artifacts/', ...ARTIFACT_ONLY],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // middy 6 ships ESM only: let swc turn it into CommonJS for Jest's module system.
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
