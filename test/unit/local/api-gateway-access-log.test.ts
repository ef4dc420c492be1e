import { accessLogLine } from '../../../bin/local/aws/api-gateway';
import { API_ACCESS_LOG_FORMAT } from '../../../lib/payment-ops-stack';

/** The local API Gateway writes the stage's access log as API Gateway does: its format, its variables filled in. */
describe('Local API Gateway: the access log', () => {
  test("a line is the stage's format with each request's values, and - for a variable without one", () => {
    // Act
    const line = accessLogLine(API_ACCESS_LOG_FORMAT, { requestId: 'JJYJ6gB1IAMEV3g=', routeKey: 'POST /checkout/{id}', status: 303, responseLatency: 41 });

    // Assess
    expect(JSON.parse(line)).toEqual({ requestId: 'JJYJ6gB1IAMEV3g=', routeKey: 'POST /checkout/{id}', status: '303', latencyMs: '41', integrationError: '-' });
  });
});
