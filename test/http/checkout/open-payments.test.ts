import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { openPaymentShard } from '../../../shared/db/entities';
import { stripKeys } from '../../../shared/db/entity';
import * as keys from '../../../shared/db/keys';
import { paymentItem } from '../../../shared/db/payment-repository';
import { OPEN_PAYMENT_IDLE_MS, type Payment } from '../../../shared/domain/payments';
import { LIMITS } from '../../../shared/limits';
import { lambdaContext } from '../../../bin/local/invocation';
import { isoMillis } from '../../../shared/time';
import { eventsFor, outboxEvents } from '../../support/events';
import { testInProcess } from '../../support/mode';
import { inOneWindow } from '../../support/rate-windows';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * Anonymous checkout visits write within bounds (product-decisions §4): a HEAD or a request
 * that does not take HTML opens nothing, new open payments per link are bounded, and an open
 * payment with no activity for 30 minutes expires.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack.stop());

const createLink = async (body: Record<string, unknown> = {}) =>
  (await api.post('/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...body })).body;
const pageOf = (linkId: string, init: RequestInit = {}) => fetch(`${stack.baseUrl}/checkout/${linkId}`, init);
const paymentIdIn = (html: string) => /name="payment_id" value="([^"]+)"/.exec(html)?.[1];
/** Every payment of the link, page by page. */
async function paymentsOf(linkId: string) {
  const payments: { id: string; status: string }[] = [];
  for (let more = true; more; ) {
    const after = payments.length ? `&starting_after=${payments[payments.length - 1].id}` : '';
    const page = (await api.get(`/v1/payment_links/${linkId}/payments?limit=100${after}`)).body;
    payments.push(...page.data);
    more = page.has_more;
  }
  return payments;
}
const events = () => outboxEvents(stack, merchant.orgId);

/** A customer opening the checkout: their payment and the cookie that names them. */
async function openAsCustomer(linkId: string) {
  const response = await pageOf(linkId);
  expect(response.status).toBe(200);
  return { paymentId: paymentIdIn(await response.text())!, cookie: response.headers.get('set-cookie')!.split(';')[0] };
}

/** The payment's last activity moved `ms` into the past, as if its customer had left then. */
async function idleFor(paymentId: string, ms: number) {
  const stored = stripKeys<Payment>((await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.payment(paymentId) }))).Item)!;
  await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: paymentItem({ ...stored, lastActivityAt: isoMillis(new Date(Date.now() - ms)) }) }));
}

const runExpiryJob = async () => (await api.post('/v1/test_helpers/jobs/expire-open-payments')).body;

describe('checkout: a look opens nothing', () => {
  test('a request that does not accept HTML gets the checkout status and the page without a form; no payment, cookie or event', async () => {
    // Prepare
    const payable = await createLink();
    const inactive = await createLink();
    await api.post(`/v1/payment_links/${inactive.id}`, { status: 'inactive' });
    const json = { headers: { accept: 'application/json' } };

    // Act
    const looked = await pageOf(payable.id, json);
    const denied = await pageOf(inactive.id, json);
    const refusedHtml = await pageOf(payable.id, { headers: { accept: 'text/html;q=0, application/json' } });

    // Assess
    expect(looked.status).toBe(200);
    expect(paymentIdIn(await looked.text())).toBeUndefined();
    expect(looked.headers.get('set-cookie')).toBeNull();
    expect(denied.status).toBe(409);
    expect(refusedHtml.status).toBe(200);
    expect(await paymentsOf(payable.id)).toEqual([]);
    const all = await events();
    expect(eventsFor(all, 'transactions.payment_link.checkout.requested', payable.id)).toEqual([]);
    expect(eventsFor(all, 'transactions.payment_link.checkout.denied', inactive.id)).toEqual([]);
  });

  test('a HEAD opens no payment', async () => {
    const link = await createLink();
    const response = await pageOf(link.id, { method: 'HEAD' });
    expect(response.status).toBeLessThan(500);
    expect(await paymentsOf(link.id)).toEqual([]);
  });

  // The checkout function itself, whatever routes a HEAD to it.
  testInProcess("a HEAD gets the checkout's status (200, 409, 404) and opens no payment", async () => {
    const link = await createLink();
    const inactive = await createLink();
    await api.post(`/v1/payment_links/${inactive.id}`, { status: 'inactive' });
    const { handler } = await import('../../../functions/checkout-page/handler');
    const head = (id: string) =>
      handler({
        version: '2.0',
        routeKey: 'GET /checkout/{id}',
        rawPath: `/checkout/${id}`,
        rawQueryString: '',
        headers: { host: new URL(stack.baseUrl).host, accept: 'text/html' },
        pathParameters: { id },
        isBase64Encoded: false,
        requestContext: { http: { method: 'HEAD', path: `/checkout/${id}`, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' }, requestId: 'head', routeKey: 'GET /checkout/{id}', stage: '$default', time: '', timeEpoch: 0 },
      } as never, lambdaContext('checkout-page'));

    expect((await head(link.id)).statusCode).toBe(200);
    expect((await head(inactive.id)).statusCode).toBe(409);
    expect((await head('pl_00000000000000000000000000')).statusCode).toBe(404);
    expect(await paymentsOf(link.id)).toEqual([]);
  });
});

describe('checkout: new open payments per link are bounded', () => {
  test(`the page opens at most ${LIMITS.checkoutOpenings.perLink} new payments on a link per window: the next new customer gets 429 with Retry-After; a returning customer and the test helper still get theirs`, async () => {
    // Prepare
    const { perLink, windowSeconds } = LIMITS.checkoutOpenings;

    // Act: every opening of a link in one window
    const { link, returning, over } = await inOneWindow(windowSeconds, async () => {
      const link = await createLink();
      const returning = await openAsCustomer(link.id);
      for (let opened = 1; opened < perLink; opened += 10) {
        const batch = await Promise.all(Array.from({ length: Math.min(10, perLink - opened) }, () => pageOf(link.id)));
        expect(batch.map((response) => response.status)).toEqual(batch.map(() => 200));
      }
      return { link, returning, over: await pageOf(link.id) };
    });
    const back = await pageOf(link.id, { headers: { cookie: returning.cookie } });
    const helper = await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome: 'open' });

    // Assess
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(windowSeconds);
    expect(back.status).toBe(200);
    expect(paymentIdIn(await back.text())).toBe(returning.paymentId);
    expect(helper.status).toBe(201);
    expect(await paymentsOf(link.id)).toHaveLength(perLink + 1);
  }, 90_000);
});

