import { LIMITS } from '../../../shared/limits';
import { seedPaidPayment } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * A page is complete (decisions §2): when DynamoDB stops a Query at 1 MB, the service reads on
 * until the page is full, and `has_more` is true exactly when more items exist.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
const COUNT = 45;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  // Each refund carries the largest metadata allowed (~27 KB): 45 of them pass 1 MB.
  const metadata = Object.fromEntries(
    Array.from({ length: LIMITS.metadata.keys }, (_, i) => [`key-${String(i).padStart(2, '0')}`.padEnd(LIMITS.metadata.keyLength, 'k'), 'v'.repeat(LIMITS.metadata.valueLength)]),
  );
  const payment = await seedPaidPayment(stack, merchant, { amount: '100.00' });
  for (let i = 0; i < COUNT; i++) {
    const answer = await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '0.01', currency: 'eur' }, metadata });
    expect(answer.status).toBe(201);
  }
}, 120_000);
afterAll(() => stack?.stop());

describe('Lists: complete pages past 1 MB', () => {
  test('a page of 100 holds all 45 large refunds and has_more is false', async () => {
    const page = (await api.get('/v1/refunds?limit=100')).body;
    expect({ items: page.data.length, has_more: page.has_more }).toEqual({ items: COUNT, has_more: false });
  });

  test('a page of 40 is full and has_more is true; the next page holds the rest', async () => {
    const first = (await api.get('/v1/refunds?limit=40')).body;
    expect({ items: first.data.length, has_more: first.has_more }).toEqual({ items: 40, has_more: true });
    const rest = (await api.get(`/v1/refunds?limit=40&starting_after=${first.data[39].id}`)).body;
    expect({ items: rest.data.length, has_more: rest.has_more }).toEqual({ items: COUNT - 40, has_more: false });
  });
});
