import '../../support/debug-logs';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, type HttpResult } from '../../support/http';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';

/**
 * Every answer a function gives carries `Request-Id`: API Gateway's request id, the
 * `correlation_id` of the function's log lines. The lines are read where the functions write
 * them: this process's output (the sources) or one file per function (artifact mode).
 */
let stack: TestStack;
let api: ReturnType<typeof client>;
let linkId: string;
const logDir = mkdtempSync(join(tmpdir(), 'request-id-logs-'));
const output: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  process.stdout.write = ((chunk: unknown) => output.push(String(chunk)) > 0) as typeof process.stdout.write;
  stack = await startTestStack({ logDir });
  const merchant = await createMerchant(stack);
  api = client(stack.baseUrl, merchant.test);
  linkId = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
});
afterAll(async () => {
  process.stdout.write = originalWrite;
  await stack?.stop();
  rmSync(logDir, { recursive: true, force: true });
});

/** The correlation ids of the `request` lines the functions logged so far. */
function loggedRequestIds(): Set<string> {
  const files = readdirSync(logDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.log'));
  const lines = [...output, ...files.map((file) => readFileSync(join(logDir, file), 'utf8'))].join('\n').split('\n');
  const ids = new Set<string>();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { message?: string; correlation_id?: string };
    if (entry.message === 'request' && entry.correlation_id) ids.add(entry.correlation_id);
  }
  return ids;
}

async function waitForLoggedId(id: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!loggedRequestIds().has(id)) {
    if (Date.now() > deadline) throw new Error(`no request line with correlation_id ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const answers: [string, () => Promise<HttpResult>, number][] = [
  ['an API answer', () => api.get(`/v1/payment_links/${linkId}`), 200],
  ['an API error (envelope)', () => api.get('/v1/payment_links/pl_unknown'), 404],
  ['an API shape error', () => api.post('/v1/payment_links', { amount: 'x' }), 400],
  ['a page', () => client(stack.baseUrl).get('/docs'), 200],
  ["a page's error", () => client(stack.baseUrl).get('/checkout/pl_unknown'), 404],
  ['a dashboard page', () => client(stack.baseUrl).get('/dashboard'), 200],
  ['an unknown path', () => client(stack.baseUrl).get('/no/such/path'), 404],
  ['a wrong method on a known path', () => client(stack.baseUrl).call('DELETE', '/v1/payment_links'), 405],
];

describe('Request-Id', () => {
  test.each(answers)('%s carries Request-Id, the correlation_id of its log line', async (_what, request, status) => {
    // Act
    const result = await request();

    // Assess
    expect(result.status).toBe(status);
    const id = result.headers.get('request-id');
    expect(id).toMatch(/^\S{8,}$/);
    await waitForLoggedId(id!);
  });

  test('each request has its own id', async () => {
    const [first, second] = await Promise.all([api.get(`/v1/payment_links/${linkId}`), api.get(`/v1/payment_links/${linkId}`)]);
    expect(first.headers.get('request-id')).not.toBe(second.headers.get('request-id'));
  });
});
