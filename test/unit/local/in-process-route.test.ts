import type { ApiEvent, ApiResult } from '../../../shared/http/response';
import { HTTP_API_ANSWERS, inProcessRoute, lambdaContext, type LambdaHandler } from '../../../shared/local/functions';
import { LIMITS } from '../../../shared/limits';

/** The source-mode server runs handlers in its own process; what a client sees must still be what the deployed route answers. */
const event = {} as ApiEvent;
const ok: ApiResult = { statusCode: 200, body: '{}' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a handler is given the route's timeout (the deployed functions'), counting down", async () => {
  const seen: number[] = [];
  const handler: LambdaHandler = async (_event, context) => {
    seen.push(context.getRemainingTimeInMillis());
    await sleep(50);
    seen.push(context.getRemainingTimeInMillis());
    return ok;
  };
  await expect(inProcessRoute('get-payment-link', handler)(event)).resolves.toEqual(ok);
  expect(seen[0]).toBeLessThanOrEqual(LIMITS.routeTimeoutSeconds * 1000);
  expect(seen[0]).toBeGreaterThan(LIMITS.routeTimeoutSeconds * 1000 - 50);
  expect(seen[0] - seen[1]).toBeGreaterThanOrEqual(40);
  expect(lambdaContext('import-settlements', 300_000).getRemainingTimeInMillis()).toBeGreaterThan(299_000);
});

test("an invocation that outlives its timeout answers HTTP API's 500, as a killed function does", async () => {
  const slow: LambdaHandler = async () => {
    await sleep(200);
    return ok;
  };
  const started = Date.now();
  await expect(inProcessRoute('checkout-submit', slow, 40)(event)).resolves.toEqual(HTTP_API_ANSWERS.internalError);
  expect(Date.now() - started).toBeLessThan(150);
});

test("a handler that throws answers HTTP API's 500, never the service's envelope", async () => {
  const failing: LambdaHandler = async () => {
    throw new Error('boom');
  };
  await expect(inProcessRoute('get-payment', failing)(event)).resolves.toEqual(HTTP_API_ANSWERS.internalError);
});
