import { expectACapSetMidFlightHolds } from '../../support/paid-checkouts';
import { startTestStack, type TestStack } from '../../support/stack';

// The 200 payers on a link limited to 25 race in test/http/artifacts/artifacts.test.ts, which also
// checks that they ran in separate workers: this file runs against the bundles too (jest.config.js).
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

test('concurrency: an unlimited link capped at its paid count while payers are in flight is never oversold', async () => {
  await expectACapSetMidFlightHolds(stack, { initialLimit: null, rounds: 3, payers: 30 });
}, 300_000);

test('concurrency: a limit lowered to the paid count while payers are in flight is never oversold', async () => {
  await expectACapSetMidFlightHolds(stack, { initialLimit: 100, rounds: 3, payers: 30 });
}, 300_000);
