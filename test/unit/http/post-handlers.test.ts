import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiOperations } from '../../../shared/api';
import { createPaymentLink, getPaymentLink } from '../../../shared/api/payment-links';
import { getOpenApi } from '../../../shared/api/reference';
import { apiHandler } from '../../../shared/http/api';
import { operationHandler, publicApiHandler } from '../../../shared/http/operation-handler';

const noop = async () => ({ status: 200, body: {} });

describe('Function: the operation handlers', () => {
  test('a POST built without idempotency fails at its cold start; apiHandler gives a POST its idempotency, a read needs none', () => {
    expect(() => operationHandler(createPaymentLink, noop, { authenticate: async () => ({}) as never })).toThrow(/apiHandler/);
    expect(() => apiHandler(createPaymentLink, noop)).not.toThrow();
    expect(() => apiHandler(getPaymentLink, noop)).not.toThrow();
  });

  test('a keyed operation built without a key check, or a public one built with a key store, fails at its cold start', () => {
    expect(() => publicApiHandler(getPaymentLink, noop)).toThrow(/apiHandler/);
    expect(() => apiHandler(getOpenApi, noop)).toThrow(/publicApiHandler/);
    expect(() => publicApiHandler(getOpenApi, noop)).not.toThrow();
  });

  test("every keyed operation's handler is an apiHandler, every public one a publicApiHandler", () => {
    for (const operation of apiOperations) {
      const source = readFileSync(join(__dirname, '../../../functions', operation.handler, 'handler.ts'), 'utf8');
      const builder = /\b(publicApiHandler|apiHandler)\(/.exec(source)?.[1];
      const expected = operation.auth === 'public' ? 'publicApiHandler' : 'apiHandler';
      expect([operation.handler, builder]).toEqual([operation.handler, expected]);
    }
  });
});
