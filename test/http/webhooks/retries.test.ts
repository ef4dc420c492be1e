import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Retries are seconds apart locally (product-decisions §9), whichever functions run: the
 * sources or the synthesized bundles. The stack runs with its default settings (no
 * WEBHOOK_RETRY_SCHEDULE), as `npm start` does.
 */
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ background: true });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
});

/** Well under AWS's first two delays (30 s, then 60 s): only the local schedule meets it. */
const LOCAL_RETRIES_BOUND_MS = 20_000;

test('webhooks: an event answered 500 twice arrives on its third attempt, seconds later, with the default local settings', async () => {
  // Prepare
  const merchant = await createMerchant(stack);
  await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['transactions.payment_link.created'] });
  receiver.failNext(2);

  // Act
  const link = (await client(stack.baseUrl, merchant.test).post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const attempts = () => receiver.requests.filter((request) => request.envelope?.data?.id === link.id);
  await receiver.waitFor(() => attempts().some((request) => request.answeredWith === 200), 'the third attempt of the link event', LOCAL_RETRIES_BOUND_MS);

  // Assess
  expect(attempts().map((request) => request.answeredWith)).toEqual([500, 500, 200]);
  expect(new Set(attempts().map((request) => request.headers['webhook-id'])).size).toBe(1);
}, LOCAL_RETRIES_BOUND_MS + 10_000);
