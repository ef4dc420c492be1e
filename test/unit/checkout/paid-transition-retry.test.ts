import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createCheckoutRepository } from '../../../shared/db/checkout-repository';
import { createPaymentLinkRepository } from '../../../shared/db/payment-link-repository';
import { createPaymentRepository } from '../../../shared/db/payment-repository';
import type { PaymentLink } from '../../../shared/domain/payment-links';
import type { Payment } from '../../../shared/domain/payments';
import { OutrunError } from '../../../shared/errors';
import { newId } from '../../../shared/ids';
import { endCustomerCheckout } from '../../../shared/use-cases/checkout';

/** Transaction conflicts, exactly as many as a test needs, from a mocked client (the contention layer makes them by timing). */
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
const dynamo = mockClient(documentClient);
afterEach(() => {
  dynamo.reset();
  jest.restoreAllMocks();
});

const link: PaymentLink = {
  id: newId('paymentLink'), orgId: 'org_x', mode: 'test', acceptorId: 'acceptor_x', status: 'active', amountMinor: 500, currency: 'EUR',
  description: null, internalReference: null, redirectUrl: null, paymentsLimit: 3, paidCount: 0, firstPaidAt: null, lastPaidAt: null,
  expiresAt: null, expiredAt: null, createdAt: new Date().toISOString(), collectEmail: false, collectAddress: false, collectPhone: false,
};
const payment: Payment = {
  id: newId('payment'), orgId: 'org_x', mode: 'test', acceptorId: 'acceptor_x', paymentLinkId: link.id, status: 'open',
  amountMinor: 500, currency: 'EUR', createdAt: new Date().toISOString(),
};

function deps() {
  return {
    links: createPaymentLinkRepository(documentClient, 'table'),
    checkout: createCheckoutRepository(documentClient, 'table'),
    payments: createPaymentRepository(documentClient, 'table'),
    directory: { getAcceptor: async () => undefined },
    customerEmails: { digest: async (email: string) => `digest of ${email}` },
    urls: { base: 'http://x', checkout: 'http://x/checkout', dashboard: 'http://x/dashboard', docs: 'http://x/docs' },
    now: () => new Date(),
  };
}

const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  });

test('paid transition: TransactionConflict is retried with backoff and then succeeds', async () => {
  dynamo.on(TransactWriteCommand).rejectsOnce(conflict()).rejectsOnce(conflict()).resolves({});
  const paid = await endCustomerCheckout(deps(), { link: { ...link, version: 1 }, payment }, 'paid', {}, Infinity);
  expect(paid.status).toBe('paid');
  expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(3);
  const actions = dynamo.commandCalls(TransactWriteCommand)[2].args[0].input.TransactItems!;
  // The link's condition is its status, limit and counters, never its version.
  expect(actions[0].Update?.ConditionExpression).toBe('#status = :active AND (attribute_type(#expiresAt, :null) OR #expiresAt > :paidAt) AND #paymentsLimit = :readLimit AND #paidCount = :readCount AND attribute_type(#firstPaidAt, :null)');
  // The link, the payment, its ledger entry with the credit pending (§15: no balance item, which
  // every payment of the organization would write), and the two events.
  expect(actions.map((action) => Object.keys(action)[0])).toEqual(['Update', 'Put', 'Put', 'Put', 'Put']);
  expect(actions[2].Put?.Item).toMatchObject({ type: 'payment', amountMinor: 500, source: payment.id, pendingCredit: true });
  expect(actions.some((action) => String(action.Update?.Key?.PK ?? '').startsWith('BAL#'))).toBe(false);
});

