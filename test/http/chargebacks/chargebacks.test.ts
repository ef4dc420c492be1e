import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import type { Mode } from '../../../shared/auth/principal';
import { readBalance } from '../../../shared/db/balance';
import * as keys from '../../../shared/db/keys';
import { lambdaContext } from '../../../bin/local/invocation';
import { ChargebackListItemSchema, ChargebackSchema } from '../../../shared/domain/chargebacks';
import type { Payment } from '../../../shared/domain/payments';
import { newId } from '../../../shared/ids';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { isoMillis } from '../../../shared/time';
import { configuredUrls } from '../../../shared/config';
import { createServices } from '../../../shared/services';
import { outboxItems } from '../../support/events';
import { storePaidPayment } from '../../support/payments';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;

const WEBHOOK_URL = 'https://merchant.example/payment-hooks';
const PAST = '2020-01-01T00:00:00.000Z';
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
});
afterAll(() => stack.stop());

const paidPayment = (owner: Merchant, overrides: Partial<Payment> = {}) => storePaidPayment(stack, owner, overrides);

const api = (token: string) => client(stack.baseUrl, token);

async function openChargeback(paymentId: string, body: Record<string, unknown> = {}, token = merchant.test) {
  const result = await api(token).post(`/v1/test_helpers/payments/${paymentId}/chargebacks`, body);
  expect(result.status).toBe(201);
  return result.body;
}

const transition = (id: string, status: string, token = merchant.test) =>
  api(token).post(`/v1/test_helpers/chargebacks/${id}/transitions`, { status });

/** Drives a new chargeback into `status` through allowed moves. */
async function chargebackIn(status: string, paymentOwner = merchant) {
  const payment = await paidPayment(paymentOwner);
  const chargeback = await openChargeback(payment.id, {}, paymentOwner.test);
  const path: Record<string, string[]> = { open: [], accepted: ['accepted'], disputed: ['disputed'], won: ['disputed', 'won'], lost: ['disputed', 'lost'] };
  for (const next of path[status]) expect((await transition(chargeback.id, next, paymentOwner.test)).status).toBe(200);
  return chargeback.id as string;
}

async function eventsOf(orgId: string, mode: Mode, chargebackId: string) {
  return (await outboxItems(stack, orgId, mode)).filter((item) => item.envelope.data.id === chargebackId);
}

const balance = (owner: Merchant, mode: Mode = 'test') =>
  readBalance(stack.db, stack.tableName, { orgId: owner.orgId, mode, currency: 'EUR' });

describe('test helper: POST /v1/test_helpers/payments/:id/chargebacks', () => {
  test('create: defaults -> 201 open chargeback of the whole payment, deadline 7 days later, masked account number', async () => {
    const payment = await paidPayment(merchant, { amountMinor: 1999 });
    const chargeback = await openChargeback(payment.id);
    expect(() => ChargebackSchema.parse(chargeback)).not.toThrow();
    expect(chargeback).toMatchObject({
      object: 'chargeback',
      payment_id: payment.id,
      status: 'open',
      amount: { value: '19.99', currency: 'EUR' },
      reason: { code: expect.any(String), description: expect.any(String) },
      acquirer: { name: expect.any(String), reference: expect.any(String), case_id: expect.any(String) },
      consumer_account_number: '4**************1',
      links: {
        api: { href: `${stack.baseUrl}/v1/chargebacks/${chargeback.id}`, type: 'application/json' },
        payment: { href: `${stack.baseUrl}/v1/payments/${payment.id}`, type: 'application/json' },
      },
    });
    expect(chargeback.id).toMatch(/^cb_/);
    expect(Date.parse(chargeback.deadline_at) - Date.parse(chargeback.created_at)).toBe(7 * DAY);
    expect(chargeback.updated_at).toBe(chargeback.created_at);
    expect(chargeback).not.toHaveProperty('dispute');
  });

  test('create: reason, amount (currency in any case) and deadline_at are taken from the body', async () => {
    const payment = await paidPayment(merchant);
    const chargeback = await openChargeback(payment.id, {
      reason: { code: '10.4', description: 'Other fraud, card absent' },
      amount: { value: '5.5', currency: 'eur' },
      deadline_at: '2030-05-01T12:00:00Z',
    });
    expect(chargeback).toMatchObject({
      reason: { code: '10.4', description: 'Other fraud, card absent' },
      amount: { value: '5.50', currency: 'EUR' },
      deadline_at: '2030-05-01T12:00:00.000Z',
    });
  });

  test('create: amount above the payment -> 422 amount.value; other currency -> 422 amount.currency; zero -> 422 amount.value', async () => {
    const payment = await paidPayment(merchant);
    const path = `/v1/test_helpers/payments/${payment.id}/chargebacks`;
    expectEnvelope(await api(merchant.test).post(path, { amount: { value: '25.01', currency: 'EUR' } }), 422, 'amount.value');
    expectEnvelope(await api(merchant.test).post(path, { amount: { value: '1.00', currency: 'USD' } }), 422, 'amount.currency');
    expectEnvelope(await api(merchant.test).post(path, { amount: { value: '0.00', currency: 'EUR' } }), 422, 'amount.value');
  });

  test('create: malformed body -> 400 (unknown field, amount pattern, deadline format, reason type)', async () => {
    const payment = await paidPayment(merchant);
    const path = `/v1/test_helpers/payments/${payment.id}/chargebacks`;
    expectEnvelope(await api(merchant.test).post(path, { webhook_url: 'https://x.example' }), 400);
    expectEnvelope(await api(merchant.test).post(path, { amount: { value: '1.234', currency: 'EUR' } }), 400);
    expectEnvelope(await api(merchant.test).post(path, { deadline_at: 'tomorrow' }), 400);
    expectEnvelope(await api(merchant.test).post(path, { reason: 'fraud' }), 400);
  });

  test('create: a payment that is not paid -> 422 payment_id, nothing written', async () => {
    const payment = await paidPayment(merchant, { status: 'open', paidAt: undefined });
    expectEnvelope(await api(merchant.test).post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, {}), 422, 'payment_id');
    expect((await api(merchant.test).get(`/v1/payments/${payment.id}/chargebacks`)).body.data).toEqual([]);
  });

  test('create: live key -> 404; live payment with a test key -> 404; unknown payment -> 404', async () => {
    const live = await paidPayment(merchant, { mode: 'live' });
    const testPayment = await paidPayment(merchant);
    expectEnvelope(await api(merchant.live).post(`/v1/test_helpers/payments/${live.id}/chargebacks`, {}), 404);
    expectEnvelope(await api(merchant.test).post(`/v1/test_helpers/payments/${live.id}/chargebacks`, {}), 404);
    expectEnvelope(await api(merchant.test).post(`/v1/test_helpers/payments/${newId('payment')}/chargebacks`, {}), 404);
    expectEnvelope(await api(merchant.live).post(`/v1/test_helpers/payments/${testPayment.id}/chargebacks`, {}), 404);
  });
});

