import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { EVENT_REGISTRY, EVENT_TYPES } from '../../../shared/domain/event-types';
import { client, type HttpResult } from '../../support/http';
import { documentValidator } from '../../support/openapi-validator';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { configureTable } from '../../../bin/local/contention';
import { creditsRolled } from '../../support/refunds';
import { waitUntil } from '../../support/wait';

/**
 * Every event type the service emits, produced over HTTP as a merchant would, then read back
 * from the events API and received as webhooks: each envelope is checked with ajv against the
 * schema the served document gives it (the `Event` union for the API, the type's webhook entry
 * for a delivery). A declared type no step produced fails the test.
 */
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ background: true, env: { WEBHOOK_RETRY_SCHEDULE: '0.05,0.1,0.2' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
});

function ok<T>(result: HttpResult<T>, status: number): T {
  expect({ status: result.status, body: result.body }).toEqual({ status, body: expect.anything() });
  return result.body;
}

test('every declared event type is produced over HTTP, and each event matches its schema in the served document, read and delivered', async () => {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const subscription = await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['*'] });
  const createLink = async (extra: object = {}) =>
    ok(await api.post('/v1/payment_links', { amount: { value: '30.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...extra }), 201);
  const checkout = (linkId: string, body: object) => api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, body);

  // The payment-link family: one seat, paid on a reused payment, then refused.
  const seat = await createLink({ payments_limit: 1 });
  ok(await api.post(`/v1/payment_links/${seat.id}`, { description: 'One seat' }), 200);
  ok(await checkout(seat.id, { client_key: 'customer', outcome: 'open' }), 201);
  ok(await checkout(seat.id, { client_key: 'customer' }), 201);
  ok(await checkout(seat.id, {}), 409);
  await createLink({ expires_at: '2021-01-01T00:00:00Z' });
  ok(await api.post('/v1/test_helpers/jobs/expire-payment-links'), 200);
  // A payment that expires (the job does the same after 30 minutes without activity).
  ok(await checkout((await createLink()).id, { outcome: 'expired' }), 201);

  // Refunds through every status.
  const paid = ok(await checkout((await createLink()).id, {}), 201);
  // Refunds move on only once the payment's credit is in the balance (§15).
  await creditsRolled(stack, merchant.orgId);
  const refund = async () => ok(await api.post(`/v1/payments/${paid.id}/refunds`, { amount: { value: '1.00', currency: 'eur' } }), 201);
  ok(await api.post(`/v1/refunds/${(await refund()).id}/cancel`), 200);
  const move = async (id: string, status: string) => ok(await api.post(`/v1/test_helpers/refunds/${id}/transitions`, { status }), 200);
  const refunded = await refund();
  await move(refunded.id, 'processing');
  await move(refunded.id, 'refunded');
  const failed = await refund();
  await move(failed.id, 'processing');
  await move(failed.id, 'failed');

  // Chargebacks through every status, on a payment of their own.
  const charged = ok(await checkout((await createLink()).id, {}), 201);
  for (const path of [['accepted'], ['disputed', 'won'], ['disputed', 'lost']]) {
    const chargeback = ok(await api.post(`/v1/test_helpers/payments/${charged.id}/chargebacks`, { amount: { value: '10.00', currency: 'EUR' } }), 201);
    for (const status of path) ok(await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status }), 200);
  }

  // A chargeback 48 hours from its deadline: its reminder (the 72-hour one) from the minute job.
  ok(await api.post(`/v1/test_helpers/payments/${charged.id}/chargebacks`, { amount: { value: '1.00', currency: 'EUR' }, deadline_at: new Date(Date.now() + 48 * 3_600_000).toISOString() }), 201);
  ok(await api.post('/v1/test_helpers/jobs/remind-chargeback-deadlines'), 200);

  // Reports: one built, and one whose builder cannot read its rows (DynamoDB answers every Query
  // 500 until the SDK's attempts are spent), which fails it.
  const report = async () => ok(await api.post('/v1/reports', { type: 'refunds', created: { gte: new Date(Date.now() - 86_400_000).toISOString(), lt: new Date().toISOString() } }), 201);
  const settled = async (id: string) => waitUntil(async () => ok(await api.get(`/v1/reports/${id}`), 200).status !== 'pending', 'the report built');
  await settled((await report()).id);
  // Its event delivered before DynamoDB's faults begin, which would hold its delivery back past this test.
  await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.type === 'transactions.report.succeeded'), 'the report event delivered', 20_000);
  await configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: { seed: 4, rates: { 'dynamodb.internal-error': 1 }, limits: { 'dynamodb.internal-error': 12 }, only: { 'dynamodb.internal-error': ['Query'] } } });
  try {
    const failing = await report();
    await waitUntil(async () => ok(await api.get(`/v1/reports/${failing.id}`), 200).status === 'failed', 'the report failed');
  } finally {
    await configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: null });
  }

  const document = ok(await client(stack.baseUrl).get('/v1/openapi.json'), 200);
  const schemas = documentValidator(document);
  expect(Object.keys(document.webhooks)).toEqual(EVENT_TYPES);

  // Read back: every page of the events API, each event checked as the envelope its type maps
  // to in the `Event` union (the clearest report), then the page as the document's EventList.
  const mapping: Record<string, string> = document.components.schemas.Event.discriminator.mapping;
  const events: { id: string; type: string }[] = [];
  for (let cursor = '', more = true; more; cursor = `&starting_after=${events[events.length - 1].id}`) {
    const page: { has_more: boolean; data: { id: string; type: string }[] } = ok(await api.get(`/v1/events?limit=100${cursor}`), 200);
    for (const event of page.data) {
      expect({ type: event.type, problems: schemas.problems(mapping[event.type] ?? '#/missing', event) }).toEqual({ type: event.type, problems: [] });
    }
    expect(schemas.problems('#/components/schemas/EventList', page)).toEqual([]);
    events.push(...page.data);
    more = page.has_more;
  }
  const produced = [...new Set(events.map((event) => event.type))].sort();
  const emitted = EVENT_TYPES.filter((type) => !('reserved' in EVENT_REGISTRY[type])).sort();
  expect(produced).toEqual(emitted);
  for (const type of produced) {
    const one = ok(await api.get(`/v1/events/${events.find((event) => event.type === type)!.id}`), 200);
    expect({ type, problems: schemas.problems('#/components/schemas/Event', one) }).toEqual({ type, problems: [] });
  }

  // Delivered: every event reaches the `*` subscription, signed, as its type's webhook documents it.
  await receiver.waitFor(() => events.every((event) => receiver.delivered().some((request) => request.envelope.id === event.id)), `${events.length} deliveries`, 60_000);
  for (const request of receiver.delivered()) {
    const { type } = request.envelope;
    const webhook = `#/webhooks/${type}/post`;
    expect(receiver.verify(request, subscription.secret)).toEqual(request.envelope);
    expect({ type, problems: schemas.problems(`${webhook}/requestBody/content/application~1json/schema`, request.envelope) }).toEqual({ type, problems: [] });
    document.webhooks[type].post.parameters.forEach((header: { name: string; in: string; required: boolean }, index: number) => {
      const problems = schemas.problems(`${webhook}/parameters/${index}/schema`, request.headers[header.name]);
      expect({ type, header: header.name, in: header.in, required: header.required, problems }).toEqual({ type, header: header.name, in: 'header', required: true, problems: [] });
    });
  }

  // Each event's attempts, recorded after its POST, as the document lists them.
  for (const event of events) {
    await receiver.waitFor(async () => (await api.get(`/v1/events/${event.id}/deliveries`)).body.data.length > 0, `the attempt of ${event.type}`);
    const attempts = ok(await api.get(`/v1/events/${event.id}/deliveries`), 200);
    expect({ type: event.type, problems: schemas.problems('#/components/schemas/DeliveryAttemptList', attempts) }).toEqual({ type: event.type, problems: [] });
  }
}, 120_000);
