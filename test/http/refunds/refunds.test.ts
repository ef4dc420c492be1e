import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { newId } from '../../../shared/ids';
import { client, expectEnvelope } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  // Plenty of balance, so that every refund of this file is funded at once.
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '100000.00', currency: 'eur' } });
});
afterAll(() => stack.stop());

const paid = (options: Parameters<typeof seedPaidPayment>[2] = {}) => seedPaidPayment(stack, merchant, options);
const refund = (paymentId: string, body: unknown = {}, token = merchant.test) =>
  client(stack.baseUrl, token).post(`/v1/payments/${paymentId}/refunds`, body);
const eur = (value: string) => ({ value, currency: 'eur' });

async function refundedTotal(paymentId: string): Promise<number | undefined> {
  const result = await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.payment(paymentId), ConsistentRead: true }));
  return result.Item?.refundedMinor;
}

describe('create: the refund object', () => {
  test('create -> 201 with every field of the refund object, currency lower case; a covered refund is pending with on_hold false', async () => {
    const payment = await paid({ amount: '25.00' });
    const result = await refund(payment.id, {
      amount: eur('10.00'),
      description: 'Damaged parcel',
      webhook_url: 'https://merchant.example/hooks/refunds',
      metadata: { order: 'A-1001' },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      id: expect.stringMatching(/^rf_[0-9a-z]{26}$/),
      object: 'refund',
      payment_id: payment.id,
      org_id: merchant.orgId,
      acceptor_id: merchant.acceptorId,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      mode: 'test',
      status: 'pending',
      on_hold: false,
      description: 'Damaged parcel',
      webhook_url: 'https://merchant.example/hooks/refunds',
      amount: { value: '10.00', currency: 'eur' },
      metadata: { order: 'A-1001' },
      // Live mode only: the acquirer's reference of the refund (product-decisions §12).
      acquirer_reference: null,
      links: {
        api: { href: `${stack.baseUrl}/v1/refunds/${result.body.id}`, type: 'application/json' },
        checkout: { href: `${stack.baseUrl}/checkout/${payment.paymentLinkId}`, type: 'text/html' },
        dashboard: { href: `${stack.baseUrl}/dashboard/refunds/${result.body.id}`, type: 'text/html' },
      },
    });
  });

  test('create: optional fields default to an empty description, no webhook_url and empty metadata', async () => {
    const payment = await paid();
    const result = await refund(payment.id, { amount: eur('1.00') });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ description: '', webhook_url: null, metadata: {} });
  });

  test('create with a live key -> mode live, against the live balance', async () => {
    const payment = await paid({ mode: 'live', amount: '8.00' });
    const result = await refund(payment.id, { amount: eur('8.00') }, merchant.live);
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ mode: 'live', status: 'pending', on_hold: false });
  });

  test('create: amount currency is accepted in any letter case', async () => {
    const payment = await paid();
    expect((await refund(payment.id, { amount: { value: '1.00', currency: 'EUR' } })).status).toBe(201);
  });
});

