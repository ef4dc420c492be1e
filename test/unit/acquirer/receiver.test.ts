import type { Context } from 'aws-lambda';
import { handler } from '../../../functions/acquirer-notifications/handler';
import type { ApiEvent } from '../../../shared/http/response';

/**
 * The notification receiver's own refusal of a body over 1 MB (product-decisions §1), which the
 * local server answers at its edge before the function: in AWS, API Gateway passes bodies up to
 * 10 MB on, and the function answers the error envelope, reading nothing else.
 */
describe('Function: acquirer-notifications', () => {
  test('a batch over 1 MB -> 413 with the error envelope, before the sender is checked', async () => {
    // Prepare
    const event = {
      rawPath: '/acquirer/adyen/notifications',
      headers: { host: 'api.example.com', 'content-type': 'application/json' },
      body: JSON.stringify({ notificationItems: [], padding: 'x'.repeat(1024 * 1024) }),
      isBase64Encoded: false,
      requestContext: { requestId: 'req-1', http: { method: 'POST', path: '/acquirer/adyen/notifications' } },
    } as unknown as ApiEvent;
    const context = { getRemainingTimeInMillis: () => 10_000, awsRequestId: 'req-1' } as unknown as Context;

    // Act
    const result = (await handler(event, context)) as { statusCode: number; headers: Record<string, string>; body: string };

    // Assess
    expect(result.statusCode).toBe(413);
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(result.body)).toMatchObject({ status: 413, type: 'Content Too Large', links: { documentation: { type: 'text/html' } } });
  });
});
