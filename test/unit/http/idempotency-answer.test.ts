import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../../shared/db/idempotency-store';
import { runIdempotently } from '../../../shared/http/idempotency';

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