describe('create: amount rules (product-decisions §6)', () => {
  test('omitted amount -> the whole refundable rest', async () => {
    const payment = await paid({ amount: '12.34' });
    const result = await refund(payment.id);
    expect(result.status).toBe(201);
    expect(result.body.amount).toEqual(eur('12.34'));
  });

  test('omitted amount after a partial refund -> the rest; when nothing is left -> 422 amount.value', async () => {
    const payment = await paid({ amount: '10.00' });
    expect((await refund(payment.id, { amount: eur('3.50') })).status).toBe(201);
    const rest = await refund(payment.id);
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toEqual(eur('6.50'));
    expectEnvelope(await refund(payment.id), 422, 'amount.value');
  });

  test('exactly the refundable rest -> 201; one cent over -> 422 amount.value', async () => {
    const payment = await paid({ amount: '10.00' });
    expect((await refund(payment.id, { amount: eur('4.00') })).status).toBe(201);
    expectEnvelope(await refund(payment.id, { amount: eur('6.01') }), 422, 'amount.value');
    expect((await refund(payment.id, { amount: eur('6.00') })).status).toBe(201);
    expectEnvelope(await refund(payment.id, { amount: eur('0.01') }), 422, 'amount.value');
    expect(await refundedTotal(payment.id)).toBe(1000);
  });

  test('without allow_overcaptured, overcap_pct changes nothing: one cent above the payment -> 422', async () => {
    const payment = await paid({ amount: '10.00' });
    expectEnvelope(await refund(payment.id, { amount: eur('10.01'), overcap_pct: '0.50' }), 422, 'amount.value');
  });

  test('allow_overcaptured with the default overcap_pct 0.20: exactly 120% -> 201; one cent over -> 422', async () => {
    const over = await paid({ amount: '10.00' });
    expectEnvelope(await refund(over.id, { amount: eur('12.01'), allow_overcaptured: true }), 422, 'amount.value');
    const exact = await paid({ amount: '10.00' });
    const result = await refund(exact.id, { amount: eur('12.00'), allow_overcaptured: true });
    expect(result.status).toBe(201);
    expect(result.body.amount).toEqual(eur('12.00'));
  });

  test('allow_overcaptured counts all refunds of the payment together against the ceiling', async () => {
    const payment = await paid({ amount: '10.00' });
    expect((await refund(payment.id, { amount: eur('7.00') })).status).toBe(201);
    expectEnvelope(await refund(payment.id, { amount: eur('5.01'), allow_overcaptured: true }), 422, 'amount.value');
    expect((await refund(payment.id, { amount: eur('5.00'), allow_overcaptured: true })).status).toBe(201);
    // Past the payment amount, a refund without allow_overcaptured has no rest left.
    expectEnvelope(await refund(payment.id, { amount: eur('0.01') }), 422, 'amount.value');
    expectEnvelope(await refund(payment.id), 422, 'amount.value');
    expect(await refundedTotal(payment.id)).toBe(1200);
  });

  test('a custom overcap_pct: exactly the ceiling -> 201; one cent over -> 422', async () => {
    const payment = await paid({ amount: '20.00' });
    expectEnvelope(await refund(payment.id, { amount: eur('25.01'), allow_overcaptured: true, overcap_pct: '0.25' }), 422, 'amount.value');
    expect((await refund(payment.id, { amount: eur('25.00'), allow_overcaptured: true, overcap_pct: '0.25' })).status).toBe(201);
  });

  test('the 15.00 EUR ceiling wins over a large overcap_pct: payment + 15.00 -> 201; one cent over -> 422', async () => {
    const payment = await paid({ amount: '100.00' });
    expectEnvelope(await refund(payment.id, { amount: eur('115.01'), allow_overcaptured: true, overcap_pct: '0.50' }), 422, 'amount.value');
    expect((await refund(payment.id, { amount: eur('115.00'), allow_overcaptured: true, overcap_pct: '0.50' })).status).toBe(201);
  });

  test('only a paid payment can be refunded -> 422 payment_id', async () => {
    for (const status of ['open', 'failed', 'canceled', 'expired'] as const) {
      const payment = await paid({ status });
      expectEnvelope(await refund(payment.id, { amount: eur('1.00') }), 422, 'payment_id');
    }
  });

  test('a payment in another currency than EUR -> 422 amount.currency', async () => {
    const payment = await paid({ currency: 'USD' });
    expectEnvelope(await refund(payment.id), 422, 'amount.currency');
  });

  test('an amount in another currency than eur -> 422 amount.currency', async () => {
    const payment = await paid();
    expectEnvelope(await refund(payment.id, { amount: { value: '1.00', currency: 'usd' } }), 422, 'amount.currency');
  });

  test('amount.value zero -> 422 amount.value; amount without value or currency -> 422', async () => {
    const payment = await paid();
    expectEnvelope(await refund(payment.id, { amount: eur('0.00') }), 422, 'amount.value');
    expectEnvelope(await refund(payment.id, { amount: { currency: 'eur' } }), 422, 'amount.value');
    expectEnvelope(await refund(payment.id, { amount: { value: '1.00' } }), 422, 'amount.currency');
  });

  test('a failed refund gives its amount back to the refundable rest', async () => {
    const payment = await paid({ amount: '10.00' });
    const first = await refund(payment.id);
    expectEnvelope(await refund(payment.id, { amount: eur('0.01') }), 422, 'amount.value');
    expect((await api.post(`/v1/test_helpers/refunds/${first.body.id}/transitions`, { status: 'processing' })).status).toBe(200);
    expect((await api.post(`/v1/test_helpers/refunds/${first.body.id}/transitions`, { status: 'failed' })).status).toBe(200);
    expect(await refundedTotal(payment.id)).toBe(0);
    expect((await refund(payment.id, { amount: eur('10.00') })).status).toBe(201);
  });
});

