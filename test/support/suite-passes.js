/* global module */
/**
 * Which suites `npm test` runs in which mode (docs/decisions.md 68). Both modes run the same
 * template on the same local AWS; they differ only in where a function's code comes from (its
 * handler module in the test process, or its bundle in processes of its own). So each HTTP suite
 * runs once, against the bundles: what `cdk deploy` ships. The source pass runs the unit tests
 * and the HTTP suites that must run in source mode. `npm run test:source` (jest alone) runs every
 * suite in source mode.
 */

/** HTTP suites whose every test looks inside the test process (its SDK calls, its log lines): source mode only. */
const IN_PROCESS = ['test/http/all-routes/round-trips.test.ts', 'test/http/all-routes/no-secrets-in-logs.test.ts'];

/** HTTP suites with some tests that look inside the test process (`testInProcess`), the rest running against the bundles too. */
const PARTLY_IN_PROCESS = ['test/http/all-routes/idempotency.test.ts', 'test/http/checkout/open-payments.test.ts'];

/**
 * Left out of the artifact pass to keep CI within its budget: the settlement-file import (an ops
 * command, not a route: settlements.test.ts covers the routes) and the hostile-input property
 * (bad-input.test.ts fuzzes every route through the bundles).
 */
const SOURCE_FOR_BUDGET = ['test/http/settlements/import.test.ts', 'test/http/all-routes/hostile-input.test.ts'];

/**
 * Suites whose subject only the bundles run as AWS does (docs/decisions.md 63): writers racing
 * from processes of their own, without the shared memory of one test process.
 */
const ARTIFACT_ONLY = ['test/http/checkout/paid-concurrency.test.ts', 'test/http/refunds/concurrency.test.ts', 'test/http/webhooks/fairness.test.ts'];

/**
 * The CDK tests: synths, cdk-nag and cfn-lint, CPU alone, with no clock, load or stack in what
 * they check. `npm test` runs them at the lowest priority beside the passes, in the cores the
 * artifact pass leaves idle (docs/decisions.md 156).
 */
const CPU_ONLY = ['test/unit/cdk/'];

module.exports = {
  IN_PROCESS,
  ARTIFACT_ONLY,
  CPU_ONLY,
  /** What `npm test` runs in source mode besides CPU_ONLY (jest takes each as a pattern: every unit suite outside test/unit/cdk). */
  SOURCE_PASS: ['test/unit/(?!cdk/)', ...IN_PROCESS, ...PARTLY_IN_PROCESS, ...SOURCE_FOR_BUDGET],
  /** What the artifact pass does not even start. */
  NOT_AGAINST_BUNDLES: [...IN_PROCESS, ...SOURCE_FOR_BUDGET],
};
