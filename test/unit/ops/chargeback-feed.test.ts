import { DynamoDBClient, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { paymentItem } from '../../../shared/db/payment-repository';
import { newId } from '../../../shared/ids';
import { createServices } from '../../../shared/services';

/**
 * A write the table refuses after validation (no field of a valid file can cause one, so the
 * table's refusal is mocked): the operator learns where the feed stopped and that a re-run is
 * safe, never the SDK's text.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const mock = mockClient(db);
afterEach(() => mock.reset());

const urls = { base: 'http://api', checkout: 'http://api/checkout', dashboard: 'http://api/dashboard', docs: 'http://api/docs' };
const payment = {
  id: newId('payment'),
  orgId: newId('organization'),
  mode: 'live' as const,
  acceptorId: newId('acceptor'),
  paymentLinkId: newId('paymentLink'),
  status: 'paid' as const,
  amountMinor: 5000,
  currency: 'EUR',
  createdAt: '2026-11-21T00:00:00.000Z',
};
const entry = (value: string) => ({ payment_id: payment.id, reason: { code: '4837', description: 'x' }, amount: { value, currency: 'EUR' } });
const SDK_TEXT = 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of 2048 bytes';

test('ingest: a write the table refuses stops the feed with the entry, what was ingested and that a re-run is safe; never the SDK text', async () => {
  // Prepare
  mock.on(GetCommand).resolves({ Item: paymentItem(payment) });
  mock
    .on(TransactWriteCommand)
    .resolvesOnce({})
    .rejects(new DynamoDBServiceException({ name: 'ValidationException', $fault: 'client', $metadata: {}, message: SDK_TEXT }));
  // Act
  const outcome = createServices(db, 'table').chargebacks.ingest({ chargebacks: [entry('1.00'), entry('2.00'), entry('3.00')] }, urls);
  // Assess
  const error: Error = await outcome.then(() => new Error('ingested'), (thrown: Error) => thrown);
  expect(error.message).toMatch(/^Stopped at chargebacks\[1\]: /);
  expect(error.message).toContain('1 entry was ingested before it');
  expect(error.message).toContain('running the file again is safe');
  expect(error.message).not.toMatch(/hashkey|ValidationException|parameter values/);
  expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
});

test('ingest: a read the table fails stops the feed before any write, saying so; never the SDK text', async () => {
  // Prepare
  mock.on(GetCommand).rejects(new DynamoDBServiceException({ name: 'ResourceNotFoundException', $fault: 'client', $metadata: {}, message: 'Cannot do operations on a non-existent table' }));
  // Act
  const outcome = createServices(db, 'table').chargebacks.ingest({ chargebacks: [entry('1.00')] }, urls);
  // Assess
  const error: Error = await outcome.then(() => new Error('ingested'), (thrown: Error) => thrown);
  expect(error.message).toMatch(/^Stopped at chargebacks\[0\]: .*nothing was ingested; running the file again is safe/);
  expect(error.message).not.toMatch(/non-existent|ResourceNotFound/);
  expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
});