describe('create: request shape and access', () => {
  test('shape violations -> 400', async () => {
    const payment = await paid();
    const bodies: unknown[] = [
      { amount: eur('1.00'), unknown_field: true },
      { amount: eur('1.234') },
      { amount: eur('-1.00') },
      { amount: { value: 1, currency: 'eur' } },
      { amount: { value: '1.00', currency: 'euro' } },
      { amount: { value: '1.00', currency: 'eur', extra: 1 } },
      { overcap_pct: '20%' },
      { overcap_pct: 0.2 },
      { overcap_pct: '-0.1' },
      { webhook_url: 'not a url' },
      { webhook_url: 'ftp://merchant.example/hook' },
      { metadata: { order: 12 } },
      { metadata: 'order' },
      { allow_overcaptured: 'yes' },
      { description: 5 },
    ];
    for (const body of bodies) expectEnvelope(await refund(payment.id, body), 400);
    expectEnvelope(await refund(payment.id, '{"amount": '), 400);
    expect(await refundedTotal(payment.id)).toBeUndefined();
  });

  test('limits on description and metadata -> 422 with the attribute', async () => {
    const payment = await paid();
    expectEnvelope(await refund(payment.id, { description: 'x'.repeat(501) }), 422, 'description');
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expectEnvelope(await refund(payment.id, { metadata: tooMany }), 422, 'metadata');
    expectEnvelope(await refund(payment.id, { metadata: { ['k'.repeat(41)]: 'v' } }), 422, 'metadata');
    expectEnvelope(await refund(payment.id, { metadata: { k: 'v'.repeat(501) } }), 422, 'metadata');
    expect((await refund(payment.id, { description: 'x'.repeat(500), metadata: { ['k'.repeat(40)]: 'v'.repeat(500) } })).status).toBe(201);
  });

  test('unknown, malformed, foreign and other-mode payment ids -> the same 404', async () => {
    const other = await createMerchant(stack);
    const foreign = await seedPaidPayment(stack, other);
    const live = await paid({ mode: 'live' });
    const bodies = await Promise.all(
      [newId('payment'), 'pay_nope', foreign.id, live.id].map(async (id) => expectEnvelope(await refund(id), 404)),
    );
    expect(new Set(bodies.map((body) => body.detail)).size).toBe(1);
  });

  test('a key without refund:create -> 403; refund:create does not grant refund:read', async () => {
    const payment = await paid();
    const readOnly = await merchant.key({ scopes: ['refund:read'] });
    expectEnvelope(await refund(payment.id, {}, readOnly), 403);
    const createOnly = await merchant.key({ scopes: ['refund:create'] });
    const created = await refund(payment.id, { amount: eur('1.00') }, createOnly);
    expect(created.status).toBe(201);
    expectEnvelope(await client(stack.baseUrl, createOnly).get(`/v1/refunds/${created.body.id}`), 403);
    expectEnvelope(await client(stack.baseUrl, createOnly).get('/v1/refunds'), 403);
  });
});

