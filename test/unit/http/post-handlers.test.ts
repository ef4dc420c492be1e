import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiOperations } from '../../../shared/api';
import { createPaymentLink, getPaymentLink } from '../../../shared/api/payment-links';
import { apiHandler } from '../../../shared/http/api';
import { idempotentApiHandler } from '../../../shared/http/idempotent-api';

const noop = async () => ({ status: 200, body: {} });

describe('Function: apiHandler', () => {
  test('a POST built without idempotency fails at its cold start; a read needs none', () => {
    expect(() => apiHandler(createPaymentLink, noop)).toThrow(/idempotentApiHandler/);
    expect(() => idempotentApiHandler(createPaymentLink, noop)).not.toThrow();
    expect(() => apiHandler(getPaymentLink, noop)).not.toThrow();
  });

  test('every POST operation\'s handler is an idempotentApiHandler, and only those', () => {
    for (const operation of apiOperations) {
      const source = readFileSync(join(__dirname, '../../../functions', operation.handler, 'handler.ts'), 'utf8');
      expect([operation.handler, source.includes('idempotentApiHandler(')]).toEqual([operation.handler, operation.method === 'POST']);
    }
  });
});