describe('state table: POST /v1/test_helpers/chargebacks/:id/transitions', () => {
  test.each([
    ['open', 'accepted'],
    ['open', 'disputed'],
    ['disputed', 'won'],
    ['disputed', 'lost'],
  ])('allowed: %s -> %s gives 200 with the new status', async (from, to) => {
    const id = await chargebackIn(from);
    const result = await transition(id, to);
    expect(result.status).toBe(200);
    expect(() => ChargebackSchema.parse(result.body)).not.toThrow();
    expect(result.body).toMatchObject({ id, status: to });
    expect(Date.parse(result.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(result.body.created_at));
    expect((await api(merchant.test).get(`/v1/chargebacks/${id}`)).body.status).toBe(to);
  });

  test.each([
    ['open', 'won'],
    ['open', 'lost'],
    ['accepted', 'accepted'],
    ['accepted', 'disputed'],
    ['accepted', 'won'],
    ['accepted', 'lost'],
    ['disputed', 'accepted'],
    ['disputed', 'disputed'],
    ['won', 'accepted'],
    ['won', 'disputed'],
    ['won', 'won'],
    ['won', 'lost'],
    ['lost', 'accepted'],
    ['lost', 'disputed'],
    ['lost', 'won'],
    ['lost', 'lost'],
  ])('forbidden: %s -> %s gives 422 attribute status and changes nothing', async (from, to) => {
    const id = await chargebackIn(from);
    expectEnvelope(await transition(id, to), 422, 'status');
    expect((await api(merchant.test).get(`/v1/chargebacks/${id}`)).body.status).toBe(from);
  });

  test('forbidden: accept or dispute after deadline_at -> 422 status', async () => {
    const payment = await paidPayment(merchant);
    const chargeback = await openChargeback(payment.id, { deadline_at: PAST });
    expectEnvelope(await transition(chargeback.id, 'accepted'), 422, 'status');
    expectEnvelope(await transition(chargeback.id, 'disputed'), 422, 'status');
  });

  test('status open or unknown values -> 400; unknown chargeback and live key -> 404', async () => {
    const id = await chargebackIn('open');
    expectEnvelope(await transition(id, 'open'), 400);
    expectEnvelope(await transition(id, 'refunded'), 400);
    expectEnvelope(await transition(newId('chargeback'), 'accepted'), 404);
    expectEnvelope(await transition(id, 'accepted', merchant.live), 404);
  });

  test('dispute: absent while open, present once disputed ({submitted_at, evidence}), kept as submitted once ruled', async () => {
    const id = await chargebackIn('disputed');
    const disputed = (await api(merchant.test).get(`/v1/chargebacks/${id}`)).body;
    expect(disputed.dispute).toEqual({ submitted_at: disputed.updated_at, evidence: {} });
    const won = (await transition(id, 'won')).body;
    expect(won).toMatchObject({ status: 'won', dispute: disputed.dispute });
  });
});

describe('conditional writes', () => {
  test('concurrent rulings on one disputed chargeback: exactly one applies, the other gets 422; the balance moves once', async () => {
    const shop = await createMerchant(stack);
    const id = await chargebackIn('disputed', shop);
    const results = await Promise.all([transition(id, 'won', shop.test), transition(id, 'lost', shop.test)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 422]);
    const final = (await api(shop.test).get(`/v1/chargebacks/${id}`)).body.status;
    expect(final).toBe(results.find((result) => result.status === 200)!.body.status);
    expect(await balance(shop)).toBe(final === 'won' ? 0 : -2500);
    expect((await eventsOf(shop.orgId, 'test', id)).map((event) => event.type)).toEqual([
      'transactions.chargeback.open',
      'transactions.chargeback.disputed',
      `transactions.chargeback.${final}`,
    ]);
  });

  test('a move computed from a stale read is re-checked against the stored status: 422, nothing written', async () => {
    const shop = await createMerchant(stack);
    const id = await chargebackIn('disputed', shop);
    const useCases = createServices(stack.db, stack.tableName).chargebacks;
    const stale = (await useCases.chargebacks.get(id))!;
    expect((await transition(id, 'won', shop.test)).status).toBe(200);
    await expect(useCases.transition(stale, 'lost', configuredUrls())).rejects.toMatchObject({ attribute: 'status' });
    expect((await useCases.chargebacks.get(id))!.status).toBe('won');
    expect(await balance(shop)).toBe(0);
  });

  test('the deadline index entry exists only while the chargeback is open', async () => {
    const id = await chargebackIn('open');
    const item = async () => (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.chargeback(id) }))).Item!;
    expect(await item()).toMatchObject({ DUEPK: keys.chargebackDeadlineDue, DUESK: expect.stringMatching(new RegExp(`#${id}$`)) });
    await transition(id, 'disputed');
    expect(await item()).not.toHaveProperty('DUEPK');
    expect(await item()).not.toHaveProperty('DUESK');
  });
});

