import { randomUUID } from 'node:crypto';
import { client, expectEnvelope, postWithRetries } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;

// Correctness under contention, not speed: concurrent writers of one balance retry their rounds.
jest.setTimeout(180_000);

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const eur = (value: string) => ({ value, currency: 'eur' });
const minor = (value: string) => Math.round(Number(value) * 100);

/** A merchant's API, each POST sent as a careful client sends it (its own Idempotency-Key, retried with it). */
async function merchantApi() {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const post = (path: string, body: unknown = {}) => postWithRetries(api, path, body);
  const link = async (amount = '10.00') => (await post('/v1/payment_links', { amount: { value: amount, currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const pay = async (linkId: string) => {
    const paid = await post(`/v1/test_helpers/payment_links/${linkId}/checkout`, { client_key: randomUUID() });
    expect({ status: paid.status, body: paid.body }).toMatchObject({ status: 201 });
    return paid.body;
  };
  /** Every entry of the ledger (pages of 100), newest first. */
  const entries = async (query = '') => {
    const all: any[] = [];
    let cursor = '';
    for (;;) {
      const page = await api.get(`/v1/balance_transactions?limit=100${query}${cursor}`);
      expect(page.status).toBe(200);
      all.push(...page.body.data);
      if (!page.body.has_more) return all;
      cursor = `&starting_after=${all[all.length - 1].id}`;
    }
  };
  /** Until the paid payments' credits are in the balance. */
  const credited = () => creditsRolled(stack, merchant.orgId);
  return { merchant, api, post, link, pay, entries, credited };
}

/** Per currency, the sum of the entries, in minor units. */
function sums(entries: { amount: { value: string; currency: string } }[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const entry of entries) totals[entry.amount.currency] = (totals[entry.amount.currency] ?? 0) + minor(entry.amount.value);
  return totals;
}

const availableOf = (balance: { available: { value: string; currency: string }[] }) =>
  Object.fromEntries(balance.available.map((amount) => [amount.currency, minor(amount.value)]));

describe('the ledger', () => {
  test('each movement is one balance transaction of §15: payment, refund, refund_reversal, chargeback, chargeback_reversal, adjustment', async () => {
    // Prepare
    const { api, post, link, pay, entries, credited } = await merchantApi();
    const payment = await pay((await link('50.00')).id);
    await credited();

    // Act
    const refund = (await post(`/v1/payments/${payment.id}/refunds`, { amount: eur('5.00') })).body;
    await post(`/v1/refunds/${refund.id}/cancel`);
    const chargeback = (await post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { amount: eur('7.50') })).body;
    await post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'disputed' });
    await post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'won' });
    await post('/v1/test_helpers/balance_adjustments', { amount: eur('-1.25') });

    // Assess
    const ledger = await entries();
    expect(ledger.map(({ type, amount, source }) => ({ type, amount, source }))).toEqual([
      { type: 'adjustment', amount: eur('-1.25'), source: null },
      { type: 'chargeback_reversal', amount: eur('7.50'), source: chargeback.id },
      { type: 'chargeback', amount: eur('-7.50'), source: chargeback.id },
      { type: 'refund_reversal', amount: eur('5.00'), source: refund.id },
      { type: 'refund', amount: eur('-5.00'), source: refund.id },
      { type: 'payment', amount: eur('50.00'), source: payment.id },
    ]);
    for (const entry of ledger) {
      expect(entry).toEqual({ id: expect.stringMatching(/^btx_[0-9a-z]{26}$/), object: 'balance_transaction', type: entry.type, amount: entry.amount, source: entry.source, created_at: expect.any(String) });
    }
    expect((await api.get('/v1/balance')).body).toEqual({ object: 'balance', available: [eur('48.75')], on_hold: [] });
  });

  test('available equals the sum of the entries once quiet, under a concurrent mix of payments, refunds held and covered, cancels, failures, chargebacks and adjustments', async () => {
    // Prepare: a negative balance, so that the first refunds wait on hold until payments cover them
    const { api, post, link, pay, entries, credited } = await merchantApi();
    await post('/v1/test_helpers/balance_adjustments', { amount: eur('-25.00') });
    const linkId = (await link('10.00')).id;

    // Act: twelve payers at once, each then refunding, some canceling or failing, some charged back
    const chains = Array.from({ length: 12 }, async (_, index) => {
      const payment = await pay(linkId);
      const refund = await post(`/v1/payments/${payment.id}/refunds`, { amount: eur('4.00') });
      expect(refund.status).toBe(201);
      if (index % 3 === 0) expect((await post(`/v1/refunds/${refund.body.id}/cancel`)).status).toBe(200);
      if (index % 3 === 1) {
        // Only a covered refund may move on; a held one answers 422 and stays held.
        const processing = await post(`/v1/test_helpers/refunds/${refund.body.id}/transitions`, { status: 'processing' });
        if (processing.status === 200) expect((await post(`/v1/test_helpers/refunds/${refund.body.id}/transitions`, { status: 'failed' })).status).toBe(200);
      }
      if (index % 4 === 0) {
        const chargeback = await post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { amount: eur('2.00') });
        if (chargeback.status === 201 && index % 8 === 0) {
          await post(`/v1/test_helpers/chargebacks/${chargeback.body.id}/transitions`, { status: 'disputed' });
          await post(`/v1/test_helpers/chargebacks/${chargeback.body.id}/transitions`, { status: 'won' });
        }
      }
    });
    const adjustments = ['3.00', '-1.50', '0.75'].map((value) => post('/v1/test_helpers/balance_adjustments', { amount: eur(value) }));
    const otherCurrency = post('/v1/test_helpers/balance_adjustments', { amount: { value: '9.99', currency: 'usd' } });
    await Promise.all([...chains, ...adjustments, otherCurrency]);
    await credited();

    // Assess: once quiet, every currency's available amount is the sum of its entries
    const ledger = await entries();
    const balance = (await api.get('/v1/balance')).body;
    expect(availableOf(balance)).toEqual(sums(ledger));
    expect(sums(ledger).usd).toBe(999);
    expect(ledger.filter((entry) => entry.type === 'payment')).toHaveLength(12);
    const refunds = (await api.get('/v1/refunds?limit=100')).body.data;
    const held = refunds.filter((refund: any) => refund.on_hold);
    expect(balance.on_hold).toEqual(held.length ? [{ ...eur((held.length * 4).toFixed(2)), refunds: held.length }] : []);
    // One reservation per covered refund, none for a held one; a give-back per canceled or failed covered one.
    const reserved = ledger.filter((entry) => entry.type === 'refund').map((entry) => entry.source);
    expect(new Set(reserved).size).toBe(reserved.length);
    for (const refund of refunds) {
      const covered = refund.status === 'processing' || refund.status === 'failed' || (refund.status === 'pending' && !refund.on_hold);
      if (covered) expect(reserved).toContain(refund.id);
      if (refund.on_hold) expect(reserved).not.toContain(refund.id);
    }
    expect(ledger.filter((entry) => entry.type === 'refund_reversal')).toHaveLength(
      refunds.filter((refund: any) => ['canceled', 'failed'].includes(refund.status) && ledger.some((entry) => entry.type === 'refund' && entry.source === refund.id)).length,
    );
  });
});

