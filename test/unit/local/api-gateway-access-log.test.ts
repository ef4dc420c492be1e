import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessLogLine, openAccessLog, readAccessLog } from '../../../bin/local/aws/api-gateway';
import type { LocalResources } from '../../../bin/local/aws/resources';
import type { SynthesizedStack } from '../../../bin/local/aws/template';
import { API_ACCESS_LOG_FORMAT } from '../../../lib/payment-ops-stack';

const aRequest = { requestId: 'JJYJ6gB1IAMEV3g=', routeKey: 'POST /checkout/{id}', status: 303, responseLatency: 41 };

/** A template whose one stage logs to `destination`, its ARN as the local resources resolve it. */
function stageLoggingTo(destination: string): [SynthesizedStack, LocalResources] {
  const stack = { resources: { Stage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { AccessLogSettings: { Format: API_ACCESS_LOG_FORMAT, DestinationArn: { 'Fn::GetAtt': ['ApiAccessLogs', 'Arn'] } } } } } };
  return [stack as unknown as SynthesizedStack, { resolve: () => destination } as unknown as LocalResources];
}

/** The local API Gateway writes the stage's access log as API Gateway does: its format, its variables filled in, to its log group. */
describe('Local API Gateway: the access log', () => {
  test("a line is the stage's format with each request's values, and - for a variable without one", () => {
    // Act
    const line = accessLogLine(API_ACCESS_LOG_FORMAT, aRequest);

    // Assess
    expect(JSON.parse(line)).toEqual({ requestId: 'JJYJ6gB1IAMEV3g=', routeKey: 'POST /checkout/{id}', status: '303', latencyMs: '41', integrationError: '-' });
  });

  test("the lines go to a file named after the stage's log group, one a request; none after it is closed", () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'access-log-'));
    try {
      const accessLog = openAccessLog(readAccessLog(...stageLoggingTo('arn:aws:logs:eu-west-1:000000000000:log-group:local-ApiAccessLogs:*')), dir)!;

      // Act
      accessLog.write(aRequest);
      accessLog.write({ ...aRequest, status: 200 });
      accessLog.close();
      accessLog.write({ ...aRequest, status: 500 });

      // Assess
      const lines = readFileSync(join(dir, 'local-ApiAccessLogs.log'), 'utf8').trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).status)).toEqual(['303', '200']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a destination that is not a log group's ARN is refused when the stack starts, not guessed", () => {
    // Act, assess
    expect(() => readAccessLog(...stageLoggingTo('arn:aws:firehose:eu-west-1:000000000000:deliverystream/logs'))).toThrow(/not a log group's ARN/);
  });
});