describe('retrieve', () => {
  test('GET /v1/refunds/:id -> the refund object as created', async () => {
    const payment = await paid();
    const created = await refund(payment.id, { amount: eur('2.00'), metadata: { a: 'b' } });
    const result = await api.get(`/v1/refunds/${created.body.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(created.body);
  });

  test('unknown, malformed, foreign and other-mode refund ids -> the same 404', async () => {
    const payment = await paid();
    const created = await refund(payment.id, { amount: eur('1.00') });
    const other = await createMerchant(stack);
    const responses = [
      await api.get(`/v1/refunds/${newId('refund')}`),
      await api.get('/v1/refunds/rf_bad'),
      await client(stack.baseUrl, other.test).get(`/v1/refunds/${created.body.id}`),
      await client(stack.baseUrl, merchant.live).get(`/v1/refunds/${created.body.id}`),
    ];
    const bodies = responses.map((response) => expectEnvelope(response, 404));
    expect(new Set(bodies.map((body) => body.detail)).size).toBe(1);
  });
});

describe('list (product-decisions §2)', () => {
  let lister: Merchant;
  let ids: string[]; // newest first

  beforeAll(async () => {
    lister = await createMerchant(stack);
    await client(stack.baseUrl, lister.test).post('/v1/test_helpers/balance_adjustments', { amount: eur('100.00') });
    const payment = await seedPaidPayment(stack, lister, { amount: '50.00' });
    ids = [];
    for (let i = 0; i < 5; i++) {
      ids.unshift((await refund(payment.id, { amount: eur('1.00') }, lister.test)).body.id);
    }
  });
  const list = (query = '') => client(stack.baseUrl, lister.test).get(`/v1/refunds${query}`);

  test('list: newest first, {has_more, data} of refund objects', async () => {
    const result = await list();
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(['data', 'has_more']);
    expect(result.body.has_more).toBe(false);
    expect(result.body.data.map((item: { id: string }) => item.id)).toEqual(ids);
    expect(result.body.data[0]).toMatchObject({ object: 'refund', amount: eur('1.00'), mode: 'test' });
  });

  test('list: limit and starting_after page forward; ending_before pages back', async () => {
    const first = await list('?limit=2');
    expect(first.body).toMatchObject({ has_more: true });
    expect(first.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const second = await list(`?limit=2&starting_after=${ids[1]}`);
    expect(second.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(2, 4));
    expect(second.body.has_more).toBe(true);
    const last = await list(`?limit=2&starting_after=${ids[3]}`);
    expect(last.body).toMatchObject({ has_more: false });
    expect(last.body.data.map((item: { id: string }) => item.id)).toEqual([ids[4]]);
    const back = await list(`?limit=2&ending_before=${ids[4]}`);
    expect(back.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(2, 4));
    expect(back.body.has_more).toBe(true);
  });

  test('list: limit 0, 101, abc, 1.5 -> 422 attribute limit', async () => {
    for (const limit of ['0', '101', 'abc', '1.5']) expectEnvelope(await list(`?limit=${limit}`), 422, 'limit');
  });

  test('list: malformed or unknown cursors -> 422 with the cursor attribute; both cursors -> 422 ending_before', async () => {
    expectEnvelope(await list('?starting_after=nope'), 422, 'starting_after');
    expectEnvelope(await list(`?ending_before=${newId('payment')}`), 422, 'ending_before');
    expectEnvelope(await list(`?starting_after=${newId('refund')}`), 422, 'starting_after');
    expectEnvelope(await list(`?starting_after=${ids[0]}&ending_before=${ids[1]}`), 422, 'ending_before');
  });

  test('list: another organization\'s refund is no cursor -> 422', async () => {
    const foreign = (await client(stack.baseUrl, merchant.test).get('/v1/refunds?limit=1')).body.data[0].id;
    expectEnvelope(await list(`?starting_after=${foreign}`), 422, 'starting_after');
  });

  test('list: unknown query parameters -> 400', async () => {
    // `status` filters the list (product-decisions §18); a parameter it does not take is a 400.
    expectEnvelope(await list('?sort=created'), 400, 'sort');
  });

  test('list: a live key sees no test refunds', async () => {
    const result = await client(stack.baseUrl, lister.live).get('/v1/refunds');
    expect(result.body).toEqual({ has_more: false, data: [] });
  });
});
