import * as z from '../../../shared/zod';
import { apiOperations as routes } from '../../../shared/api';
import { buildOpenApiDocument, responseSchema } from '../../../shared/openapi';
import { client, expectEnvelope, type HttpResult } from '../../support/http';
import {
  chargebackRecord,
  chargebackReversalRecord,
  importDocument,
  paymentRecord,
  refundRecord,
  rollbackRecord,
  settlementInput,
} from '../../support/settlements';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { creditsRolled } from '../../support/refunds';
import { documentValidator } from '../../support/openapi-validator';
import { waitUntil } from '../../support/wait';

/**
 * The reference against the running API: real calls over HTTP, each answer parsed with the zod
 * schema the document gives for its operation and status (and that the document references).
 */
let stack: TestStack;
let merchant: Merchant;
let api: ReturnType<typeof client>;
let live: ReturnType<typeof client>;
let document: any;
/** Operation (handler name) -> statuses whose answer was checked. */
const checked = new Map<string, Set<number>>();

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  api = client(stack.baseUrl, merchant.test);
  live = client(stack.baseUrl, merchant.live);
  document = (await client(stack.baseUrl).get('/v1/openapi.json')).body;
});
afterAll(() => stack?.stop());

function resolveResponse(method: string, path: string, status: number) {
  const found = document.paths[path]?.[method.toLowerCase()]?.responses?.[status];
  return found?.$ref ? document.components.responses[found.$ref.split('/').pop()] : found;
}

/** The answer is documented for this operation and status, and matches the documented schema. */
function expectDocumented(method: 'GET' | 'POST' | 'DELETE', path: string, result: HttpResult) {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  expect(route).toBeDefined();
  const documented = resolveResponse(method, path, result.status);
  expect({ operation: `${method} ${path}`, status: result.status, documented: Boolean(documented) }).toEqual({
    operation: `${method} ${path}`,
    status: result.status,
    documented: true,
  });
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
  const schema = responseSchema(route!, result.status)!;
  const parsed = schema.safeParse(result.body);
  expect({ operation: `${method} ${path}`, status: result.status, issues: parsed.error?.issues ?? [] }).toEqual({
    operation: `${method} ${path}`,
    status: result.status,
    issues: [],
  });
  const id = z.globalRegistry.get(schema)?.id;
  const documentedSchema = documented.content['application/json'].schema;
  if (id) expect(documentedSchema).toEqual({ $ref: `#/components/schemas/${id}` });
  else expect(JSON.stringify(documentedSchema)).toContain('#/components/schemas/');
  if (!checked.has(route!.handler)) checked.set(route!.handler, new Set());
  checked.get(route!.handler)!.add(result.status);
  return result.body;
}

test('openapi.json: served without an API key; it is the document built from the route table for this stack', async () => {
  const result = await client(stack.baseUrl).get('/v1/openapi.json');
  expectDocumented('GET', '/v1/openapi.json', result);
  const urls = { base: stack.baseUrl, checkout: `${stack.baseUrl}/checkout`, dashboard: `${stack.baseUrl}/dashboard`, docs: `${stack.baseUrl}/docs` };
  expect(result.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(routes, urls))));
  expect(result.body.servers).toEqual([{ url: stack.baseUrl }]);
});

test('answers match the documented schemas: payment links, payments and a link\'s payments', async () => {
  const link = expectDocumented(
    'POST',
    '/v1/payment_links',
    await api.post('/v1/payment_links', {
      amount: { value: '12.50', currency: 'eur' },
      acceptor_id: merchant.acceptorId,
      description: 'Concert',
      payments_limit: 5,
      expires_at: '2099-01-01T00:00:00Z',
    }),
  );
  expectDocumented('GET', '/v1/payment_links/{id}', await api.get(`/v1/payment_links/${link.id}`));
  expectDocumented('POST', '/v1/payment_links/{id}', await api.post(`/v1/payment_links/${link.id}`, { internal_reference: 'ref-1' }));
  const payment = expectDocumented('POST', '/v1/test_helpers/payment_links/{id}/checkout', await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {}));
  expectDocumented('GET', '/v1/payment_links', await api.get('/v1/payment_links?limit=2'));
  const linkPayments = expectDocumented('GET', '/v1/payment_links/{id}/payments', await api.get(`/v1/payment_links/${link.id}/payments`));
  expect(linkPayments.data.map((item: { id: string }) => item.id)).toEqual([payment.id]);
  expectDocumented('GET', '/v1/payments/{id}', await api.get(`/v1/payments/${payment.id}`));
  expectDocumented('GET', '/v1/payments', await api.get('/v1/payments?status=paid'));
});

