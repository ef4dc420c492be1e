import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { CONFLICT_RETRY_MS } from '../../../shared/db/conditional';
import { paymentItem } from '../../../shared/db/payment-repository';
import { runWithDeadline } from '../../../shared/deadline';
import { DependencyUnavailableError } from '../../../shared/errors';
import { newId } from '../../../shared/ids';
import { createServices } from '../../../shared/services';

/**
 * Concurrent transactions on the same payment or balance conflict (locally through the contention
 * layer, by timing); a mock makes exactly the conflicts these paths need.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const mock = mockClient(db);
afterEach(() => mock.reset());

const principal = { actor: { type: 'api_key' as const, id: 'key_x' }, orgId: newId('organization'), mode: 'test' as const, scopes: [] };
const urls = { base: 'http://api', checkout: 'http://api/checkout', dashboard: 'http://api/dashboard', docs: 'http://api/docs' };
const payment = {
  id: newId('payment'),
  orgId: principal.orgId,
  mode: 'test' as const,
  acceptorId: newId('acceptor'),
  paymentLinkId: newId('paymentLink'),
  status: 'paid' as const,
  amountMinor: 1000,
  currency: 'EUR',
  createdAt: '2026-11-21T00:00:00.000Z',
};
const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
  });

test('create: a transaction conflict is retried, then the refund is created', async () => {
  mock.on(GetCommand).resolves({ Item: paymentItem(payment) });
  mock.on(TransactWriteCommand).rejectsOnce(conflict()).rejectsOnce(conflict()).resolves({});
  const refund = await createServices(db, 'table').refunds.create(principal, payment.id, { amount: { value: '4.00', currency: 'eur' } }, urls);
  expect(refund).toMatchObject({ status: 'pending', onHold: false, amountMinor: 400 });
  expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
});

test('create: conflicts that outlast the retries (CONFLICT_RETRY_MS) -> 503 (DependencyUnavailableError), never a 500', async () => {
  mock.on(GetCommand).resolves({ Item: paymentItem(payment) });
  mock.on(TransactWriteCommand).rejects(conflict());
  jest.useFakeTimers();
  try {
    const creating = expect(createServices(db, 'table').refunds.create(principal, payment.id, {}, urls)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await jest.advanceTimersByTimeAsync(CONFLICT_RETRY_MS + 1_000);
    await creating;
  } finally {
    jest.useRealTimers();
  }
});

test('create: within a request, conflict retries stop 2 s before the invocation deadline -> 503 in time to answer', async () => {
  // Prepare
  mock.on(GetCommand).resolves({ Item: paymentItem(payment) });
  mock.on(TransactWriteCommand).rejects(conflict());
  const deadline = Date.now() + 3_000;

  // Act
  const creating = runWithDeadline(deadline, () => createServices(db, 'table').refunds.create(principal, payment.id, {}, urls));

  // Assess
  await expect(creating).rejects.toBeInstanceOf(DependencyUnavailableError);
  expect(Date.now()).toBeLessThan(deadline);
});
