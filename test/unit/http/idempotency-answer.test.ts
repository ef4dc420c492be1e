import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../../shared/db/idempotency-store';
import { ConflictError } from '../../../shared/errors';
import { CarriedOutError, requestFingerprint, runIdempotently } from '../../../shared/http/idempotency';

/** A store whose `complete` fails as DynamoDB does for an item over 400 KB, `failures` times. */
function storeFailing(failures: number) {
  const stored: StoredResponse[] = [];
  let released = false;
  const store: IdempotencyStore = {
    claim: async (): Promise<IdempotencyClaim> => ({ kind: 'claimed' }),
    carriedOutMark: () => ({ tableName: 'table', key: { PK: 'IDEM#x', SK: 'IDEM' } }),
    complete: async (_keyId, _key, response) => {
      if (failures-- > 0) throw Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
      stored.push(response);
    },
    release: async () => {
      released = true;
    },
  };
  return { store, stored, released: () => released };
}

const event = { requestContext: { http: { method: 'POST' } }, rawPath: '/v1/payment_links', body: '{}' } as unknown as APIGatewayProxyEventV2;
const created = async () => ({ statusCode: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'pl_x', blob: 'x'.repeat(500_000) }) });

describe('Function: runIdempotently', () => {
  test('an answer too large to store keeps the key with its status and a short body; the client gets the answer', async () => {
    const { store, stored, released } = storeFailing(1);
    const result = await runIdempotently(store, 'key_x', 'idem-1', event, 'https://docs', created);
    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body as string).id).toBe('pl_x');
    expect(stored).toEqual([{ status: 201, headers: expect.any(Object), body: expect.stringContaining('carried out') }]);
    expect(released()).toBe(false);
  });

  test('when nothing can be stored the client still gets the answer, never a 500, and the key is not released', async () => {
    const { store, stored, released } = storeFailing(2);
    const result = await runIdempotently(store, 'key_x', 'idem-2', event, 'https://docs', created);
    expect(result.statusCode).toBe(201);
    expect(stored).toEqual([]);
    expect(released()).toBe(false);
  });
});

describe('Function: runIdempotently, awaitFirstUntil', () => {
  const fingerprint = requestFingerprint(event);
  /** A store whose key is in flight for the first `claims` claims, then holds `then`. */
  function storeInFlight(claims: number, then: IdempotencyClaim) {
    let calls = 0;
    const store: IdempotencyStore = {
      claim: async (): Promise<IdempotencyClaim> => (++calls <= claims ? { kind: 'in_flight', fingerprint } : then),
      carriedOutMark: () => ({ tableName: 'table', key: { PK: 'IDEM#x', SK: 'IDEM' } }),
      complete: async () => undefined,
      release: async () => undefined,
    };
    return { store, calls: () => calls };
  }
  const firstAnswer: StoredResponse = { status: 303, headers: { location: '/dashboard/refunds/rf_x' }, body: '', cookies: ['dashboard_form=x'] };
  const runsAgain = jest.fn(created);

  test('a repeat while the first runs gets the first one\'s answer (its cookies too) once it has one, and runs nothing', async () => {
    const { store, calls } = storeInFlight(2, { kind: 'completed', fingerprint, response: firstAnswer });
    const result = await runIdempotently(store, 'key_x', 'idem-3', event, 'https://docs', runsAgain, { awaitFirstUntil: Date.now() + 5_000 });
    expect(result).toEqual({ statusCode: 303, headers: { location: '/dashboard/refunds/rf_x', 'idempotent-replayed': 'true' }, body: '', cookies: ['dashboard_form=x'] });
    expect(calls()).toBe(3);
    expect(runsAgain).not.toHaveBeenCalled();
  });

  test('a first request still running at the deadline -> 409, nothing run', async () => {
    const { store } = storeInFlight(Infinity, { kind: 'claimed' });
    const outcome = runIdempotently(store, 'key_x', 'idem-4', event, 'https://docs', runsAgain, { awaitFirstUntil: Date.now() + 300 });
    await expect(outcome).rejects.toThrow(new ConflictError('A request with this Idempotency-Key is still in progress'));
    expect(runsAgain).not.toHaveBeenCalled();
  });

  test('a first request carried out without an answer -> the refusal given for it, replayed', async () => {
    const { store } = storeInFlight(1, { kind: 'carried_out', fingerprint });
    const refusal = (error: unknown) => ({ statusCode: error instanceof CarriedOutError ? 303 : 500, headers: { location: '/back' } });
    const result = await runIdempotently(store, 'key_x', 'idem-5', event, 'https://docs', runsAgain, { awaitFirstUntil: Date.now() + 5_000, refusal });
    expect(result).toEqual({ statusCode: 303, headers: { location: '/back', 'idempotent-replayed': 'true' } });
    expect(runsAgain).not.toHaveBeenCalled();
  });
});