test('answers match the documented schemas: refunds, the balance and its ledger, the balance helper and a minute job', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '40.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const payment = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
  await creditsRolled(stack, merchant.orgId);
  const balance = expectDocumented('POST', '/v1/test_helpers/balance_adjustments', await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '0.00', currency: 'eur' } }));
  // Empty the balance, so the refund is held.
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: `-${balance.available.value}`, currency: 'eur' } });
  const held = expectDocumented(
    'POST',
    '/v1/payments/{id}/refunds',
    await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '5.00', currency: 'eur' }, metadata: { order: '7' } }),
  );
  expect(held.on_hold).toBe(true);
  expect(expectDocumented('GET', '/v1/balance', await api.get('/v1/balance')).on_hold).toEqual([{ value: '5.00', currency: 'eur', refunds: 1 }]);
  expect(expectDocumented('GET', '/v1/balance_transactions', await api.get('/v1/balance_transactions?type=payment')).data).not.toEqual([]);
  expectDocumented('GET', '/v1/refunds/{id}', await api.get(`/v1/refunds/${held.id}`));
  expectDocumented('GET', '/v1/refunds', await api.get('/v1/refunds'));
  expectDocumented('POST', '/v1/refunds/{id}/cancel', await api.post(`/v1/refunds/${held.id}/cancel`));
  expectDocumented('POST', '/v1/refunds/{id}/cancel', await api.post(`/v1/refunds/${held.id}/cancel`));
  const other = (await api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '1.00', currency: 'eur' } })).body;
  expectDocumented('POST', '/v1/test_helpers/refunds/{id}/transitions', await api.post(`/v1/test_helpers/refunds/${other.id}/transitions`, { status: 'canceled' }));
  const ofPayment = expectDocumented('GET', '/v1/payments/{id}/refunds', await api.get(`/v1/payments/${payment.id}/refunds`));
  expect(ofPayment.data.map((refund: { id: string }) => refund.id)).toEqual([other.id, held.id]);
  expect(expectDocumented('GET', '/v1/payments/{id}', await api.get(`/v1/payments/${payment.id}`)).amount_refunded).toEqual({ value: '0.00', currency: 'EUR' });
  expectDocumented('POST', '/v1/test_helpers/jobs/{name}', await api.post('/v1/test_helpers/jobs/process-refunds'));
});

test('answers match the documented schemas: chargebacks through the test helper', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '30.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const payment = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
  const chargeback = expectDocumented(
    'POST',
    '/v1/test_helpers/payments/{id}/chargebacks',
    await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { reason: { code: '10.4', description: 'Fraud' } }),
  );
  expectDocumented('GET', '/v1/chargebacks/{id}', await api.get(`/v1/chargebacks/${chargeback.id}`));
  expectDocumented('GET', '/v1/chargebacks', await api.get('/v1/chargebacks'));
  expectDocumented('GET', '/v1/payments/{id}/chargebacks', await api.get(`/v1/payments/${payment.id}/chargebacks`));
  expectDocumented('POST', '/v1/test_helpers/chargebacks/{id}/transitions', await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'disputed' }));
  const won = expectDocumented('POST', '/v1/test_helpers/chargebacks/{id}/transitions', await api.post(`/v1/test_helpers/chargebacks/${chargeback.id}/transitions`, { status: 'won' }));
  expect(won).toMatchObject({ status: 'won', dispute: { evidence: {} } });
});

