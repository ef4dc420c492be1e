import { expectACapSetMidFlightHolds, expectTheLimitHoldsUnderConcurrentPayers } from '../../support/paid-checkouts';
import { startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

test('concurrency: 200 parallel paid checkouts on a link limited to 25 pay exactly 25, never oversell', async () => {
  await expectTheLimitHoldsUnderConcurrentPayers(stack);
}, 300_000);

test('concurrency: an unlimited link capped at its paid count while payers are in flight is never oversold', async () => {
  await expectACapSetMidFlightHolds(stack, { initialLimit: null, rounds: 3, payers: 30 });
}, 300_000);

test('concurrency: a limit lowered to the paid count while payers are in flight is never oversold', async () => {
  await expectACapSetMidFlightHolds(stack, { initialLimit: 100, rounds: 3, payers: 30 });
}, 300_000);
