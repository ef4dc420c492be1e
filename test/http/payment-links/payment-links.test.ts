import { newId } from '../../../shared/ids';
import { eventsFor, outboxEvents } from '../../support/events';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack.stop());

const create = (body: Record<string, unknown> = {}, token = merchant.test) =>
  client(stack.baseUrl, token).post('/v1/payment_links', {
    amount: { value: '10.00', currency: 'EUR' },
    acceptor_id: merchant.acceptorId,
    ...body,
  });

const pay = (linkId: string, outcome = 'paid') => api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, { outcome });

describe('create', () => {
  test('create: 201 with every field of the payment_link object and the created event', async () => {
    const result = await create({
      amount: { value: '12.5', currency: 'eur' },
      description: 'Concert ticket',
      payments_limit: 3,
      internal_reference: 'INV-7',
      redirect_url: 'https://shop.example/thanks',
      expires_at: '2030-01-01T10:00:00+02:00',
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      id: expect.stringMatching(/^pl_[0-9a-z]{26}$/),
      object: 'payment_link',
      status: 'active',
      amount: { value: 12.5, currency: 'EUR' },
      description: 'Concert ticket',
      internal_reference: 'INV-7',
      redirect_url: 'https://shop.example/thanks',
      payments_limit: 3,
      remaining_payments: 3,
      paid_count: 0,
      first_paid_at: null,
      last_paid_at: null,
      expires_at: '2030-01-01T08:00:00.000Z',
      expired_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      acceptor_id: merchant.acceptorId,
      org_id: merchant.orgId,
      links: { checkout: { href: `${stack.baseUrl}/checkout/${result.body.id}`, type: 'text/html' } },
    });
    const created = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.created', result.body.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ object: 'event', version: '2026-11-21', mode: 'test', data: result.body });
  });

  test('create: defaults are null, unlimited, no expiry; write-only collect flags are not returned', async () => {
    const result = await create({ collect_email: true, collect_address: true, collect_phone: false });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ description: null, internal_reference: null, redirect_url: null, payments_limit: null, remaining_payments: null, expires_at: null });
    expect(result.body).not.toHaveProperty('collect_email');
  });

  test('create: a repeated POST creates a second link (not idempotent)', async () => {
    const [a, b] = [await create(), await create()];
    expect(a.body.id).not.toBe(b.body.id);
  });

  test('create: an acceptor-bound key defaults to its acceptor and may name another of its organization', async () => {
    const second = await stack.directory.createAcceptor(merchant.orgId, 'Second shop');
    const bound = await merchant.key({ acceptorId: merchant.acceptorId });
    const defaulted = await client(stack.baseUrl, bound).post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' } });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.acceptor_id).toBe(merchant.acceptorId);
    const other = await create({ acceptor_id: second.id }, bound);
    expect(other.body.acceptor_id).toBe(second.id);
  });

  test.each([
    ['amount.value pattern mismatch', { amount: { value: '10.123', currency: 'EUR' } }],
    ['amount.value not a decimal', { amount: { value: 'ten', currency: 'EUR' } }],
    ['amount.value given as a number', { amount: { value: 10, currency: 'EUR' } }],
    ['currency not three letters', { amount: { value: '10.00', currency: 'EURO' } }],
    ['currency no ISO 4217 code', { amount: { value: '10.00', currency: 'XYZ' } }],
    ['unknown field webhook_url', { webhook_url: 'https://example.com/hook' }],
    ['expires_at not a datetime', { expires_at: 'tomorrow' }],
    ['redirect_url not a URL', { redirect_url: 'not a url' }],
    ['description over 500 characters', { description: 'x'.repeat(501) }],
    ['internal_reference over 255 characters', { internal_reference: 'x'.repeat(256) }],
    ['payments_limit not an integer', { payments_limit: 1.5 }],
    ['payments_limit a string', { payments_limit: '3' }],
    ['collect_email not a boolean', { collect_email: 'yes' }],
  ])('create: %s -> 400', async (_name, body) => {
    expectEnvelope(await create(body), 400);
  });

  test('create: malformed JSON -> 400', async () => {
    expectEnvelope(await api.call('POST', '/v1/payment_links', '{"amount":'), 400);
  });

  test.each([
    ['amount missing', { amount: undefined }, 'amount.value'],
    ['amount.value missing', { amount: { currency: 'EUR' } }, 'amount.value'],
    ['amount.value zero', { amount: { value: '0.00', currency: 'EUR' } }, 'amount.value'],
    ['payments_limit 0', { payments_limit: 0 }, 'payments_limit'],
    ['acceptor_id of another organization', { acceptor_id: 'acceptor_01m81d2kvh5ytr9zvhpjwcp5w7' }, 'acceptor_id'],
    ['acceptor_id missing for an organization-scoped key', { acceptor_id: undefined }, 'acceptor_id'],
  ])('create: %s -> 422', async (_name, body, attribute) => {
    expectEnvelope(await create(body), 422, attribute);
  });

  test('create: scope payment_link:create is required and not implied by the others', async () => {
    const token = await merchant.key({ scopes: ['payment_link:read', 'payment_link:update'] });
    expectEnvelope(await create({}, token), 403);
  });
});

