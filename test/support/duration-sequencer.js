const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const RECORDED = require('./suite-durations.json');

const ROOT = join(__dirname, '..', '..');

/**
 * Jest's order, longest suite first, on a machine that has never run the suites too. Jest sorts
 * by the durations it cached in /tmp after a run, and without them by file size, which puts a
 * long browser suite of few lines last, where two workers wait for it alone. Here a suite
 * without a cached duration takes its recorded one (suite-durations.json, seconds from a whole
 * `npm test`: refresh it when the slow suites change); one without either runs last. A suite
 * that failed last time still runs first.
 */
class DurationSequencer extends Sequencer {
  sort(tests) {
    const durationOf = (test) => this._getCache(test)[test.path]?.[1] ?? (RECORDED[relative(ROOT, test.path)] ?? 0) * 1000;
    const failed = (test) => (this.hasFailed(test) ? 1 : 0);
    return [...tests].sort((a, b) => failed(b) - failed(a) || durationOf(b) - durationOf(a));
  }
}

module.exports = DurationSequencer;