describe('deadline: the minute job accept-overdue-chargebacks', () => {
  test('open chargebacks past deadline_at become accepted with their event; others stay as they are', async () => {
    // Flush what earlier tests left overdue, so that the counts below are this test's own.
    await api(merchant.test).post('/v1/test_helpers/jobs/accept-overdue-chargebacks');
    // One payment each: a payment's chargebacks not won stay within its amount (decisions §6).
    const payment = () => paidPayment(merchant, { webhookUrl: WEBHOOK_URL });
    const overdue = await openChargeback((await payment()).id, { deadline_at: PAST });
    const dueNow = await openChargeback((await payment()).id, { deadline_at: isoMillis(Date.now() - 1000) });
    const future = await openChargeback((await payment()).id);

    const run = await api(merchant.test).post('/v1/test_helpers/jobs/accept-overdue-chargebacks');
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ object: 'job_run', name: 'accept-overdue-chargebacks', processed: 2 });

    for (const id of [overdue.id, dueNow.id]) {
      const accepted = (await api(merchant.test).get(`/v1/chargebacks/${id}`)).body;
      expect(accepted.status).toBe('accepted');
      const events = await eventsOf(merchant.orgId, 'test', id);
      expect(events.map((event) => event.type)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
      expect(events[1].targetUrls).toEqual([WEBHOOK_URL]);
    }
    expect((await api(merchant.test).get(`/v1/chargebacks/${future.id}`)).body.status).toBe('open');
    // An accepted chargeback left the sparse index: a second run finds nothing.
    expect((await api(merchant.test).post('/v1/test_helpers/jobs/accept-overdue-chargebacks')).body.processed).toBe(0);
  });

  test('ops job run accept-overdue-chargebacks accepts overdue chargebacks too', async () => {
    const payment = await paidPayment(merchant);
    const overdue = await openChargeback(payment.id, { deadline_at: PAST });
    expect(await runOps(opsCommands(), ['job', 'run', 'accept-overdue-chargebacks'])).toEqual({
      name: 'accept-overdue-chargebacks',
      processed: 1,
    });
    expect((await api(merchant.test).get(`/v1/chargebacks/${overdue.id}`)).body.status).toBe('accepted');
  });
});