describe('create: datetimes a link can hold (issue 25)', () => {
  test.each([
    ['past year 9999 in UTC', '9999-12-31T23:59:59-23:59'],
    ['before year 0000 in UTC', '0000-01-01T00:00:00+00:01'],
    ['a day February does not have', '2027-02-30T10:00:00Z'],
    ['February 29 of a common year', '2027-02-29T10:00:00Z'],
    ['a day April does not have', '2027-04-31T10:00:00Z'],
    ['month 13', '2027-13-01T10:00:00Z'],
    ['hour 24', '2027-01-01T24:00:00Z'],
    ['minute 60', '2027-01-01T10:60:00Z'],
    ['a leap second', '2027-06-30T23:59:60Z'],
    ['an offset of 24 hours', '2027-01-01T10:00:00+24:00'],
  ])('create and update: expires_at %s (%s) -> 400 expires_at, nothing stored', async (_name, expiresAt) => {
    expectEnvelope(await create({ expires_at: expiresAt }), 400, 'expires_at');
    const link = (await create()).body;
    expectEnvelope(await api.post(`/v1/payment_links/${link.id}`, { expires_at: expiresAt }), 400, 'expires_at');
    expect((await api.get(`/v1/payment_links/${link.id}`)).body.expires_at).toBeNull();
  });

  test.each([
    ['the last millisecond of year 9999 in UTC', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['year 9999 reached through an offset', '9999-12-31T23:59:59+01:00', '9999-12-31T22:59:59.000Z'],
    ['February 29 of a leap year', '2028-02-29T10:00:00+02:00', '2028-02-29T08:00:00.000Z'],
  ])('create: expires_at %s -> 201, stored as given in UTC', async (_name, expiresAt, stored) => {
    const created = await create({ expires_at: expiresAt });
    expect(created.status).toBe(201);
    expect(created.body.expires_at).toBe(stored);
  });

  test('a chargeback deadline_at (the same datetime input) out of range -> 400', async () => {
    const link = (await create()).body;
    const payment = (await pay(link.id)).body;
    expectEnvelope(await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { deadline_at: '9999-12-31T23:59:59-23:59' }), 400, 'deadline_at');
    expectEnvelope(await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { deadline_at: '2027-02-30T00:00:00Z' }), 400, 'deadline_at');
  });
});

describe('create: currencies (product-decisions §4, revised 2026-11-25)', () => {
  test.each(['XYZ', 'EU', 'EURO', '€', 'E1R', 'ABC'])('create: currency %j is no ISO 4217 code -> 400 amount.currency', async (currency) => {
    expectEnvelope(await create({ amount: { value: '10.00', currency } }), 400, 'amount.currency');
  });

  test.each([
    ['eur', '49.90', 49.9, 'EUR'],
    ['jpy', '1000', 1000, 'JPY'],
    ['JPY', '1000.00', 1000, 'JPY'],
    ['Kwd', '1.5', 1.5, 'KWD'],
    ['clf', '0.25', 0.25, 'CLF'],
  ])('create: currency %j with %j -> 201, currency returned upper case', async (currency, value, number, returned) => {
    const created = await create({ amount: { value, currency } });
    expect(created.status).toBe(201);
    expect(created.body.amount).toEqual({ value: number, currency: returned });
  });

  test.each([
    ['JPY', '1000.50'],
    ['JPY', '1000.5'],
    ['jpy', '0.01'],
    ['ISK', '10.10'],
  ])('create: %s has no minor unit: %j -> 422 amount.value', async (currency, value) => {
    expectEnvelope(await create({ amount: { value, currency } }), 422, 'amount.value');
  });

  test('a payment of a JPY link keeps the contract forms: number on the link, two-digit string on the payment', async () => {
    const link = (await create({ amount: { value: '1000', currency: 'jpy' } })).body;
    const payment = (await pay(link.id)).body;
    expect(link.amount).toEqual({ value: 1000, currency: 'JPY' });
    expect(payment.amount).toEqual({ value: '1000.00', currency: 'JPY' });
  });

  test('the same currency rules for a chargeback and a balance adjustment: no ISO code -> 400, a fraction the currency lacks -> 422', async () => {
    const link = (await create({ amount: { value: '1000', currency: 'JPY' } })).body;
    const payment = (await pay(link.id)).body;
    const chargeback = (amount: unknown) => api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { amount });
    expectEnvelope(await chargeback({ value: '10.00', currency: 'XYZ' }), 400, 'amount.currency');
    expectEnvelope(await chargeback({ value: '10.50', currency: 'JPY' }), 422, 'amount.value');
    const adjust = (amount: unknown) => api.post('/v1/test_helpers/balance_adjustments', { amount });
    expectEnvelope(await adjust({ value: '10.00', currency: 'xyz' }), 400, 'amount.currency');
    expectEnvelope(await adjust({ value: '-0.50', currency: 'isk' }), 422, 'amount.value');
    expect((await adjust({ value: '-500', currency: 'isk' })).body).toEqual({ object: 'balance', available: { value: '-500.00', currency: 'isk' } });
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '1.00', currency: 'xyz' } }), 400, 'amount.currency');
  });
});

