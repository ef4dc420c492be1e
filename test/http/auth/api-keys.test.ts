import { createPaymentRepository } from '../../../shared/db/payment-repository';
import { newId } from '../../../shared/ids';
import { isoMillis } from '../../../shared/time';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { requestUntil } from '../../support/wait';

/** product-decisions §3: a change to a key or its creator takes effect within 5 seconds. */
const CHANGE_TAKES_EFFECT_MS = 5_000;

let stack: TestStack;
let merchant: Merchant;
let livePaymentId: string;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  const payments = createPaymentRepository(stack.db, stack.tableName);
  livePaymentId = newId('payment');
  await payments.put({
    id: livePaymentId,
    orgId: merchant.orgId,
    mode: 'live',
    acceptorId: merchant.acceptorId,
    paymentLinkId: newId('paymentLink'),
    status: 'paid',
    amountMinor: 1250,
    currency: 'EUR',
    createdAt: isoMillis(),
    paidAt: isoMillis(),
  });
});
afterAll(() => stack.stop());

const getPayment = (token: string | undefined, id = livePaymentId) => client(stack.baseUrl, token).get(`/v1/payments/${id}`);

describe('authentication and scopes', () => {
  test('a live key with payment:read reads its live payment', async () => {
    const result = await getPayment(merchant.live);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ object: 'payment', id: livePaymentId, amount: { value: '12.50', currency: 'EUR' }, mode: 'live' });
    expect(result.body.links.api.href).toBe(`${stack.baseUrl}/v1/payments/${livePaymentId}`);
  });

  test('the scheme is case-insensitive (RFC 7235): "bearer" works too', async () => {
    const result = await client(stack.baseUrl).get(`/v1/payments/${livePaymentId}`, { authorization: `bearer ${merchant.live}` });
    expect(result.status).toBe(200);
  });

  test('missing, malformed and unknown keys -> 401', async () => {
    expectEnvelope(await getPayment(undefined), 401);
    expectEnvelope(await client(stack.baseUrl).get(`/v1/payments/${livePaymentId}`, { authorization: 'Basic abc' }), 401);
    expectEnvelope(await getPayment('live_' + 'x'.repeat(43)), 401);
  });

  test('a revoked key works during its grace period, then 401', async () => {
    const token = await merchant.key({ mode: 'live' });
    const keyId = await keyIdOf(token);
    // The grace runs from the revocation, which comes after this instant.
    const graceEnds = Date.now() + 3_000;
    await stack.directory.revokeApiKey(keyId, 3);
    const refused = await requestUntil(
      () => getPayment(token),
      (result) => {
        if (result.status !== 401) expect(result.status).toBe(200);
        return result.status === 401;
      },
      'the revoked key refused once its grace period is over',
      { notBefore: graceEnds },
    );
    expectEnvelope(refused, 401);
  });

  test('a key whose creator was demoted -> 401', async () => {
    const user = await stack.directory.createUser(merchant.orgId);
    const token = await merchant.key({ mode: 'live', creatorId: user.userId });
    await stack.directory.updateUser(user.userId, { role: 'demoted' });
    expectEnvelope(await getPayment(token), 401);
  });

  test('a key whose creator lost the organization permission -> 403', async () => {
    const user = await stack.directory.createUser(merchant.orgId);
    const token = await merchant.key({ mode: 'live', creatorId: user.userId });
    await stack.directory.updateUser(user.userId, { orgPermission: false });
    expectEnvelope(await getPayment(token), 403);
  });

  test('a key created by a global admin -> 422 with the fixed detail', async () => {
    const admin = await stack.directory.createUser(merchant.orgId, 'admin');
    const token = await merchant.key({ mode: 'live', creatorId: admin.userId });
    const body = expectEnvelope(await getPayment(token), 422);
    expect(body.detail).toBe('API key configuration is invalid (creator role)');
  });

  test('a key without the scope -> 403', async () => {
    const token = await merchant.key({ mode: 'live', scopes: ['payment_link:read'] });
    expectEnvelope(await getPayment(token), 403);
  });

  test('a change to the creator takes effect within 5 seconds for a key in use', async () => {
    const user = await stack.directory.createUser(merchant.orgId);
    const token = await merchant.key({ mode: 'live', creatorId: user.userId });
    expect((await getPayment(token)).status).toBe(200);
    await stack.directory.updateUser(user.userId, { role: 'demoted' });
    const refused = await requestUntil(() => getPayment(token), (result) => result.status === 401, "the demoted creator's key refused", { by: Date.now() + CHANGE_TAKES_EFFECT_MS });
    expectEnvelope(refused, 401);
  });
});

describe('404: unknown, malformed, foreign organization and other mode look the same', () => {
  test('one identical body for all four', async () => {
    const other = await createMerchant(stack);
    const results = await Promise.all([
      getPayment(merchant.live, newId('payment')),
      getPayment(merchant.live, 'pay_not-an-id'),
      getPayment(other.live, livePaymentId),
      getPayment(merchant.test, livePaymentId),
    ]);
    for (const result of results) expectEnvelope(result, 404);
    expect(new Set(results.map((result) => result.text)).size).toBe(1);
  });
});

async function keyIdOf(token: string): Promise<string> {
  const { hashToken } = await import('../../../shared/auth/tokens');
  const stored = await stack.directory.keyStore.findKeyByTokenHash(hashToken(token));
  return stored!.keyId;
}