describe('GET /v1/balance_transactions', () => {
  let setup: Awaited<ReturnType<typeof merchantApi>> & { payments: any[]; refund: any };
  beforeAll(async () => {
    const merchant = await merchantApi();
    const linkId = (await merchant.link('20.00')).id;
    const payments = [];
    for (let index = 0; index < 3; index++) payments.push(await merchant.pay(linkId));
    await merchant.credited();
    const refund = (await merchant.post(`/v1/payments/${payments[0].id}/refunds`, { amount: eur('2.00') })).body;
    await merchant.post(`/v1/refunds/${refund.id}/cancel`);
    await merchant.post('/v1/test_helpers/balance_adjustments', { amount: eur('1.00') });
    setup = { ...merchant, payments, refund };
  });

  test('type: only the movements of that type, newest first', async () => {
    const page = (await setup.api.get('/v1/balance_transactions?type=payment')).body;
    expect(page.data.map((entry: any) => entry.source)).toEqual(setup.payments.map((payment) => payment.id).reverse());
    expect(page.has_more).toBe(false);
  });

  test('source: only the movements of that payment, refund or chargeback; with type, both', async () => {
    const ofRefund = (await setup.api.get(`/v1/balance_transactions?source=${setup.refund.id}`)).body.data;
    expect(ofRefund.map((entry: any) => entry.type)).toEqual(['refund_reversal', 'refund']);
    const reversals = (await setup.api.get(`/v1/balance_transactions?source=${setup.refund.id}&type=refund_reversal`)).body.data;
    expect(reversals.map((entry: any) => entry.type)).toEqual(['refund_reversal']);
    expect((await setup.api.get(`/v1/balance_transactions?source=${setup.payments[1].id}&type=refund`)).body).toEqual({ has_more: false, data: [] });
  });

  test('pagination: limit, starting_after and ending_before walk the whole ledger, has_more in the direction of travel', async () => {
    const all = await setup.entries();
    expect(all).toHaveLength(6);
    const first = (await setup.api.get('/v1/balance_transactions?limit=4')).body;
    expect(first).toEqual({ has_more: true, data: all.slice(0, 4) });
    const second = (await setup.api.get(`/v1/balance_transactions?limit=4&starting_after=${all[3].id}`)).body;
    expect(second).toEqual({ has_more: false, data: all.slice(4) });
    const back = (await setup.api.get(`/v1/balance_transactions?limit=2&ending_before=${all[4].id}`)).body;
    expect(back).toEqual({ has_more: true, data: all.slice(2, 4) });
  });

  test('bad list input: limit, malformed cursor, a cursor of another list -> 422; an unknown parameter, type or malformed source -> 400', async () => {
    const all = await setup.entries();
    expectEnvelope(await setup.api.get('/v1/balance_transactions?limit=0'), 422, 'limit');
    expectEnvelope(await setup.api.get('/v1/balance_transactions?starting_after=nope'), 422, 'starting_after');
    const adjustment = all.find((entry) => entry.type === 'adjustment');
    expectEnvelope(await setup.api.get(`/v1/balance_transactions?type=payment&starting_after=${adjustment.id}`), 422, 'starting_after');
    expectEnvelope(await setup.api.get(`/v1/balance_transactions?ending_before=${(await merchantApiEntry()).id}`), 422, 'ending_before');
    expectEnvelope(await setup.api.get('/v1/balance_transactions?sort=asc'), 400);
    expectEnvelope(await setup.api.get('/v1/balance_transactions?type=payout'), 400);
    expectEnvelope(await setup.api.get('/v1/balance_transactions?source=stl_01jd2x3y4z5a6b7c8d9e0f1g2h'), 400);
  });

  test('another organization and the other mode see none of it', async () => {
    const other = await merchantApi();
    expect((await other.api.get('/v1/balance_transactions')).body).toEqual({ has_more: false, data: [] });
    expect((await other.api.get('/v1/balance')).body).toEqual({ object: 'balance', available: [], on_hold: [] });
    const live = client(stack.baseUrl, setup.merchant.live);
    expect((await live.get('/v1/balance_transactions')).body).toEqual({ has_more: false, data: [] });
    expect((await live.get(`/v1/balance_transactions?source=${setup.payments[0].id}`)).body).toEqual({ has_more: false, data: [] });
  });
});

/** An entry of another organization's ledger: a cursor that names no item of this list. */
async function merchantApiEntry() {
  const other = await merchantApi();
  await other.post('/v1/test_helpers/balance_adjustments', { amount: eur('1.00') });
  return (await other.entries())[0];
}

describe('scopes', () => {
  test('a key without balance:read -> 403 on both endpoints; with it alone -> 200', async () => {
    const merchant: Merchant = await createMerchant(stack);
    const without = client(stack.baseUrl, await merchant.key({ scopes: ['payment:read', 'refund:read'] }));
    expectEnvelope(await without.get('/v1/balance'), 403);
    expectEnvelope(await without.get('/v1/balance_transactions'), 403);
    const only = client(stack.baseUrl, await merchant.key({ scopes: ['balance:read'] }));
    expect((await only.get('/v1/balance')).status).toBe(200);
    expect((await only.get('/v1/balance_transactions')).status).toBe(200);
  });
});