test('answers match the documented schemas: a merchant answers chargebacks, with a document uploaded', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '30.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const payment = (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body;
  const open = async () => (await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, { amount: { value: '10.00', currency: 'EUR' } })).body;
  const [toAccept, toDispute] = [await open(), await open()];
  const file = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
  const document = expectDocumented('POST', '/v1/chargebacks/{id}/documents', await api.post(`/v1/chargebacks/${toDispute.id}/documents`, { filename: 'a.pdf', content_type: 'application/pdf', size: file.length }));
  expect((await fetch(document.upload.url, { method: 'PUT', headers: document.upload.headers, body: file })).status).toBe(200);
  expectDocumented('POST', '/v1/chargebacks/{id}/accept', await api.post(`/v1/chargebacks/${toAccept.id}/accept`));
  const disputed = expectDocumented('POST', '/v1/chargebacks/{id}/dispute', await api.post(`/v1/chargebacks/${toDispute.id}/dispute`, { evidence: { refund_policy: '30 days', documents: [document.id] } }));
  expect(disputed.dispute.evidence).toEqual({ refund_policy: '30 days', documents: [document.id] });
});

test('answers match the documented schemas: a live settlement and every record type', async () => {
  const settlement = settlementInput(merchant.orgId, {
    records: [
      paymentRecord(merchant.orgId, merchant.acceptorId),
      refundRecord(),
      chargebackRecord(),
      chargebackReversalRecord(),
      rollbackRecord(),
    ],
  });
  await importDocument(stack, [settlement]);
  expectDocumented('GET', '/v1/settlements', await live.get('/v1/settlements'));
  expectDocumented('GET', '/v1/settlements/{code}', await live.get(`/v1/settlements/${settlement.code}`));
  const records = expectDocumented('GET', '/v1/settlements/{code}/records', await live.get(`/v1/settlements/${settlement.code}/records`));
  expect(records.data.map((record: { object: string }) => record.object).sort()).toEqual(
    ['chargeback', 'chargeback_reversal', 'payment', 'refund', 'rollback'].sort(),
  );
});

test('error answers match the documented envelope: 400, 401, 403, 404, 409 and 422', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const checks: [HttpResult, 'GET' | 'POST', string, number, string?][] = [
    [await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, webhook_url: 'https://x.test' }), 'POST', '/v1/payment_links', 400],
    [await client(stack.baseUrl).get(`/v1/payment_links/${link.id}`), 'GET', '/v1/payment_links/{id}', 401],
    [await client(stack.baseUrl, await merchant.key({ scopes: ['payment_link:read'] })).get('/v1/refunds'), 'GET', '/v1/refunds', 403],
    [await api.get('/v1/payment_links/pl_unknown'), 'GET', '/v1/payment_links/{id}', 404],
    [await api.get('/v1/settlements'), 'GET', '/v1/settlements', 404],
    [await api.get('/v1/payment_links?limit=0'), 'GET', '/v1/payment_links', 422, 'limit'],
    [await api.post('/v1/payment_links', { acceptor_id: merchant.acceptorId }), 'POST', '/v1/payment_links', 422, 'amount.value'],
  ];
  for (const [result, method, path, status, attribute] of checks) {
    expectEnvelope(result, status, attribute);
    expectDocumented(method, path, result);
  }
  await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive' });
  const denied = await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {});
  expectEnvelope(denied, 409);
  expect(denied.body.reason).toBe('inactive');
  expectDocumented('POST', '/v1/test_helpers/payment_links/{id}/checkout', denied);
});

test('answers match the documented schemas: the events API', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const list = expectDocumented('GET', '/v1/events', await api.get('/v1/events?type=transactions.payment_link.*&limit=5'));
  const event = list.data.find((candidate: { data: { id: string } }) => candidate.data.id === link.id);
  expectDocumented('GET', '/v1/events/{id}', await api.get(`/v1/events/${event.id}`));
  expectDocumented('GET', '/v1/events/{id}/deliveries', await api.get(`/v1/events/${event.id}/deliveries`));
  expectDocumented('POST', '/v1/events/{id}/resend', await api.post(`/v1/events/${event.id}/resend`, {}));
});