describe('retrieve', () => {
  test('retrieve: 200 with the object', async () => {
    const link = (await create()).body;
    const result = await api.get(`/v1/payment_links/${link.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(link);
  });

  test('retrieve: unknown, malformed, foreign-organization and other-mode ids -> one identical 404', async () => {
    const link = (await create()).body;
    const other = await createMerchant(stack);
    const results = await Promise.all([
      api.get(`/v1/payment_links/${newId('paymentLink')}`),
      api.get('/v1/payment_links/pl_malformed'),
      client(stack.baseUrl, other.test).get(`/v1/payment_links/${link.id}`),
      client(stack.baseUrl, merchant.live).get(`/v1/payment_links/${link.id}`),
    ]);
    for (const result of results) expectEnvelope(result, 404);
    expect(new Set(results.map((result) => result.text)).size).toBe(1);
  });

  test('retrieve: needs payment_link:read', async () => {
    const link = (await create()).body;
    const token = await merchant.key({ scopes: ['payment_link:create'] });
    expectEnvelope(await client(stack.baseUrl, token).get(`/v1/payment_links/${link.id}`), 403);
  });
});

describe('update', () => {
  const update = (id: string, body: unknown) => api.post(`/v1/payment_links/${id}`, body);

  test('update: partial; omitted fields kept; properties.changed fires', async () => {
    const link = (await create({ description: 'Old', internal_reference: 'REF', redirect_url: 'https://shop.example/r' })).body;
    const result = await update(link.id, { description: 'New' });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ description: 'New', internal_reference: 'REF', redirect_url: 'https://shop.example/r' });
    const changed = eventsFor(await outboxEvents(stack, merchant.orgId), 'transactions.payment_link.properties.changed', link.id);
    expect(changed).toHaveLength(1);
    expect(changed[0].data).toMatchObject({ description: 'New' });
  });

  test('update: description "" blanks it, null keeps it', async () => {
    const link = (await create({ description: 'Text' })).body;
    expect((await update(link.id, { description: null })).body.description).toBe('Text');
    expect((await update(link.id, { description: '' })).body.description).toBe('');
  });

  test('update: internal_reference null clears only it; redirect_url untouched', async () => {
    const link = (await create({ internal_reference: 'REF', redirect_url: 'https://shop.example/r' })).body;
    const result = await update(link.id, { internal_reference: null });
    expect(result.body).toMatchObject({ internal_reference: null, redirect_url: 'https://shop.example/r' });
  });

  test('update: empty body -> 422', async () => {
    const link = (await create()).body;
    expectEnvelope(await update(link.id, {}), 422);
  });

  test.each([
    ['status expired', { status: 'expired' }],
    ['status unknown', { status: 'paused' }],
    ['immutable amount', { amount: { value: '1.00', currency: 'EUR' } }],
    ['immutable acceptor_id', { acceptor_id: 'acceptor_x' }],
    ['immutable redirect_url', { redirect_url: 'https://example.com' }],
    ['immutable collect_email', { collect_email: true }],
    ['immutable collect_address', { collect_address: true }],
    ['immutable collect_phone', { collect_phone: true }],
    ['expires_at not a datetime', { expires_at: '2030-13-45' }],
    ['payments_limit wrong type', { payments_limit: 'many' }],
  ])('update: %s -> 400', async (_name, body) => {
    const link = (await create()).body;
    expectEnvelope(await update(link.id, body), 400);
  });

  test('update: payments_limit below paid_count -> 422 with the exact detail; equal is allowed and denies checkout', async () => {
    const link = (await create({ payments_limit: 5 })).body;
    await pay(link.id);
    await pay(link.id);
    const below = expectEnvelope(await update(link.id, { payments_limit: 1 }), 422, 'payments_limit');
    expect(below.detail).toBe('payments_limit cannot be set below the count of payments already completed');
    const equal = await update(link.id, { payments_limit: 2 });
    expect(equal.body).toMatchObject({ status: 'active', payments_limit: 2, paid_count: 2, remaining_payments: 0 });
    const denied = expectEnvelope(await pay(link.id), 409);
    expect(denied.reason).toBe('limit_reached');
  });

  test('update: raising or clearing payments_limit recomputes remaining_payments', async () => {
    const link = (await create({ payments_limit: 1 })).body;
    expect((await update(link.id, { payments_limit: 4 })).body.remaining_payments).toBe(4);
    expect((await update(link.id, { payments_limit: null })).body).toMatchObject({ payments_limit: null, remaining_payments: null });
    expectEnvelope(await update(link.id, { payments_limit: 0 }), 422, 'payments_limit');
  });

  test('update: inactive masks expires_at, reactivation shows it again', async () => {
    const link = (await create({ expires_at: '2031-05-01T00:00:00Z' })).body;
    const inactive = await update(link.id, { status: 'inactive' });
    expect(inactive.body).toMatchObject({ status: 'inactive', expires_at: null });
    const active = await update(link.id, { status: 'active' });
    expect(active.body).toMatchObject({ status: 'active', expires_at: '2031-05-01T00:00:00.000Z' });
  });

  test('update: expires_at null clears the expiry', async () => {
    const link = (await create({ expires_at: '2031-05-01T00:00:00Z' })).body;
    expect((await update(link.id, { expires_at: null })).body.expires_at).toBeNull();
  });

  test('update: status of an expired link -> 422 "Status cannot be changed once expired"', async () => {
    const link = (await create({ expires_at: '2020-01-01T00:00:00Z' })).body;
    await api.post('/v1/test_helpers/jobs/expire-payment-links');
    const body = expectEnvelope(await update(link.id, { status: 'active' }), 422, 'status');
    expect(body.detail).toBe('Status cannot be changed once expired');
  });

  test('update: unknown, foreign and other-mode ids -> 404; needs payment_link:update', async () => {
    const link = (await create()).body;
    expectEnvelope(await update(newId('paymentLink'), { description: 'x' }), 404);
    expectEnvelope(await client(stack.baseUrl, merchant.live).post(`/v1/payment_links/${link.id}`, { description: 'x' }), 404);
    const token = await merchant.key({ scopes: ['payment_link:read', 'payment_link:create'] });
    expectEnvelope(await client(stack.baseUrl, token).post(`/v1/payment_links/${link.id}`, { description: 'x' }), 403);
  });
});

describe('list', () => {
  let org: Merchant;
  let orgApi: ReturnType<typeof client>;
  const ids: string[] = [];

  beforeAll(async () => {
    org = await createMerchant(stack);
    orgApi = client(stack.baseUrl, org.test);
    for (let i = 0; i < 13; i++) {
      const created = await orgApi.post('/v1/payment_links', { amount: { value: `${i + 1}.00`, currency: 'EUR' }, acceptor_id: org.acceptorId });
      ids.unshift(created.body.id);
    }
    await orgApi.post(`/v1/payment_links/${ids[1]}`, { status: 'inactive' });
  });

  test('list: organization-wide, newest first, default limit 10, {object, data, has_more}', async () => {
    const result = await orgApi.get('/v1/payment_links');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(['data', 'has_more', 'object']);
    expect(result.body.object).toBe('list');
    expect(result.body.data.map((link: { id: string }) => link.id)).toEqual(ids.slice(0, 10));
    expect(result.body.has_more).toBe(true);
  });

  test('list: starting_after pages forward to the end', async () => {
    const next = await orgApi.get(`/v1/payment_links?limit=10&starting_after=${ids[9]}`);
    expect(next.body.data.map((link: { id: string }) => link.id)).toEqual(ids.slice(10));
    expect(next.body.has_more).toBe(false);
  });

  test('list: status filter', async () => {
    const inactive = await orgApi.get('/v1/payment_links?status=inactive');
    expect(inactive.body.data.map((link: { id: string }) => link.id)).toEqual([ids[1]]);
    const active = await orgApi.get('/v1/payment_links?status=active&limit=100');
    expect(active.body.data).toHaveLength(12);
  });

  test('list: a test key never sees live links', async () => {
    const live = await client(stack.baseUrl, org.live).get('/v1/payment_links');
    expect(live.body.data).toEqual([]);
  });

  test.each(['0', '101', 'abc', '1.5', '-1'])('list: limit=%s -> 422 attribute limit', async (limit) => {
    expectEnvelope(await orgApi.get(`/v1/payment_links?limit=${limit}`), 422, 'limit');
  });

  test('list: malformed starting_after -> 422; one naming no link of this list -> 422', async () => {
    expectEnvelope(await orgApi.get('/v1/payment_links?starting_after=nope'), 422, 'starting_after');
    expectEnvelope(await orgApi.get(`/v1/payment_links?starting_after=${newId('paymentLink')}`), 422, 'starting_after');
  });

  test('list: ending_before, unknown query fields and a bad status filter -> 400', async () => {
    expectEnvelope(await orgApi.get(`/v1/payment_links?ending_before=${ids[3]}`), 400);
    expectEnvelope(await orgApi.get('/v1/payment_links?color=blue'), 400);
    expectEnvelope(await orgApi.get('/v1/payment_links?status=paused'), 400);
  });
});

describe('payments of a link', () => {
  test('list payments: newest first, minimal payment shape, has_more, forward cursor', async () => {
    const link = (await create()).body;
    const paid = [(await pay(link.id)).body, (await pay(link.id, 'failed')).body, (await pay(link.id)).body].reverse();
    const result = await api.get(`/v1/payment_links/${link.id}/payments?limit=2`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ object: 'list', has_more: true });
    expect(result.body.data[0]).toEqual({
      object: 'payment',
      id: paid[0].id,
      status: 'paid',
      amount: { value: '10.00', currency: 'EUR' },
      created_at: paid[0].created_at,
      paid_at: paid[0].paid_at,
      payment_link_id: link.id,
    });
    expect(result.body.data[1]).toMatchObject({ id: paid[1].id, status: 'failed', paid_at: null });
    const rest = await api.get(`/v1/payment_links/${link.id}/payments?limit=2&starting_after=${paid[1].id}`);
    expect(rest.body.data.map((p: { id: string }) => p.id)).toEqual([paid[2].id]);
    expect(rest.body.has_more).toBe(false);
  });

  test('list payments: no payment scope needed; status filter and ending_before -> 400; unknown link -> 404', async () => {
    const link = (await create()).body;
    const token = await merchant.key({ scopes: ['payment_link:read'] });
    expect((await client(stack.baseUrl, token).get(`/v1/payment_links/${link.id}/payments`)).status).toBe(200);
    expectEnvelope(await api.get(`/v1/payment_links/${link.id}/payments?status=paid`), 400);
    expectEnvelope(await api.get(`/v1/payment_links/${link.id}/payments?ending_before=${newId('payment')}`), 400);
    expectEnvelope(await api.get(`/v1/payment_links/${newId('paymentLink')}/payments`), 404);
    expectEnvelope(await client(stack.baseUrl, merchant.live).get(`/v1/payment_links/${link.id}/payments`), 404);
  });
});

describe('edge input', () => {
  test('create: an amount beyond the representable range -> 422 amount.value, never 500', async () => {
    expectEnvelope(await create({ amount: { value: '100000000000000000', currency: 'EUR' } }), 422, 'amount.value');
  });

  test('retrieve: a path id with broken percent-encoding -> 404, never 500', async () => {
    expectEnvelope(await api.get('/v1/payment_links/%E0%A4%A'), 404);
  });

  test('list: a cursor outside the status-filtered list -> 422', async () => {
    const inactive = (await create()).body;
    await api.post(`/v1/payment_links/${inactive.id}`, { status: 'inactive' });
    expectEnvelope(await api.get(`/v1/payment_links?status=active&starting_after=${inactive.id}`), 422, 'starting_after');
    expect((await api.get(`/v1/payment_links?status=inactive&starting_after=${inactive.id}`)).status).toBe(200);
  });
});