describe('open payments expire after 30 minutes without activity', () => {
  test('the minute job expires every open payment idle for 30 minutes, in every shard, with transactions.payment.expired; one opened since, or reopened by its customer, stays open', async () => {
    // Prepare
    const link = await createLink();
    const customers = [];
    for (let i = 0; i < 10; i++) customers.push(await openAsCustomer(link.id));
    const [fresh, returning, ...idle] = customers;
    for (const customer of [returning, ...idle]) await idleFor(customer.paymentId, OPEN_PAYMENT_IDLE_MS + 60_000);
    await pageOf(link.id, { headers: { cookie: returning.cookie } });

    // Act
    const run = await runExpiryJob();

    // Assess
    expect(run).toEqual({ object: 'job_run', name: 'expire-open-payments', processed: idle.length });
    const statuses = Object.fromEntries((await paymentsOf(link.id)).map((payment) => [payment.id, payment.status]));
    expect(idle.map((customer) => statuses[customer.paymentId])).toEqual(idle.map(() => 'expired'));
    expect([statuses[fresh.paymentId], statuses[returning.paymentId]]).toEqual(['open', 'open']);
    expect(new Set(idle.map((customer) => openPaymentShard(customer.paymentId))).size).toBeGreaterThan(1);
    const expired = eventsFor(await events(), 'transactions.payment.expired');
    expect(expired.map((event) => event.data.id).sort()).toEqual(idle.map((customer) => customer.paymentId).sort());
    expect(expired.every((event) => event.data.status === 'expired' && event.data.payment_link_id === link.id)).toBe(true);
    // The customer of an expired payment who comes back gets a new one.
    const back = await pageOf(link.id, { headers: { cookie: idle[0].cookie } });
    expect(paymentIdIn(await back.text())).not.toBe(idle[0].paymentId);
    expect((await runExpiryJob()).processed).toBe(0);
  });

  test('a payment paid in the same moment the job expires it ends in exactly one status, counted and announced once', async () => {
    // Prepare
    const link = await createLink();
    const customers = [];
    for (let i = 0; i < 6; i++) customers.push(await openAsCustomer(link.id));
    for (const customer of customers) await idleFor(customer.paymentId, OPEN_PAYMENT_IDLE_MS + 60_000);
    const pay = (customer: { paymentId: string; cookie: string }) =>
      fetch(`${stack.baseUrl}/checkout/${link.id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: customer.cookie },
        body: new URLSearchParams({ payment_id: customer.paymentId, outcome: 'paid' }).toString(),
      });

    // Act
    const [run, ...submits] = await Promise.all([runExpiryJob(), ...customers.map(pay)]);

    // Assess
    const statuses = Object.fromEntries((await paymentsOf(link.id)).map((payment) => [payment.id, payment.status]));
    const paid = customers.filter((customer) => statuses[customer.paymentId] === 'paid');
    const expired = customers.filter((customer) => statuses[customer.paymentId] === 'expired');
    expect(paid.length + expired.length).toBe(customers.length);
    expect(run.processed).toBe(expired.length);
    expect(submits.map((response) => response.status).sort()).toEqual([...paid.map(() => 303), ...expired.map(() => 409)].sort());
    const all = await events();
    for (const customer of customers) {
      const announced = [eventsFor(all, 'transactions.payment.paid', customer.paymentId).length, eventsFor(all, 'transactions.payment.expired', customer.paymentId).length];
      expect(announced).toEqual(statuses[customer.paymentId] === 'paid' ? [1, 0] : [0, 1]);
    }
    expect((await api.get(`/v1/payment_links/${link.id}`)).body.paid_count).toBe(paid.length);
  });
});
