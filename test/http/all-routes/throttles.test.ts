import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, type HttpResult } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * The stage's per-route throttles (lib/stages.ts), served by the local API Gateway as API Gateway
 * serves them: a route's bucket emptied is API Gateway's own 429, before any function runs, and
 * leaves the other routes' buckets alone. The template is the one the tests run, its checkout
 * page's route given a burst of 3 that refills once in 1,000 seconds, as a stage with that
 * throttle would synthesize it.
 */
const BURST = 3;
const THROTTLED_ROUTE = 'GET /checkout/{id}';

let stack: TestStack;
let merchant: Merchant;
let templateDir: string;

/** The template folder of this run with one route's throttle tightened: the stage's template rewritten, every other file linked. */
function withThrottle(sourceDir: string, routeKey: string, throttle: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }): string {
  const dir = mkdtempSync(join(tmpdir(), 'throttled-template-'));
  for (const entry of readdirSync(sourceDir)) {
    const template = entry.endsWith('.template.json') ? JSON.parse(readFileSync(join(sourceDir, entry), 'utf8')) : undefined;
    const stage = Object.values<{ Type: string; Properties: { RouteSettings?: Record<string, unknown> } }>(template?.Resources ?? {}).find(({ Type }) => Type === 'AWS::ApiGatewayV2::Stage');
    if (!stage) {
      symlinkSync(join(sourceDir, entry), join(dir, entry));
      continue;
    }
    expect(stage.Properties.RouteSettings).toHaveProperty([routeKey]);
    stage.Properties.RouteSettings![routeKey] = throttle;
    writeFileSync(join(dir, entry), JSON.stringify(template));
  }
  return dir;
}

beforeAll(async () => {
  const sourceDir = process.env.LAMBDA_ARTIFACTS ?? process.env.LOCAL_SOURCE_TEMPLATE!;
  templateDir = withThrottle(sourceDir, THROTTLED_ROUTE, { ThrottlingRateLimit: 0.001, ThrottlingBurstLimit: BURST });
  stack = await startTestStack(process.env.LAMBDA_ARTIFACTS ? { artifacts: templateDir } : { sourceTemplate: templateDir });
  merchant = await createMerchant(stack);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(templateDir, { recursive: true, force: true });
});

describe('Throttles: a route over its burst', () => {
  test("the request beyond a route's burst is API Gateway's 429 {\"message\":\"Too Many Requests\"}, the burst itself served", async () => {
    // Prepare
    const customer = client(stack.baseUrl);
    const unknownLink = '/checkout/pl_01jd2x3y4z5a6b7c8d9e0f1g2h';

    // Act
    const burst: HttpResult[] = await Promise.all(Array.from({ length: BURST }, () => customer.get(unknownLink)));
    const beyond = await customer.get(unknownLink);

    // Assess
    expect(burst.map(({ status }) => status)).toEqual(Array(BURST).fill(404));
    expect({ status: beyond.status, type: beyond.headers.get('content-type'), body: beyond.body }).toEqual({
      status: 429,
      type: 'application/json',
      body: { message: 'Too Many Requests' },
    });
  });

  test("a throttled route leaves the other routes' buckets alone: the API and the checkout's other routes still answer", async () => {
    // Prepare
    const customer = client(stack.baseUrl);
    expect((await customer.get('/checkout/pl_01jd2x3y4z5a6b7c8d9e0f1g2h')).status).toBe(429);

    // Act
    const api = await client(stack.baseUrl, merchant.test).get('/v1/payment_links');
    const thankYou = await customer.get('/checkout/pl_01jd2x3y4z5a6b7c8d9e0f1g2h/thank-you');

    // Assess
    expect(api.status).toBe(200);
    expect(thankYou.status).not.toBe(429);
  });
});