test('paid transition: a round refused for a count other payers moved is built again from the link read after the wait, not before it', async () => {
  // Prepare: the payer's round is refused (1 of 3 paid by then); by the end of its wait, 2 are.
  // Its wait is the backoff's longest for a first refusal (5 ms).
  jest.spyOn(Math, 'random').mockReturnValue(0.999);
  const stored = (paidCount: number, version: number) => ({ PK: `PL#${link.id}`, SK: 'PL', ...link, paidCount, firstPaidAt: link.createdAt, version });
  let refusedAt = 0;
  let readAt = 0;
  dynamo
    .on(TransactWriteCommand)
    .callsFakeOnce(() => {
      refusedAt = performance.now();
      throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });
    })
    .resolves({});
  dynamo.on(QueryCommand).callsFake(() => {
    readAt = performance.now();
    return { Items: [stored(2, 3)] };
  });
  // Act
  const paid = await endCustomerCheckout(deps(), { link: { ...link, version: 1 }, payment }, 'paid', {}, Infinity);
  // Assess
  expect(paid.status).toBe('paid');
  const readCounts = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems![0].Update!.ExpressionAttributeValues![':readCount']);
  expect(readCounts).toEqual([0, 2]);
  expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
  expect(readAt - refusedAt).toBeGreaterThanOrEqual(4);
});

test('paid transition: a conflict that never clears loses every round until the deadline -> 503, not a paid payment', async () => {
  dynamo.on(TransactWriteCommand).rejects(conflict());
  // Rounds stop 2 s before the invocation's deadline: this one leaves half a second of rounds.
  await expect(endCustomerCheckout(deps(), { link: { ...link, version: 1 }, payment }, 'paid', {}, Date.now() + 2_500)).rejects.toBeInstanceOf(OutrunError);
  expect(dynamo.commandCalls(TransactWriteCommand).length).toBeGreaterThan(1);
});

test('paid transition: an unlimited link is counted without a paid-count condition, so concurrent payers never collide', async () => {
  const unlimited = { ...link, paymentsLimit: null, paidCount: 7, firstPaidAt: '2026-11-01T00:00:00.000Z' };
  dynamo.on(TransactWriteCommand).resolves({});
  await endCustomerCheckout(deps(), { link: { ...unlimited, version: 4 }, payment }, 'paid', {}, Infinity);
  const update = dynamo.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems![0].Update!;
  // Still unlimited at commit time: a limit set meanwhile sends the payer back to read it.
  expect(update.ConditionExpression).toBe('#status = :active AND (attribute_type(#expiresAt, :null) OR #expiresAt > :paidAt) AND (attribute_not_exists(#paymentsLimit) OR attribute_type(#paymentsLimit, :null))');
  expect(update.UpdateExpression).toBe('SET #paidCount = #paidCount + :one, #version = #version + :one, #lastPaidAt = :paidAt, #firstPaidAt = :firstPaidAt');
});

test('paid transition: an active unlimited link with open shards is counted on one shard of the generation read, its link item not in the transaction', async () => {
  // Prepare
  const shards = { paid: { paidCount: 3, firstPaidAt: null, lastPaidAt: null }, closed: 0, closedAt: null, generation: 7 };
  const unlimited = { ...link, paymentsLimit: null, paidCount: 3, version: 7, shards };
  dynamo.on(TransactWriteCommand).resolves({});
  // Act
  await endCustomerCheckout(deps(), { link: unlimited, payment }, 'paid', {}, Infinity);
  // Assess
  const actions = dynamo.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
  const shard = actions[0].Update!;
  expect(shard.Key).toEqual({ PK: `PL#${link.id}`, SK: expect.stringMatching(/^PAID#(0\d|1[0-5])$/) });
  expect(shard.ConditionExpression).toBe('attribute_not_exists(#closedAt) AND #generation = :generation');
  expect(shard.ExpressionAttributeValues![':generation']).toBe(7);
  expect(actions.some((action) => (action.Update?.Key ?? action.Put?.Item)?.SK === 'PL')).toBe(false);
  // Its credit names the link, whose listed count the outbox processor refreshes with the roll.
  expect(actions[2].Put?.Item).toMatchObject({ type: 'payment', pendingCredit: true, shardedLinkId: link.id });
});
