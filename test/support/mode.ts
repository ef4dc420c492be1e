/**
 * Tests that look inside the test process (its document client, its log lines, the in-process
 * delivery queue and dead-letter store) run only when the stack runs the sources in this
 * process; with LAMBDA_ARTIFACTS the functions run in worker processes of their own.
 */
export const inProcess = process.env.LAMBDA_ARTIFACTS ? describe.skip : describe;
export const testInProcess = process.env.LAMBDA_ARTIFACTS ? test.skip : test;
