import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import type * as z from '../../../shared/zod';
import { apiOperations } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { openCheckoutPage, postCheckoutForm } from '../../support/checkout-form';
import { customerDetailEdges, datetimeAndMoneyEdges } from '../../support/edge-values';
import type { HttpResult } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

// Each property runs a fixed number of cases over HTTP, whatever each takes: on two busy cores
// the 40 checkout-page cases (each a page and a post) took past the default 30 s.
jest.setTimeout(120_000);

/**
 * Property: oversized and hostile values in every body field and query parameter of every
 * declared operation (field names read from the declarations, nested objects included) never
 * give a 5xx, every error is the envelope, and a refused request writes nothing of the
 * organization's (items counted before and after).
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '1000.00', currency: 'eur' } });
  ids.payment_links = (await api.post('/v1/payment_links', { amount: { value: '50.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body.id;
  ids.payments = (await api.post(`/v1/test_helpers/payment_links/${ids.payment_links}/checkout`, {})).body.id;
  ids.refunds = (await api.post(`/v1/payments/${ids.payments}/refunds`, { amount: { value: '1.00', currency: 'eur' } })).body.id;
  ids.chargebacks = (await api.post(`/v1/test_helpers/payments/${ids.payments}/chargebacks`, { amount: { value: '1.00', currency: 'eur' } })).body.id;
  ids.events = (await api.get('/v1/events?limit=1')).body.data[0].id;
  ids.jobs = 'expire-payment-links';
  ids.settlements = 'STL-NONE';
});
afterAll(() => stack.stop());

/** A path with each `{param}` replaced by an item of the merchant's of the resource before it. */
const concretePath = (path: string) => path.replace(/\/(\w+)\/\{\w+\}/g, (_whole, resource: string) => `/${resource}/${ids[resource] ?? 'x'}`);

async function organizationItems(): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await stack.db.send(
      new ScanCommand({
        TableName: stack.tableName,
        Select: 'COUNT',
        ConsistentRead: true,
        FilterExpression: 'orgId = :org',
        ExpressionAttributeValues: { ':org': merchant.orgId },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

const hostileString = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '\u0000',
    '\ud800',
    '\u202e',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    'javascript:alert(1)',
    'https://10.0.0.1/',
    'http://[::1]/',
    'http://[64:ff9b::a00:1]/',
    '%00%ff',
    '1e309',
    '-0',
    '999999999999.99',
    '0.001',
    'EUR',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1, max: 300 }).map((kilobytes) => 'x'.repeat(kilobytes * 1024)),
  fc.integer({ min: 1, max: 100 }).map((kilobytes) => '€'.repeat((kilobytes * 1024) / 3)),
  fc.integer({ min: LIMITS.urlLength - 2, max: LIMITS.urlLength + 2 }).map((length) => `https://a.example/${'p'.repeat(length - 18)}`),
  customerDetailEdges,
  datetimeAndMoneyEdges,
);
const hostileNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.1 + 0.2, 5e-324, LIMITS.amountMinor, LIMITS.amountMinor + 1, -1, 0),
  fc.double(),
  fc.integer(),
);
const deeplyNested = fc.integer({ min: 50, max: 2_000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)));
const manyKeys = fc.integer({ min: 41, max: 5_000 }).map((count) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v'])));
const reservedKeys = fc.constantFrom(...LIMITS.reservedMetadataKeys).map((key) => JSON.parse(`{"${key}":"x","ok":"y"}`));
const hostileValue = fc.oneof(hostileString, hostileNumber, fc.constant(null), fc.boolean(), deeplyNested, manyKeys, reservedKeys, fc.array(hostileString, { maxLength: 3 }));

type Shape = Record<string, z.ZodMiniType>;

/** The object shape under optional / nullable / default / pipe wrappers, if the schema is an object. */
function shapeOf(schema: z.ZodMiniType): Shape | undefined {
  let def = (schema as unknown as { _zod: { def: { shape?: Shape; innerType?: z.ZodMiniType; in?: z.ZodMiniType } } })._zod.def;
  for (let depth = 0; depth < 10 && !def.shape; depth++) {
    const inner = def.innerType ?? def.in;
    if (!inner) return undefined;
    def = (inner as unknown as typeof schema & { _zod: { def: typeof def } })._zod.def;
  }
  return def.shape;
}

/**
 * One or more of the schema's fields, each a hostile value or (for a nested object) a hostile
 * object; strings most often, so that many pass the types and reach the rules and the writes.
 */
function hostileObject(shape: Shape): fc.Arbitrary<Record<string, unknown>> {
  const field = ([name, schema]: [string, z.ZodMiniType]) => {
    const nested = shapeOf(schema);
    const value = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: hostileValue });
    return fc.tuple(fc.constant(name), nested ? fc.oneof(value, hostileObject(nested)) : value);
  };
  const fields = Object.entries(shape).map(field);
  return fc.array(fc.oneof(...fields), { minLength: 1, maxLength: 2 }).map((entries) => Object.fromEntries(entries));
}

