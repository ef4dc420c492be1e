import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFunctionPool, type FunctionPool } from '../../../bin/local/aws/workers';

/** A server that answers each request after `?ms=` milliseconds. */
async function slowServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const ms = Number(new URL(request.url ?? '/', 'http://local').searchParams.get('ms') ?? 0);
    setTimeout(() => response.end('ok'), ms);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/**
 * What an execution environment reports of its invocation's outgoing requests (runtime.mjs), for
 * bench:cost: per kind (AWS's endpoint, any other host), the sum of their durations and the time
 * at least one was in flight.
 */
describe('Local Lambda runtime: an invocation\'s outgoing requests', () => {
  let aws: { server: Server; url: string };
  let other: { server: Server; url: string };
  let dir: string;
  let pool: FunctionPool;

  beforeAll(async () => {
    [aws, other] = await Promise.all([slowServer(), slowServer()]);
    dir = mkdtempSync(join(tmpdir(), 'runtime-requests-'));
    // Two requests to "AWS" at once (node:http), then one after the other to another host (fetch), each read to its end.
    writeFileSync(
      join(dir, 'index.mjs'),
      `import { get } from 'node:http';
const read = (url) => new Promise((done, fail) => get(url, (response) => { response.resume(); response.on('end', done); }).on('error', fail));
export const handler = async (event) => {
  await Promise.all([read(event.aws + '/?ms=150'), read(event.aws + '/?ms=150')]);
  for (const ms of [100, 100]) await (await fetch(event.other + '/?ms=' + ms)).text();
  return 'done';
};`,
    );
    pool = createFunctionPool(
      { logicalId: 'Requests', name: 'requests', arn: 'arn:aws:lambda:local:000000000000:function:requests', codeDir: dir, handler: 'index.handler', memoryMb: 256, timeoutSeconds: 10, environment: () => ({ _HANDLER: 'index.handler', LAMBDA_TASK_ROOT: dir, AWS_ENDPOINT_URL: aws.url, PATH: process.env.PATH ?? '' }) },
      { maxWorkers: 1 },
    );
  });

  afterAll(async () => {
    await pool.stop();
    for (const { server } of [aws, other]) await new Promise((done) => server.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  test('requests sent together count once in flight, in full in their sum; AWS\'s apart from other hosts\'', async () => {
    // Act
    const outcome = await pool.invoke({ aws: aws.url, other: other.url });

    // Assess
    expect(outcome).toEqual({ ok: true, result: 'done' });
    const stats = pool.stats();
    expect(stats.awsRequestSumMs).toBeGreaterThanOrEqual(300);
    expect(stats.awsRequestBusyMs).toBeGreaterThanOrEqual(150);
    expect(stats.awsRequestBusyMs).toBeLessThan(stats.awsRequestSumMs * 0.75);
    expect(stats.otherRequestSumMs).toBeGreaterThanOrEqual(200);
    expect(stats.otherRequestBusyMs).toBeGreaterThanOrEqual(200);
    expect(stats.otherRequestBusyMs).toBeLessThanOrEqual(stats.otherRequestSumMs);
  });
});
