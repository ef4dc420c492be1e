import { lambdaContext } from '../../../bin/local/invocation';
import { metricsNamespace } from '../../../shared/observability/catalog';

const METRICS_NAMESPACE = metricsNamespace('test');

type Line = Record<string, unknown>;

/** What the module writes to stdout and stderr while `act` runs, as parsed JSON lines. */
async function written(act: () => unknown): Promise<{ stdout: Line[]; stderr: Line[] }> {
  const captured = { stdout: [] as string[], stderr: [] as string[] };
  const original = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((chunk: unknown) => captured.stdout.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => captured.stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    await act();
  } finally {
    process.stdout.write = original.stdout;
    process.stderr.write = original.stderr;
  }
  const parse = (chunks: string[]) => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
  return { stdout: parse(captured.stdout), stderr: parse(captured.stderr) };
}

/** The modules as a fresh Lambda environment loads them, with these variables. */
async function freshModules(env: Record<string, string>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let modules!: { logger: typeof import('../../../shared/observability/logger'); metrics: typeof import('../../../shared/observability/metrics') };
  await jest.isolateModulesAsync(async () => {
    modules = { logger: await import('../../../shared/observability/logger'), metrics: await import('../../../shared/observability/metrics') };
  });
  return { ...modules, restore: () => (process.env = saved) };
}

describe('Module: observability/logger', () => {
  test('a line has the Powertools shape: fixed keys in order, then the invocation keys, then its own; empty values left out', async () => {
    // Prepare
    const { logger, restore } = await freshModules({ LOG_LEVEL: 'INFO', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=557abcec3ee5a047;Sampled=1' });
    const log = logger.logger;

    // Act
    const { stdout, stderr } = await written(() => {
      log.startInvocation(lambdaContext('create-refund'));
      log.setCorrelationId('req-1');
      log.appendKeys({ orgId: 'org_1' });
      log.info('request', { status: 201, empty: '', missing: undefined, none: null, amount: 10n });
      log.debug('not at INFO');
      log.resetKeys();
      log.startInvocation(lambdaContext('create-refund'));
      log.warn('second invocation');
    });
    restore();

    // Assess
    expect(stdout).toHaveLength(1);
    expect(Object.keys(stdout[0])).toEqual([
      'level', 'message', 'timestamp', 'service', 'cold_start', 'function_arn', 'function_memory_size', 'function_name',
      'function_request_id', 'sampling_rate', 'xray_trace_id', 'correlation_id', 'orgId', 'status', 'amount',
    ]);
    expect(stdout[0]).toMatchObject({ level: 'INFO', message: 'request', service: 'payment-operations', cold_start: true, function_name: 'create-refund', xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793', amount: '10' });
    expect(new Date(stdout[0].timestamp as string).toISOString()).toBe(stdout[0].timestamp);
    // WARN and ERROR go to stderr; the second invocation is warm and has no key of the first.
    expect(stderr).toEqual([expect.objectContaining({ level: 'WARN', cold_start: false })]);
    expect(stderr[0]).not.toHaveProperty('correlation_id');
    expect(stderr[0]).not.toHaveProperty('orgId');
  });

  test('an error is written as name, location, message, stack and cause; a cycle does not break the line', async () => {
    // Prepare
    const { logger, restore } = await freshModules({ LOG_LEVEL: 'ERROR' });
    const error = Object.assign(new Error('boom', { cause: new TypeError('inner') }), { code: 'E_BOOM' });
    const cyclic: Record<string, unknown> = { name: 'cyclic' };
    cyclic.self = cyclic;

    // Act
    const { stderr } = await written(() => logger.logger.error('job failed', { error, cyclic }));
    restore();

    // Assess
    expect(stderr[0].error).toEqual({
      name: 'Error',
      location: expect.stringMatching(/log-shapes\.test\.ts:\d+$/),
      message: 'boom',
      stack: expect.stringContaining('Error: boom'),
      cause: expect.objectContaining({ name: 'TypeError', message: 'inner' }),
      code: 'E_BOOM',
    });
    expect(stderr[0].cyclic).toEqual({ name: 'cyclic' });
  });
});

describe('Module: observability/metrics', () => {
  test("EMF: the invocation's metrics in one document, those with a dimension in one a value of it (every count in it), CloudWatch's 100 values a metric per document", async () => {
    // Prepare
    const { metrics, restore } = await freshModules({ METRICS_NAMESPACE });

    // Act
    const { stdout } = await written(() => {
      metrics.countMetric('JobRuns');
      metrics.countMetric('ClientErrors', { name: 'Route', value: 'GET /x' });
      metrics.countMetric('JobRuns');
      metrics.recordDuration('JobMs', 12);
      metrics.countMetric('ClientErrors', { name: 'Route', value: 'GET /y' });
      metrics.countMetric('ClientErrors', { name: 'Route', value: 'GET /x' });
      metrics.metrics.publishStoredMetrics();
      for (let i = 0; i < 101; i++) metrics.recordAge('EventAge', i);
      metrics.metrics.publishStoredMetrics();
      metrics.metrics.publishStoredMetrics();
    });
    restore();

    // Assess
    const [invocation, routeX, routeY, fullArray, rest] = stdout;
    expect(stdout).toHaveLength(5);
    const byRoute = (route: string, count: number | number[]) => ({
      _aws: { Timestamp: expect.any(Number), CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['service', 'Route']], Metrics: [{ Name: 'ClientErrors', Unit: 'Count' }] }] },
      service: 'payment-operations',
      Route: route,
      ClientErrors: count,
    });
    expect(routeX).toEqual(byRoute('GET /x', [1, 1]));
    expect(routeY).toEqual(byRoute('GET /y', 1));
    expect(invocation).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['service']], Metrics: [{ Name: 'JobRuns', Unit: 'Count' }, { Name: 'JobMs', Unit: 'Milliseconds' }] }],
      },
      service: 'payment-operations',
      JobRuns: [1, 1],
      JobMs: 12,
    });
    expect(fullArray.EventAge).toHaveLength(100);
    expect(rest.EventAge).toBe(100);
  });

  test('no namespace (npm start, tests) or METRICS_DISABLED: nothing is written', async () => {
    for (const env of [{}, { METRICS_NAMESPACE, METRICS_DISABLED: 'true' }] as Record<string, string>[]) {
      const { metrics, restore } = await freshModules(env);
      delete process.env.METRICS_NAMESPACE;
      Object.assign(process.env, env);
      const { stdout } = await written(() => {
        metrics.countMetric('JobRuns');
        metrics.countMetric('ClientErrors', { name: 'Route', value: 'GET /x' });
        metrics.metrics.publishStoredMetrics();
      });
      restore();
      expect(stdout).toEqual([]);
    }
  });
});
