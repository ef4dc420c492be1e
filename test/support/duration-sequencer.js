const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const RECORDED = require('./suite-durations.json');

const ROOT = join(__dirname, '..', '..');

/**
 * Jest's order, longest suite first, on a machine that has never run the suites too. Jest sorts
 * by the durations it cached in /tmp after a run, and without them by file size, which puts a
 * long browser suite of few lines last, where two workers wait for it alone. Here a suite
 * without a cached duration takes its recorded one (suite-durations.json: each suite's seconds in
 * a whole `npm test` on a fresh machine, from jest's cache after it; a suite of both passes, its
 * artifact pass's; refresh it when the slow suites change). A suite with neither is new: it runs
 * first, as jest runs an unknown suite, since it may be long. A suite that failed last time still
 * runs first too. Each suite's duration is handed on (`test.duration`), as jest's own sort does,
 * for the scheduler's estimate.
 */
class DurationSequencer extends Sequencer {
  sort(tests) {
    const recorded = (test) => {
      const seconds = RECORDED[relative(ROOT, test.path)];
      return seconds === undefined ? undefined : seconds * 1000;
    };
    for (const test of tests) test.duration = this.time(test) ?? recorded(test);
    const rank = (test) => (this.hasFailed(test) ? 2 : test.duration === undefined ? 1 : 0);
    return [...tests].sort((a, b) => rank(b) - rank(a) || (b.duration ?? 0) - (a.duration ?? 0));
  }
}

module.exports = DurationSequencer;
