import type { Context } from 'aws-lambda';
import { createConcurrencyLimit, inProcessRoute } from '../../../bin/local/invocation';

/** Source mode's invocations (bin/local/invocation.ts): environments per function and the timeout. */
const event = { routeKey: 'GET /probe' } as never;

describe('Function: createConcurrencyLimit', () => {
  test('an invocation beyond the limit waits for a free environment, and is handed the one released', async () => {
    // Prepare
    const environments = createConcurrencyLimit(1);
    expect(await environments.take(Date.now() + 60_000)).toBe(true);

    // Act
    const waiting = environments.take(Date.now() + 60_000);
    environments.release();

    // Assess
    expect(await waiting).toBe(true);
  });

  test('one still waiting when the gateway gives up never starts, and leaves no environment taken', async () => {
    // Prepare
    const environments = createConcurrencyLimit(1);
    await environments.take(Date.now() + 60_000);

    // Act
    const gaveUp = await environments.take(Date.now() + 10);
    environments.release();

    // Assess
    expect(gaveUp).toBe(false);
    expect(await environments.take(Date.now())).toBe(true);
  });
});

describe('Function: inProcessRoute', () => {
  test("past its timeout the route answers HTTP API's 500, and the context counted down to it", async () => {
    // Prepare
    let context: Context | undefined;
    const hangs = (_event: unknown, given: Context) => {
      context = given;
      return new Promise<never>(() => undefined);
    };
    const route = inProcessRoute(hangs, 'probe', createConcurrencyLimit(1), 0.05);

    // Act
    const answer = await route(event);

    // Assess
    expect(answer).toEqual({ statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' });
    expect(context!.getRemainingTimeInMillis()).toBe(0);
  });

  test('a killed invocation frees its environment for the next one', async () => {
    // Prepare
    let calls = 0;
    const route = inProcessRoute(
      async () => {
        calls++;
        if (calls === 1) return new Promise<never>(() => undefined);
        return { statusCode: 204 };
      },
      'probe',
      createConcurrencyLimit(1),
      0.05,
    );

    // Act
    const answers = await Promise.all([route(event), route(event)]);

    // Assess
    expect(answers.map((answer) => answer.statusCode)).toEqual([500, 204]);
  });
});
