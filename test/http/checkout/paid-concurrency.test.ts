import { expectTheLimitHoldsUnderConcurrentPayers } from '../../support/paid-checkouts';
import { startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

test('concurrency: 200 parallel paid checkouts on a link limited to 25 pay exactly 25, never oversell', async () => {
  await expectTheLimitHoldsUnderConcurrentPayers(stack);
}, 300_000);