test('answers match the documented schemas: webhook endpoints', async () => {
  const created = expectDocumented(
    'POST',
    '/v1/webhook_endpoints',
    await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/reference', enabled_events: ['transactions.refund.*'], description: 'Reference' }),
  );
  expectDocumented('GET', '/v1/webhook_endpoints', await api.get('/v1/webhook_endpoints'));
  expectDocumented('GET', '/v1/webhook_endpoints/{id}', await api.get(`/v1/webhook_endpoints/${created.id}`));
  expectDocumented('POST', '/v1/webhook_endpoints/{id}', await api.post(`/v1/webhook_endpoints/${created.id}`, { status: 'disabled' }));
  expectDocumented('POST', '/v1/webhook_endpoints/{id}/roll_secret', await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, { expires_in_seconds: 60 }));
  expectDocumented('POST', '/v1/webhook_endpoints', await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/x', enabled_events: ['no.such.type'] }));
  expectDocumented('DELETE', '/v1/webhook_endpoints/{id}', await api.call('DELETE', `/v1/webhook_endpoints/${created.id}`));
  expectDocumented('DELETE', '/v1/webhook_endpoints/{id}', await api.call('DELETE', `/v1/webhook_endpoints/${created.id}`));
});

test("request limits: at each documented bound the document's request schema (JSON Schema, characters as code points) and the service agree: in at the bound, out one past it (422)", async () => {
  const validator = documentValidator(document);
  const emoji = (count: number) => '\u{1F4E6}'.repeat(count);
  const link = (await api.post('/v1/payment_links', { amount: { value: '40.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const [payment, disputed] = [(await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body, (await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {})).body];
  const chargeback = async () => (await api.post(`/v1/test_helpers/payments/${disputed.id}/chargebacks`, { amount: { value: '0.01', currency: 'EUR' } })).body;
  const keys = (count: number, key: (index: number) => string = (index) => `k${index}`) => Object.fromEntries(Array.from({ length: count }, (_, index) => [key(index), 'v']));
  const cases: [string, string, () => Promise<HttpResult>, unknown][] = [];
  const refund = (body: Record<string, unknown>) => ['RefundCreateRequest', JSON.stringify(body).slice(0, 60), () => api.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '0.01', currency: 'eur' }, ...body }), { amount: { value: '0.01', currency: 'eur' }, ...body }] as const;
  for (const body of [
    { description: emoji(500) },
    { description: emoji(501) },
    { metadata: keys(50) },
    { metadata: keys(51) },
    { metadata: { [emoji(40)]: 'v' } },
    { metadata: { [emoji(41)]: 'v' } },
    { metadata: { order: emoji(500) } },
    { metadata: { order: emoji(501) } },
  ]) cases.push([...refund(body)]);
  for (const evidence of [{ uncategorized_text: emoji(20_000) }, { uncategorized_text: emoji(20_001) }]) {
    const { id } = await chargeback();
    cases.push(['DisputeRequest', `text of ${[...evidence.uncategorized_text].length} emoji`, () => api.post(`/v1/chargebacks/${id}/dispute`, { evidence }), { evidence }]);
  }
  const { id } = await chargeback();
  for (const declared of [
    { filename: emoji(255), content_type: 'application/pdf', size: 1 },
    { filename: emoji(256), content_type: 'application/pdf', size: 1 },
    { filename: 'a.pdf', content_type: 'application/pdf', size: 4_194_304 },
    { filename: 'a.pdf', content_type: 'application/pdf', size: 4_194_305 },
    { filename: 'a.pdf', content_type: 'application/pdf', size: 0 },
    { filename: 'a.gif', content_type: 'image/gif', size: 1 },
  ]) cases.push(['DisputeDocumentRequest', JSON.stringify(declared).slice(0, 60), () => api.post(`/v1/chargebacks/${id}/documents`, declared), declared]);

  for (const [schema, label, send, body] of cases) {
    const documented = validator.problems(`#/components/schemas/${schema}`, body).length === 0;
    const answer = await send();
    expect({ schema, label, documented, status: answer.status }).toEqual({ schema, label, documented, status: documented ? expect.any(Number) : 422 });
    expect({ schema, label, accepted: answer.status < 300 }).toEqual({ schema, label, accepted: documented });
  }
});

test('answers match the documented schemas: the audit trail, each record by its action', async () => {
  const link = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  const page = expectDocumented('GET', '/v1/audit_events', await api.get(`/v1/audit_events?target_id=${link.id}`));
  expect(page.data.map((event: { action: string }) => event.action)).toEqual(['payment_link.created']);
  expectDocumented('GET', '/v1/audit_events', await api.get('/v1/audit_events?action=payment_link.created&limit=100'));
  expectDocumented('GET', '/v1/audit_events', await api.get('/v1/audit_events?action=refund.teleported'));
});

test('answers match the documented schemas: a report asked for, built, read and listed; its refusals', async () => {
  const range = { gte: new Date(Date.now() - 60_000).toISOString(), lt: new Date(Date.now() + 60_000).toISOString() };
  const created = expectDocumented('POST', '/v1/reports', await api.post('/v1/reports', { type: 'payments', created: range }));
  let report = created;
  await waitUntil(async () => (report = expectDocumented('GET', '/v1/reports/{id}', await api.get(`/v1/reports/${created.id}`))).status === 'succeeded', 'the report');
  expect(report.url).toEqual(expect.any(String));
  expectDocumented('GET', '/v1/reports', await api.get('/v1/reports'));
  expectDocumented('POST', '/v1/reports', await api.post('/v1/reports', { type: 'payments', created: { gte: range.lt, lt: range.gte } }));
  expectDocumented('POST', '/v1/reports', await api.post('/v1/reports', { type: 'nothing', created: range }));
});

test('every /v1 operation had its success answer checked against the reference above', () => {
  const unchecked = routes
    .filter((route) => route.path.startsWith('/v1/'))
    .filter((route) => !checked.get(route.handler)?.has(route.success.status))
    .map((route) => route.handler);
  expect(unchecked).toEqual([]);
});

test('the filters of product-decisions §18 are the lists\' documented query parameters, their answers and errors documented', async () => {
  const parameters = (path: string) => (document.paths[path].get.parameters as { name: string; in: string }[]).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  const range = ['created[gte]', 'created[lt]'];
  expect(parameters('/v1/payments')).toEqual(expect.arrayContaining(['status', 'payment_link', 'customer_email', ...range]));
  expect(parameters('/v1/refunds')).toEqual(expect.arrayContaining(['status', ...range]));
  expect(parameters('/v1/chargebacks')).toEqual(expect.arrayContaining(['status', ...range]));
  expect(parameters('/v1/balance_transactions')).toEqual(expect.arrayContaining(['type', 'source', ...range]));
  expectDocumented('GET', '/v1/payments', await api.get('/v1/payments?customer_email=ann%40example.com&created[gte]=2026-01-01T00:00:00Z'));
  expectDocumented('GET', '/v1/refunds', await api.get('/v1/refunds?status=pending&created[lt]=2100-01-01T00:00:00Z'));
  expectDocumented('GET', '/v1/chargebacks', await api.get('/v1/chargebacks?status=open'));
  for (const [path, status, attribute] of [
    ['/v1/payments?status=settled', 400, 'status'],
    ['/v1/payments?created[gte]=2026-02-01T00:00:00Z&created[lt]=2026-01-01T00:00:00Z', 422, 'created[lt]'],
  ] as const) {
    const answer = await api.get(path);
    expectEnvelope(answer, status, attribute);
    expectDocumented('GET', '/v1/payments', answer);
  }
});
