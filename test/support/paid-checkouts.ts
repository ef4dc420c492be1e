import { eventsFor, outboxEvents } from './events';
import { client, type HttpResult } from './http';
import { createMerchant, type TestStack } from './stack';

/**
 * How long one payer keeps retrying: a payer still losing rounds near its function's deadline
 * is told to retry (503 with Retry-After), and how many rounds it takes depends on the
 * machine's load, so the payer retries until its payment ends, within this bound, never a
 * fixed number of times.
 */
const PAYER_SETTLES_WITHIN_MS = 80_000;

/**
 * API Gateway's own 503: it stopped waiting for an invocation (queued behind the others on a
 * loaded machine) that may still run and commit; that answer is lost to the payer.
 */
const isGatewayTimeout = (result: HttpResult) => result.status === 503 && result.body?.message === 'Service Unavailable';

/**
 * One customer paying on the link, retrying a 503 after its Retry-After as a client should (a
 * retry is a new checkout). Its last answer, and how many answers API Gateway lost on the way.
 */
export async function pay(api: ReturnType<typeof client>, linkId: string): Promise<HttpResult & { lostAnswers: number }> {
  const deadline = Date.now() + PAYER_SETTLES_WITHIN_MS;
  let lostAnswers = 0;
  for (;;) {
    const result = await api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, { outcome: 'paid' });
    if (isGatewayTimeout(result)) lostAnswers++;
    if (result.status !== 503 || Date.now() > deadline) return { ...result, lostAnswers };
    await new Promise((resolve) => setTimeout(resolve, Number(result.headers.get('retry-after') ?? 1) * 1000));
  }
}

/**
 * 200 parallel paid checkouts on a link limited to 25: exactly 25 pay, the others are canceled
 * or denied, nothing is oversold and the outbox tells the same story. Run against the bundles
 * (test/http/artifacts), where each payer's checkout runs in a worker process of its own.
 */
export async function expectTheLimitHoldsUnderConcurrentPayers(stack: TestStack): Promise<void> {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const link = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: 25 })).body;

  const results = await Promise.all(Array.from({ length: 200 }, () => pay(api, link.id)));

  const paid = results.filter((result) => result.status === 201 && result.body.status === 'paid');
  const lost = results.filter((result) => result.status === 201 && result.body.status === 'canceled');
  const denied = results.filter((result) => result.status === 409);
  // Exactly 25 answers say paid, but for answers API Gateway lost (the link's counts below are exact in any case).
  const lostAnswers = results.reduce((sum, result) => sum + result.lostAnswers, 0);
  expect(paid.length).toBeLessThanOrEqual(25);
  expect(paid.length + lostAnswers).toBeGreaterThanOrEqual(25);
  expect(paid.length + lost.length + denied.length).toBe(200);
  expect(results.every((result) => result.status !== 500)).toBe(true);

  const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
  expect(after).toMatchObject({ paid_count: 25, remaining_payments: 0, status: 'inactive' });

  const payments = await api.get(`/v1/payments?status=paid&limit=100`);
  expect(payments.body.data.filter((p: { payment_link_id: string }) => p.payment_link_id === link.id)).toHaveLength(25);

  const events = await outboxEvents(stack, merchant.orgId);
  expect(eventsFor(events, 'transactions.payment_link.remaining_payments.decremented', link.id)).toHaveLength(25);
  expect(eventsFor(events, 'transactions.payment_link.auto_inactivated', link.id)).toHaveLength(1);
  expect(events.filter((event) => event.type === 'transactions.payment.paid')).toHaveLength(25);
  const remaining = eventsFor(events, 'transactions.payment_link.remaining_payments.decremented', link.id)
    .map((event) => event.data.remaining_payments)
    .sort((a, b) => Number(a) - Number(b));
  expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => i));
}

/**
 * Payers race a merchant who caps the link at the count already paid: whatever the payers read
 * before the cap, none may commit after it (decisions §4: a link is never oversold). Each round
 * starts `payers` concurrent paid checkouts on `initialLimit` (null: unlimited), waits until a
 * few are paid, then sets `payments_limit` to the paid count it reads (retried when a payer
 * commits in between, which makes the update a 422 or a stale write) and lets every payer end.
 */
export async function expectACapSetMidFlightHolds(stack: TestStack, options: { initialLimit: number | null; rounds: number; payers: number }): Promise<void> {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  for (let round = 0; round < options.rounds; round++) {
    // Prepare
    const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: options.initialLimit })).body;
    const payers = Promise.all(Array.from({ length: options.payers }, () => pay(api, link.id)));

    // Act
    let cap: number | undefined;
    while (cap === undefined) {
      const { paid_count: paidCount } = (await api.get(`/v1/payment_links/${link.id}`)).body;
      if (paidCount < 3) continue;
      const update = await api.post(`/v1/payment_links/${link.id}`, { payments_limit: paidCount });
      if (update.status === 200 && update.body.payments_limit === paidCount) cap = paidCount;
      else expect([200, 422]).toContain(update.status);
    }
    const results = await payers;

    // Assess
    expect(results.every((result) => result.status !== 500)).toBe(true);
    const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
    expect({ paid_count: after.paid_count, remaining_payments: after.remaining_payments }).toEqual({ paid_count: cap, remaining_payments: 0 });
    const paid = results.filter((result) => result.status === 201 && result.body.status === 'paid');
    const linkPayments = (await api.get(`/v1/payment_links/${link.id}/payments?limit=100`)).body.data;
    expect(linkPayments.filter((payment: { status: string }) => payment.status === 'paid')).toHaveLength(cap!);
    expect(paid.length).toBeLessThanOrEqual(cap!);
  }
}