describe('GET /v1/chargebacks/:id', () => {
  test('retrieve: the full object, as the helper answered it', async () => {
    const payment = await paidPayment(merchant);
    const created = await openChargeback(payment.id);
    const result = await api(merchant.test).get(`/v1/chargebacks/${created.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(created);
  });

  test('404: unknown, malformed, foreign organization and other mode share one body', async () => {
    const id = await chargebackIn('open');
    const other = await createMerchant(stack);
    const results = await Promise.all([
      api(merchant.test).get(`/v1/chargebacks/${newId('chargeback')}`),
      api(merchant.test).get('/v1/chargebacks/cb_not-an-id'),
      api(other.test).get(`/v1/chargebacks/${id}`),
      api(merchant.live).get(`/v1/chargebacks/${id}`),
    ]);
    for (const result of results) expectEnvelope(result, 404);
    expect(new Set(results.map((result) => result.text)).size).toBe(1);
  });

  test('a key without chargeback:read -> 403 on every chargeback read', async () => {
    const id = await chargebackIn('open');
    const token = await merchant.key({ scopes: ['payment:read', 'refund:read'] });
    expectEnvelope(await api(token).get(`/v1/chargebacks/${id}`), 403);
    expectEnvelope(await api(token).get('/v1/chargebacks'), 403);
  });
});

describe('GET /v1/chargebacks', () => {
  test('list item: exactly the contract fields; acquirer, account number, updated_at, dispute and links.payment absent', async () => {
    const id = await chargebackIn('disputed');
    const { body } = await api(merchant.test).get('/v1/chargebacks?limit=100');
    const item = body.data.find((candidate: { id: string }) => candidate.id === id);
    expect(Object.keys(item).sort()).toEqual(['amount', 'created_at', 'deadline_at', 'id', 'links', 'object', 'payment_id', 'reason', 'status']);
    for (const absent of ['acquirer', 'consumer_account_number', 'updated_at', 'dispute']) expect(item).not.toHaveProperty(absent);
    expect(item.links).not.toHaveProperty('payment');
    expect(item.links).toEqual({ api: { href: `${stack.baseUrl}/v1/chargebacks/${id}`, type: 'application/json' } });
    expect(() => ChargebackListItemSchema.parse(item)).not.toThrow();
    expect(item).toMatchObject({ object: 'chargeback', status: 'disputed', amount: { value: '25.00', currency: 'EUR' } });
  });

  test('acceptor-bound key sees its acceptor only; organization-scoped key sees every acceptor', async () => {
    const shop = await createMerchant(stack);
    const second = await stack.directory.createAcceptor(shop.orgId, 'Second shop');
    const first = await chargebackIn('open', shop);
    const payment = await paidPayment(shop, { acceptorId: second.id });
    const other = (await openChargeback(payment.id, {}, shop.test)).id;

    const bound = await shop.key({ scopes: ['chargeback:read'], acceptorId: shop.acceptorId });
    const ids = async (token: string, query = '') => (await api(token).get(`/v1/chargebacks${query}`)).body.data.map((c: { id: string }) => c.id);
    expect(await ids(bound)).toEqual([first]);
    expect(await ids(await shop.key({ scopes: ['chargeback:read'], acceptorId: second.id }))).toEqual([other]);
    expect(await ids(shop.test)).toEqual([other, first]);
    // A chargeback of another acceptor is no cursor of the bound key's list.
    expectEnvelope(await api(bound).get(`/v1/chargebacks?starting_after=${other}`), 422, 'starting_after');
    // Single reads stay organization-wide.
    expect((await api(bound).get(`/v1/chargebacks/${other}`)).status).toBe(200);
  });

  test('pagination: newest first, both directions, has_more in the direction of travel', async () => {
    const shop = await createMerchant(stack);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push(await chargebackIn('open', shop));
    const [c1, c2, c3, c4, c5] = created;
    const page = async (query: string) => {
      const result = await api(shop.test).get(`/v1/chargebacks?${query}`);
      expect(result.status).toBe(200);
      return { ids: result.body.data.map((c: { id: string }) => c.id), has_more: result.body.has_more };
    };
    expect(await page('')).toEqual({ ids: [c5, c4, c3, c2, c1], has_more: false });
    expect(await page('limit=2')).toEqual({ ids: [c5, c4], has_more: true });
    expect(await page(`limit=2&starting_after=${c4}`)).toEqual({ ids: [c3, c2], has_more: true });
    expect(await page(`limit=2&starting_after=${c2}`)).toEqual({ ids: [c1], has_more: false });
    expect(await page(`limit=2&ending_before=${c1}`)).toEqual({ ids: [c3, c2], has_more: true });
    expect(await page(`limit=2&ending_before=${c3}`)).toEqual({ ids: [c5, c4], has_more: false });
  });

  test.each(['0', '101', 'abc', '1.5'])('list: limit %s -> 422 attribute limit', async (limit) => {
    expectEnvelope(await api(merchant.test).get(`/v1/chargebacks?limit=${limit}`), 422, 'limit');
  });

  test('list: malformed or unknown cursors -> 422 with their attribute; both cursors -> 422 ending_before; unknown parameter -> 400', async () => {
    const id = await chargebackIn('open');
    const list = (query: string) => api(merchant.test).get(`/v1/chargebacks?${query}`);
    expectEnvelope(await list('starting_after=cb_nope'), 422, 'starting_after');
    expectEnvelope(await list('ending_before=pay_nope'), 422, 'ending_before');
    expectEnvelope(await list(`starting_after=${newId('chargeback')}`), 422, 'starting_after');
    expectEnvelope(await list(`ending_before=${newId('chargeback')}`), 422, 'ending_before');
    expectEnvelope(await list(`starting_after=${id}&ending_before=${id}`), 422, 'ending_before');
    expectEnvelope(await list('sort=created'), 400, 'sort');
  });

  test('modes are separate worlds: a live key never lists test chargebacks', async () => {
    const shop = await createMerchant(stack);
    await chargebackIn('open', shop);
    expect((await api(shop.live).get('/v1/chargebacks')).body).toEqual({ has_more: false, data: [] });
  });
});

describe('GET /v1/payments/:id/chargebacks', () => {
  test('every chargeback of that payment, newest first, in list-item shape', async () => {
    const payment = await paidPayment(merchant);
    const first = await openChargeback(payment.id, { amount: { value: '1.00', currency: 'EUR' } });
    const second = await openChargeback(payment.id, { amount: { value: '2.00', currency: 'EUR' } });
    await chargebackIn('open'); // another payment's
    const result = await api(merchant.test).get(`/v1/payments/${payment.id}/chargebacks`);
    expect(result.status).toBe(200);
    expect(result.body.has_more).toBe(false);
    expect(result.body.data.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    for (const item of result.body.data) {
      expect(() => ChargebackListItemSchema.parse(item)).not.toThrow();
      expect(item).not.toHaveProperty('acquirer');
      expect(item.links).not.toHaveProperty('payment');
    }
    const paged = await api(merchant.test).get(`/v1/payments/${payment.id}/chargebacks?limit=1`);
    expect(paged.body).toMatchObject({ has_more: true, data: [{ id: second.id }] });
    const next = await api(merchant.test).get(`/v1/payments/${payment.id}/chargebacks?limit=1&starting_after=${second.id}`);
    expect(next.body).toMatchObject({ has_more: false, data: [{ id: first.id }] });
  });

  test('404: unknown, malformed, foreign and other-mode payment share one body', async () => {
    const payment = await paidPayment(merchant);
    const other = await createMerchant(stack);
    const results = await Promise.all([
      api(merchant.test).get(`/v1/payments/${newId('payment')}/chargebacks`),
      api(merchant.test).get('/v1/payments/nope/chargebacks'),
      api(other.test).get(`/v1/payments/${payment.id}/chargebacks`),
      api(merchant.live).get(`/v1/payments/${payment.id}/chargebacks`),
    ]);
    for (const result of results) expectEnvelope(result, 404);
    expect(new Set(results.map((result) => result.text)).size).toBe(1);
  });

  test('list rules: limit 0 -> 422 limit; unknown parameter -> 400; cursor of another payment -> 422', async () => {
    const payment = await paidPayment(merchant);
    const elsewhere = await chargebackIn('open');
    const path = `/v1/payments/${payment.id}/chargebacks`;
    expectEnvelope(await api(merchant.test).get(`${path}?limit=0`), 422, 'limit');
    expectEnvelope(await api(merchant.test).get(`${path}?status=open`), 400);
    expectEnvelope(await api(merchant.test).get(`${path}?ending_before=${elsewhere}`), 422, 'ending_before');
  });
});

describe('balance', () => {
  test('a chargeback debits the balance (even below zero); won credits it back; accepted and lost keep the debit', async () => {
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { amountMinor: 4000 });
    const path = `/v1/test_helpers/payments/${payment.id}/chargebacks`;
    const won = (await api(shop.test).post(path, { amount: { value: '10.00', currency: 'EUR' } })).body;
    expect(await balance(shop)).toBe(-1000);
    const lost = (await api(shop.test).post(path, { amount: { value: '3.00', currency: 'EUR' } })).body;
    const accepted = (await api(shop.test).post(path, { amount: { value: '2.00', currency: 'EUR' } })).body;
    expect(await balance(shop)).toBe(-1500);
    for (const id of [won.id, lost.id]) await transition(id, 'disputed', shop.test);
    await transition(accepted.id, 'accepted', shop.test);
    await transition(lost.id, 'lost', shop.test);
    expect(await balance(shop)).toBe(-1500);
    await transition(won.id, 'won', shop.test);
    expect(await balance(shop)).toBe(-500);
  });
});

describe('events', () => {
  test('every status emits transactions.chargeback.<status> with the full object, open first, also to the payment webhook_url', async () => {
    const payment = await paidPayment(merchant, { webhookUrl: WEBHOOK_URL });
    const chargeback = await openChargeback(payment.id);
    await transition(chargeback.id, 'disputed');
    const won = (await transition(chargeback.id, 'won')).body;
    const events = await eventsOf(merchant.orgId, 'test', chargeback.id);
    expect(events.map((event) => event.type)).toEqual([
      'transactions.chargeback.open',
      'transactions.chargeback.disputed',
      'transactions.chargeback.won',
    ]);
    for (const event of events) {
      expect(event.targetUrls).toEqual([WEBHOOK_URL]);
      expect(event.envelope).toMatchObject({ object: 'event', mode: 'test', version: '2026-11-21', type: event.type });
      expect(() => ChargebackSchema.parse(event.envelope.data)).not.toThrow();
    }
    expect(events[0].envelope.data).toEqual(chargeback);
    expect(events[2].envelope.data).toEqual(won);
  });

  test('a payment without webhook_url: events go to subscriptions only (no target URLs)', async () => {
    const payment = await paidPayment(merchant);
    const chargeback = await openChargeback(payment.id);
    const [event] = await eventsOf(merchant.orgId, 'test', chargeback.id);
    expect(event.type).toBe('transactions.chargeback.open');
    expect(event).not.toHaveProperty('targetUrls');
  });

  test('a refused move writes no event', async () => {
    const id = await chargebackIn('accepted');
    expectEnvelope(await transition(id, 'disputed'), 422, 'status');
    expect((await eventsOf(merchant.orgId, 'test', id)).map((event) => event.type)).toEqual([
      'transactions.chargeback.open',
      'transactions.chargeback.accepted',
    ]);
  });
});

describe('acquirer feed (live): ops chargeback ingest and the feed function', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chargeback-feed-'));
  });

  async function feedFile(document: unknown): Promise<string> {
    const file = join(dir, `${newId('event')}.json`);
    await writeFile(file, JSON.stringify(document));
    return file;
  }

  const ingest = async (document: unknown) => runOps(opsCommands(), ['chargeback', 'ingest', '--file', await feedFile(document)]);

  test('ingest: live chargebacks with the feed acquirer fields, masked account number, balance debited', async () => {
    const shop = await createMerchant(stack);
    const first = await paidPayment(shop, { mode: 'live', amountMinor: 5000, webhookUrl: WEBHOOK_URL });
    const second = await paidPayment(shop, { mode: 'live', amountMinor: 800 });
    const result = await ingest({
      chargebacks: [
        {
          payment_id: first.id,
          reason: { code: '13.1', description: 'Merchandise not received' },
          amount: { value: '50.00', currency: 'eur' },
          deadline_at: '2031-01-01T00:00:00Z',
          acquirer: { name: 'Acme Acquiring', reference: '74000000000000000000001', case_id: 'CASE-1' },
          consumer_account_number: '5555555555554444',
        },
        { payment_id: second.id, reason: { code: '4837', description: 'No authorization' }, amount: { value: '8.00', currency: 'EUR' } },
      ],
    });
    expect(result).toEqual({ ingested: 2 });
    const list = (await api(shop.live).get('/v1/chargebacks')).body.data;
    expect(list).toHaveLength(2);
    const full = (await api(shop.live).get(`/v1/payments/${first.id}/chargebacks`)).body.data[0];
    const chargeback = (await api(shop.live).get(`/v1/chargebacks/${full.id}`)).body;
    expect(chargeback).toMatchObject({
      status: 'open',
      amount: { value: '50.00', currency: 'EUR' },
      deadline_at: '2031-01-01T00:00:00.000Z',
      acquirer: { name: 'Acme Acquiring', reference: '74000000000000000000001', case_id: 'CASE-1' },
      consumer_account_number: '5**************4',
    });
    expect(await balance(shop, 'live')).toBe(-5800);
    const [event] = await eventsOf(shop.orgId, 'live', full.id);
    expect(event).toMatchObject({ type: 'transactions.chargeback.open', targetUrls: [WEBHOOK_URL] });
    expect(event.envelope.mode).toBe('live');
  });

  test('ingest: a replayed feed records nothing twice when its entries carry the acquirer reference', async () => {
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { mode: 'live', amountMinor: 3000 });
    const document = {
      chargebacks: [
        {
          payment_id: payment.id,
          reason: { code: '10.4', description: 'Fraud' },
          amount: { value: '30.00', currency: 'EUR' },
          acquirer: { name: 'Acme Acquiring', reference: `REF-${payment.id}`, case_id: 'CASE-9' },
        },
      ],
    };
    expect(await ingest(document)).toEqual({ ingested: 1 });
    expect(await ingest(document)).toEqual({ ingested: 0 });
    expect((await api(shop.live).get('/v1/chargebacks')).body.data).toHaveLength(1);
    expect(await balance(shop, 'live')).toBe(-3000);
  });

  test('ingest: an entry that would take the payment past its amount is rejected, the others are ingested (decisions §6)', async () => {
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { mode: 'live', amountMinor: 1000 });
    const entry = (value: string) => ({ payment_id: payment.id, reason: { code: '4837', description: 'x' }, amount: { value, currency: 'EUR' } });
    const result = await ingest({ chargebacks: [entry('6.00'), entry('5.00'), entry('4.00')] });
    expect(result).toEqual({ ingested: 2, rejected: [{ index: 1, payment_id: payment.id, detail: expect.stringContaining('not won') }] });
    expect(await balance(shop, 'live')).toBe(-1000);
  });

  test('ingest: one bad entry refuses the whole file, naming the entry and the field; nothing is written', async () => {
    const shop = await createMerchant(stack);
    const good = await paidPayment(shop, { mode: 'live' });
    const entry = { payment_id: good.id, reason: { code: '4837', description: 'x' }, amount: { value: '1.00', currency: 'EUR' } };
    await expect(ingest({ chargebacks: [entry, { ...entry, amount: { value: '1,00', currency: 'EUR' } }] })).rejects.toThrow(
      /chargebacks\[1\]\.amount\.value/,
    );
    await expect(ingest({ chargebacks: [entry, { ...entry, reason: undefined }] })).rejects.toThrow(/chargebacks\[1\]\.reason/);
    await expect(ingest({ chargebacks: [{ ...entry, extra: 1 }] })).rejects.toThrow(/chargebacks\[0\]\.extra/);
    await expect(ingest({ chargebacks: [entry, { ...entry, amount: { value: '99.00', currency: 'EUR' } }] })).rejects.toThrow(
      /chargebacks\[1\]\.amount\.value/,
    );
    await expect(ingest({ chargebacks: [entry, { ...entry, payment_id: newId('payment') }] })).rejects.toThrow(
      /chargebacks\[1\]\.payment_id.*does not exist/,
    );
    await expect(ingest({ refunds: [] })).rejects.toThrow(/Refused/);
    expect((await api(shop.live).get('/v1/chargebacks')).body.data).toEqual([]);
    expect(await balance(shop, 'live')).toBe(0);
  });

  test('ingest: a field over its bound refuses the whole file before anything is written; the fixed file then ingests each entry once', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const [first, second] = [await paidPayment(shop, { mode: 'live', amountMinor: 5000 }), await paidPayment(shop, { mode: 'live', amountMinor: 5000 })];
    const plain = { payment_id: first.id, reason: { code: '4837', description: 'x' }, amount: { value: '10.00', currency: 'EUR' } };
    const referenced = { payment_id: second.id, reason: { code: '4837', description: 'x' }, amount: { value: '20.00', currency: 'EUR' } };
    const acquirer = { name: 'Acme Acquiring', reference: 'ARN-1', case_id: 'CASE-1' };
    // Act
    const refused = ingest({ chargebacks: [plain, { ...referenced, acquirer: { ...acquirer, name: 'x'.repeat(3000) } }] });
    // Assess
    await expect(refused).rejects.toThrow(/^Refused the whole feed, nothing was ingested: chargebacks\[1\]\.acquirer\.name: /);
    expect((await api(shop.live).get('/v1/chargebacks')).body.data).toEqual([]);
    expect(await balance(shop, 'live')).toBe(0);
    const fixed = { chargebacks: [plain, { ...referenced, acquirer }] };
    expect(await ingest(fixed)).toEqual({ ingested: 2 });
    expect(await ingest(fixed)).toEqual({ ingested: 0 });
    expect((await api(shop.live).get('/v1/chargebacks')).body.data).toHaveLength(2);
    expect(await balance(shop, 'live')).toBe(-3000);
  });

  test('ingest: an entry without an acquirer block is applied once across runs of the file, fixed or extended; identical entries of one file are each applied', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { mode: 'live', amountMinor: 5000 });
    const entry = { payment_id: payment.id, reason: { code: '4837', description: 'x' }, amount: { value: '10.00', currency: 'EUR' } };
    const other = { ...entry, amount: { value: '5.00', currency: 'EUR' } };
    // Act
    const runs = [await ingest({ chargebacks: [entry, entry] }), await ingest({ chargebacks: [entry, entry, other] }), await ingest({ chargebacks: [other, entry, entry] })];
    // Assess
    expect(runs).toEqual([{ ingested: 2 }, { ingested: 1 }, { ingested: 0 }]);
    expect((await api(shop.live).get(`/v1/payments/${payment.id}/chargebacks`)).body.data).toHaveLength(3);
    expect(await balance(shop, 'live')).toBe(-2500);
  });

  test('ingest: an acquirer name and reference never run together: acq#1 / 77 and acq / 1#77 are two chargebacks', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const [first, second] = [await paidPayment(shop, { mode: 'live', amountMinor: 1000 }), await paidPayment(shop, { mode: 'live', amountMinor: 1000 })];
    const entry = (paymentId: string, name: string, reference: string) => ({
      payment_id: paymentId,
      reason: { code: '4837', description: 'x' },
      amount: { value: '1.00', currency: 'EUR' },
      acquirer: { name, reference, case_id: 'CASE' },
    });
    // Act
    const result = await ingest({ chargebacks: [entry(first.id, 'acq#1', '77'), entry(second.id, 'acq', '1#77')] });
    // Assess
    expect(result).toEqual({ ingested: 2 });
    expect(await balance(shop, 'live')).toBe(-200);
  });

  test('ingest: hostile values in any field of an entry are refused with the whole file (nothing written), or ingested; never another error', async () => {
    const shop = await createMerchant(stack);
    const hostile = fc.oneof(
      fc.constantFrom('#', '%23', '\u0000', '\ud800', '\u202e', '__proto__', '<script>', '-1.00', '1e309', '999999999999.99', 'EUR', 'eur', '2026-02-30T00:00:00Z'),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.integer({ min: 1, max: 300 }).map((kilobytes) => 'x'.repeat(kilobytes * 1024)),
      fc.integer({ min: 60, max: 2000 }).map((length) => '€'.repeat(length)),
    );
    const fields = ['payment_id', 'reason.code', 'reason.description', 'amount.value', 'amount.currency', 'deadline_at', 'acquirer.name', 'acquirer.reference', 'acquirer.case_id', 'consumer_account_number'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), hostile, async (field, value) => {
        // Prepare
        const [good, target] = [await paidPayment(shop, { mode: 'live' }), await paidPayment(shop, { mode: 'live' })];
        const entry = (paymentId: string): Record<string, any> => ({
          payment_id: paymentId,
          reason: { code: '4837', description: 'x' },
          amount: { value: '1.00', currency: 'EUR' },
          // Unique to the run, name and reference alike: a hostile reference drawn twice (`#`) in
          // one property must not meet the chargeback an earlier run ingested under it (that one
          // is a duplicate, ingested once: the test above).
          acquirer: { name: `Acme ${paymentId}`, reference: `REF-${paymentId}`, case_id: 'CASE' },
        });
        const hostileEntry = entry(target.id);
        const [outer, inner] = field.split('.');
        if (inner) hostileEntry[outer][inner] = value;
        else hostileEntry[outer] = value;
        // Act
        const outcome = await ingest({ chargebacks: [entry(good.id), hostileEntry] }).then(
          (result) => ({ result }),
          (error: Error) => ({ error: error.message }),
        );
        // Assess
        const written = (await api(shop.live).get(`/v1/payments/${good.id}/chargebacks`)).body.data.length;
        if ('error' in outcome) {
          expect({ field, error: outcome.error.slice(0, 200) }).toEqual({ field, error: expect.stringMatching(/^Refused the whole feed, nothing was ingested: chargebacks\[1\]\./) });
          expect({ field, written }).toEqual({ field, written: 0 });
        } else {
          expect({ field, result: outcome.result }).toEqual({ field, result: { ingested: 2 } });
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  test('ingest: a test payment or an unpaid payment -> refused with payment_id', async () => {
    const shop = await createMerchant(stack);
    const testPayment = await paidPayment(shop);
    const unpaid = await paidPayment(shop, { mode: 'live', status: 'failed', paidAt: undefined });
    const entry = { reason: { code: '4837', description: 'x' }, amount: { value: '1.00', currency: 'EUR' } };
    await expect(ingest({ chargebacks: [{ ...entry, payment_id: testPayment.id }] })).rejects.toThrow(
      /chargebacks\[0\]\.payment_id.*not a live payment/,
    );
    await expect(ingest({ chargebacks: [{ ...entry, payment_id: unpaid.id }] })).rejects.toThrow(/chargebacks\[0\]\.payment_id/);
    expect((await api(shop.test).get('/v1/chargebacks')).body.data).toEqual([]);
  });

  test('the feed function takes the same document as its event and answers {ingested: n}', async () => {
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { mode: 'live' });
    const { handler } = await import('../../../functions/ingest-chargebacks/handler');
    const document = {
      chargebacks: [{ payment_id: payment.id, reason: { code: '4837', description: 'x' }, amount: { value: '1.00', currency: 'EUR' } }],
    };
    expect(await handler(document, lambdaContext('ingest-chargebacks'))).toEqual({ ingested: 1 });
    expect((await api(shop.live).get(`/v1/payments/${payment.id}/chargebacks`)).body.data).toHaveLength(1);
  });

  test('npm run ops -- chargeback ingest prints one JSON object and exits 0; a refused file exits non-zero with the message', async () => {
    const shop = await createMerchant(stack);
    const payment = await paidPayment(shop, { mode: 'live' });
    const entry = { payment_id: payment.id, reason: { code: '4837', description: 'x' }, amount: { value: '1.00', currency: 'EUR' } };
    const env = { ...process.env, TABLE_NAME: stack.tableName };
    const ops = (file: string) => promisify(execFile)('npx', ['tsx', 'bin/ops.ts', 'chargeback', 'ingest', '--file', file], { env });
    const ok = await ops(await feedFile({ chargebacks: [entry] }));
    expect(JSON.parse(ok.stdout)).toEqual({ ingested: 1 });
    await expect(ops(await feedFile({ chargebacks: [{ ...entry, amount: { value: 'x', currency: 'EUR' } }] }))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('chargebacks[0].amount.value'),
    });
  });
});
