import '../../support/debug-logs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequestError } from '../../../shared/errors';
import { pageHandler } from '../../../shared/http/page';
import { lambdaContext } from '../../../bin/local/invocation';

const TOKEN = 'live_3f9a0c1e5b7d4f2a8c6e0b1d3f5a7c9e';
const EMAIL = 'customer@example.com';

function pageEvent(requestId: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /checkout/{id}',
    rawPath: '/checkout/pl_1',
    rawQueryString: '',
    headers: { host: 'pay.example.com', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    cookies: ['client_key=ck_secret_cookie'],
    pathParameters: { id: 'pl_1' },
    body: new URLSearchParams({ email: EMAIL, outcome: 'paid' }).toString(),
    isBase64Encoded: false,
    requestContext: {
      requestId,
      routeKey: 'POST /checkout/{id}',
      http: { method: 'POST', path: '/checkout/pl_1', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' },
    } as APIGatewayProxyEventV2['requestContext'],
  } as APIGatewayProxyEventV2;
}

/** The JSON lines the handler writes while `act` runs. */
async function logLinesOf(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: unknown) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    await act();
  } finally {
    process.stdout.write = write;
  }
  return written.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

describe('Function: observeRequests', () => {
  test('request log: one line per request with the API Gateway request id as correlation id, the Lambda context, route and status; no token, cookie or email', async () => {
    // Prepare
    const handler = pageHandler(async () => ({ status: 200, html: '<p>ok</p>' }));

    // Act
    const lines = await logLinesOf(() => handler(pageEvent('req-ok-1'), lambdaContext('checkout-submit')));

    // Assess
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      correlation_id: 'req-ok-1',
      route: 'POST /checkout/{id}',
      status: 200,
      function_name: 'checkout-submit',
      cold_start: expect.any(Boolean),
      function_request_id: expect.any(String),
      service: 'payment-operations',
    });
    const joined = JSON.stringify(lines);
    for (const secret of [TOKEN, 'ck_secret_cookie', EMAIL]) expect(joined).not.toContain(secret);
  });

  test('request log: a failed request is logged with its mapped status, and the next request gets its own correlation id', async () => {
    // Prepare
    const handler = pageHandler(async () => {
      throw new InvalidRequestError('email is invalid', 'email');
    });

    // Act
    const first = await logLinesOf(() => handler(pageEvent('req-bad-1'), lambdaContext('checkout-submit')));
    const second = await logLinesOf(() => handler(pageEvent('req-bad-2'), lambdaContext('checkout-submit')));

    // Assess
    expect(first.filter((line) => line.message === 'request')).toEqual([expect.objectContaining({ correlation_id: 'req-bad-1', status: 400 })]);
    expect(second.filter((line) => line.message === 'request')).toEqual([expect.objectContaining({ correlation_id: 'req-bad-2', status: 400 })]);
    expect(JSON.stringify([...first, ...second])).not.toContain(TOKEN);
  });
});
