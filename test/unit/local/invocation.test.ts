import type { Context } from 'aws-lambda';
import { createConcurrencyLimit, createModulePool, type ModuleHandler } from '../../../bin/local/invocation';
import type { FunctionSpec } from '../../../bin/local/aws/workers';
import { AWS_LIMITS } from '../../../shared/aws-limits';

/** Source mode's execution environments (bin/local/invocation.ts): environments per function, the timeout, the payload limits, the init. */
const spec = (timeoutSeconds: number): FunctionSpec => ({
  logicalId: 'Probe',
  name: 'probe',
  arn: 'arn:aws:lambda:local:000000000000:function:probe',
  codeDir: '.',
  handler: 'index.handler',
  memoryMb: 1024,
  timeoutSeconds,
  environment: () => ({}),
});
const poolOf = (handler: ModuleHandler, options: { timeoutSeconds?: number; maxWorkers?: number } = {}) =>
  createModulePool(spec(options.timeoutSeconds ?? 10), async () => handler, { maxWorkers: options.maxWorkers ?? 1 });

describe('Function: createConcurrencyLimit', () => {
  test('an invocation beyond the limit waits for a free environment, and is handed the one released', async () => {
    // Prepare
    const environments = createConcurrencyLimit(1);
    expect(await environments.take()).toBe(true);

    // Act
    const waiting = environments.take();
    environments.release();

    // Assess
    expect(await waiting).toBe(true);
  });

  test('closed, the invocations still waiting never start, and no later one does', async () => {
    // Prepare
    const environments = createConcurrencyLimit(1);
    await environments.take();
    const waiting = environments.take();

    // Act
    environments.close();

    // Assess
    expect(await waiting).toBe(false);
    expect(await environments.take()).toBe(false);
  });
});

describe('Function: createModulePool', () => {
  test("past its timeout an invocation fails as Lambda's Sandbox.Timedout, and the context counted down to it", async () => {
    // Prepare
    let context: Context | undefined;
    const pool = poolOf(
      (_event, given) => {
        context = given;
        return new Promise<never>(() => undefined);
      },
      { timeoutSeconds: 0.05 },
    );

    // Act
    const outcome = await pool.invoke({});

    // Assess
    expect(outcome).toMatchObject({ ok: false, errorType: 'Sandbox.Timedout', errorMessage: expect.stringMatching(/Task timed out after 0\.05 seconds$/) });
    expect(context!.getRemainingTimeInMillis()).toBe(0);
  });

  test('a timed-out invocation frees its environment for the next one', async () => {
    // Prepare
    let calls = 0;
    const pool = poolOf(
      async () => {
        calls++;
        if (calls === 1) return new Promise<never>(() => undefined);
        return { statusCode: 204 };
      },
      { timeoutSeconds: 0.05 },
    );

    // Act
    const outcomes = await Promise.all([pool.invoke({}), pool.invoke({})]);

    // Assess
    expect(outcomes).toEqual([expect.objectContaining({ ok: false, errorType: 'Sandbox.Timedout' }), { ok: true, result: { statusCode: 204 } }]);
    expect(pool.stats().peakConcurrent).toBe(1);
  });

  test('the event and the result cross as JSON: the handler gets a copy, and what JSON drops is dropped', async () => {
    // Prepare
    const event = { at: new Date(0), nested: { n: 1 } };
    let received: unknown;
    const pool = poolOf(async (given) => {
      received = given;
      return { when: new Date(0), gone: undefined };
    });

    // Act
    const outcome = await pool.invoke(event);

    // Assess
    expect(received).toEqual({ at: '1970-01-01T00:00:00.000Z', nested: { n: 1 } });
    expect(outcome).toEqual({ ok: true, result: { when: '1970-01-01T00:00:00.000Z' } });
  });

  test.each([
    ['RequestResponse', AWS_LIMITS.lambda.syncPayloadBytes],
    ['Event', AWS_LIMITS.lambda.asyncPayloadBytes],
  ] as const)("a %s event over Lambda's %d bytes is refused before the handler runs", async (type, limit) => {
    // Prepare
    let ran = false;
    const pool = poolOf(async () => (ran = true));

    // Act
    const outcome = await pool.invoke({ body: 'x'.repeat(limit) }, type);

    // Assess
    expect(outcome).toMatchObject({ ok: false, errorType: 'RequestEntityTooLargeException' });
    expect(ran).toBe(false);
  });

  test("a result over Lambda's synchronous limit fails as Function.ResponseSizeTooLarge", async () => {
    // Prepare
    const pool = poolOf(async () => ({ body: 'x'.repeat(AWS_LIMITS.lambda.syncPayloadBytes) }));

    // Act
    const outcome = await pool.invoke({});

    // Assess
    expect(outcome).toMatchObject({ ok: false, errorType: 'Function.ResponseSizeTooLarge' });
  });

  test('a module whose init throws fails the invocation with its error, and the next invocation inits again', async () => {
    // Prepare
    let inits = 0;
    const pool = createModulePool(
      spec(10),
      async () => {
        inits++;
        if (inits === 1) throw Object.assign(new Error('Cannot find module x'), { name: 'Runtime.ImportModuleError' });
        return async () => 'ok';
      },
      { maxWorkers: 1 },
    );

    // Act
    const first = await pool.invoke({});
    const second = await pool.invoke({});

    // Assess
    expect(first).toEqual({ ok: false, errorType: 'Runtime.ImportModuleError', errorMessage: 'Cannot find module x' });
    expect(second).toEqual({ ok: true, result: 'ok' });
    expect(pool.stats().started).toBe(2);
  });

  test('stopped, an invocation waiting for an environment fails as the stack stopping, and none starts after', async () => {
    // Prepare
    let release!: () => void;
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const pool = poolOf(
      () =>
        new Promise((resolve) => {
          release = () => resolve('done');
          started();
        }),
    );
    const running = pool.invoke({});
    const waiting = pool.invoke({});
    await handlerStarted;

    // Act
    await pool.stop();
    release();

    // Assess
    expect(await running).toEqual({ ok: true, result: 'done' });
    expect(await waiting).toMatchObject({ ok: false, errorType: 'ServiceException' });
    expect(await pool.invoke({})).toMatchObject({ ok: false, errorType: 'ServiceException' });
  });
});