function expectHandledWithoutWrites(result: HttpResult, before: number, after: number, what: string) {
  expect({ what, status: result.status }).toEqual({ what, status: expect.any(Number) });
  expect({ what, serverError: result.status >= 500 }).toEqual({ what, serverError: false });
  if (result.status >= 400) {
    expect({ what, body: result.body }).toMatchObject({ what, body: { status: result.status, type: expect.any(String), detail: expect.any(String) } });
    expect({ what, written: after - before }).toEqual({ what, written: 0 });
  }
}

/** A valid body per operation, so that hostile fields also reach the business rules and the writes. */
const validBodies = (): Record<string, Record<string, unknown>> => ({
  '/v1/payment_links': { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId },
  '/v1/payment_links/{id}': { description: 'Renamed' },
  '/v1/payments/{id}/refunds': { amount: { value: '0.10', currency: 'eur' } },
  '/v1/test_helpers/payments/{id}/chargebacks': { amount: { value: '0.10', currency: 'eur' } },
  '/v1/test_helpers/balance_adjustments': { amount: { value: '1.00', currency: 'eur' } },
  '/v1/test_helpers/refunds/{id}/transitions': { status: 'failed' },
  '/v1/test_helpers/chargebacks/{id}/transitions': { status: 'disputed' },
  '/v1/chargebacks/{id}/dispute': { evidence: { refund_policy: 'No refunds after 30 days' } },
  '/v1/chargebacks/{id}/documents': { filename: 'receipt.pdf', content_type: 'application/pdf', size: 1024 },
});

/** The hostile fields over the valid body, nested objects merged one level deep. */
function overValid(valid: Record<string, unknown>, hostile: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...valid };
  for (const [name, value] of Object.entries(hostile)) {
    const base = valid[name];
    const bothObjects = [base, value].every((candidate) => candidate !== null && typeof candidate === 'object' && !Array.isArray(candidate));
    merged[name] = bothObjects ? { ...(base as object), ...(value as object) } : value;
  }
  return merged;
}

const describeInput = (method: string, path: string, input: unknown) => `${method} ${path} ${JSON.stringify(input)?.slice(0, 300)}`;

test('hostile: oversized and hostile body fields on every POST: never a 5xx, nothing written when refused', async () => {
  const posts = apiOperations.filter((operation) => operation.method === 'POST');
  const valid = validBodies();
  const cases = fc.oneof(
    ...posts.map((operation) => {
      const shape = operation.body ? shapeOf(operation.body) : undefined;
      const hostile = shape ? hostileObject(shape) : fc.dictionary(fc.string(), hostileValue, { maxKeys: 3 });
      return fc.record({ path: fc.constant(concretePath(operation.path)), body: hostile.map((fields) => overValid(valid[operation.path] ?? {}, fields)) });
    }),
  );
  await fc.assert(
    fc.asyncProperty(cases, async ({ path, body }) => {
      const before = await organizationItems();
      const result = await api.post(path, body);
      expectHandledWithoutWrites(result, before, await organizationItems(), describeInput('POST', path, body));
    }),
    { numRuns: 200 },
  );
});

test('hostile: hostile query parameters on every GET: never a 5xx', async () => {
  const gets = apiOperations.filter((operation) => operation.method === 'GET' && Object.keys(operation.query.shape).length > 0);
  const smallHostile = fc.oneof(
    hostileString.filter((value) => value.length <= 1_500),
    hostileNumber.map(String),
  );
  const cases = fc.oneof(
    ...gets.map((operation) =>
      fc.record({
        path: fc.constant(concretePath(operation.path)),
        query: fc.dictionary(fc.constantFrom(...Object.keys(operation.query.shape), 'unknown'), smallHostile, { maxKeys: 3 }),
      }),
    ),
  );
  await fc.assert(
    fc.asyncProperty(cases, async ({ path, query }) => {
      const search = new URLSearchParams(query).toString();
      const result = await api.get(`${path}?${search}`);
      expectHandledWithoutWrites(result, 0, 0, describeInput('GET', path, query));
    }),
    { numRuns: 120 },
  );
});

test('hostile: customer details at and past their bounds on the checkout page: never a 5xx; a refusal is the checkout form again and writes nothing', async () => {
  const collectingAll = { collect_email: true, collect_phone: true, collect_address: true };
  const link = (await api.post('/v1/payment_links', { amount: { value: '5.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...collectingAll })).body;
  const field = fc.oneof(customerDetailEdges, hostileString);
  const details = fc.record({ email: field, phone: field, address: field }, { requiredKeys: [] });
  await fc.assert(
    fc.asyncProperty(details, async (fields) => {
      const opened = await openCheckoutPage(stack.baseUrl, link.id);
      const before = await organizationItems();
      const { status, html } = await postCheckoutForm(stack.baseUrl, link.id, opened, fields);
      const what = describeInput('POST', '/checkout/{id}', fields);
      expect({ what, serverError: status >= 500 }).toEqual({ what, serverError: false });
      if (status === 400 || status === 422) expect({ what, form: html.includes(`name="payment_id" value="${opened.paymentId}"`) }).toEqual({ what, form: true });
      if (status >= 400) expect({ what, written: (await organizationItems()) - before }).toEqual({ what, written: 0 });
    }),
    { numRuns: 40 },
  );
});
