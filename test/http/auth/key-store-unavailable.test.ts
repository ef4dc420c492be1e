import { startApiServer } from '../../../bin/local/http-server';
import { lambdaContext } from '../../../bin/local/invocation';
import type { ApiEvent, ApiResult } from '../../../shared/http/response';
import { routes, unmatchedRouteHandler } from '../../../shared/api';
import { client, expectEnvelope } from '../../support/http';

/** The handlers in this file talk to a DynamoDB endpoint where nothing listens. */
test('key store unreachable -> 503 with Retry-After, never 401 or 500', async () => {
  process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
  process.env.TABLE_NAME = 'unreachable';
  // Each route's handler module called as Lambda calls it, without the local AWS (no table to create).
  const loadHandler = async (name: string) => {
    const { handler } = (await import(`../../../functions/${name}/handler`)) as { handler: (event: ApiEvent, context: unknown) => Promise<ApiResult> };
    return (event: ApiEvent) => handler(event, lambdaContext(name));
  };
  const api = await startApiServer({ routes, defaultRoute: unmatchedRouteHandler, port: 0, loadHandler });
  try {
    const result = await client(`http://127.0.0.1:${api.port}`, 'live_' + 'a'.repeat(43)).get('/v1/payments/pay_x');
    expectEnvelope(result, 503);
    expect(Number(result.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(result.text).not.toMatch(/dynamo|ECONNREFUSED|PK/i);
  } finally {
    await api.close();
  }
});
