import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as keys from '../../../shared/db/keys';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FUNCTION_SECRET_KEY } from '../../../bin/local/aws/functions';
import { client, expectEnvelope } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';

/**
 * Reports (product-decisions §18): a report's rows are what its list returns for the range, in
 * its order, as UTF-8 CSV with a header row and the API's fields flattened (`a.b`), amounts as
 * the API writes them, formula-safe; its presigned download works for an hour and not after;
 * its scopes, its 366 days, its 400s and 422s; its events.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
let from: string;
let until: string;
/** What a spreadsheet would run as a formula, as refund descriptions. */
const FORMULAS = ['=HYPERLINK("http://evil.example","x")', '+1 555 0100', '-2+3', '@SUM(A1:A2)', '\tTabbed'];

jest.setTimeout(180_000);

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  from = new Date(Date.now() - 1000).toISOString();
  const link = (await api.post('/v1/payment_links', { amount: { value: '12.50', currency: 'EUR' }, acceptor_id: merchant.acceptorId, collect_email: true })).body.id;
  await api.post('/v1/test_helpers/balance_adjustments', { amount: { value: '500.00', currency: 'EUR' } });
  const paid: string[] = [];
  for (let n = 0; n < 7; n++) {
    const payment = await api.post(`/v1/test_helpers/payment_links/${link}/checkout`, { outcome: n === 3 ? 'failed' : 'paid', email: `buyer${n}@example.com` });
    expect(payment.status).toBe(201);
    if (n !== 3) paid.push(payment.body.id);
  }
  for (const [n, description] of FORMULAS.entries()) {
    const refund = await api.post(`/v1/payments/${paid[n]}/refunds`, { amount: { value: '1.00', currency: 'EUR' }, description, metadata: { note: 'a, "quoted" note' } });
    expect(refund.status).toBe(201);
  }
  expect((await api.post(`/v1/test_helpers/payments/${paid[5]}/chargebacks`, {})).status).toBe(201);
  until = new Date(Date.now() + 1000).toISOString();
});
afterAll(() => stack.stop());

/** RFC 4180, as the service writes it: CRLF rows, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  expect(field).toBe('');
  return rows;
}

/** An API object's fields as `a.b` paths and their values (the test's own flattening). */
function flatten(object: Record<string, unknown>, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(object).flatMap(([name, value]) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) && name !== 'metadata'
        ? Object.entries(flatten(value as Record<string, unknown>, `${prefix}${name}.`))
        : [[`${prefix}${name}`, value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)]],
    ),
  );
}

/** Every object of a list in the range, page by page with its cursors. */
async function listed(path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor = '';
  for (;;) {
    const page = await api.get(`${path}?limit=3&created[gte]=${encodeURIComponent(from)}&created[lt]=${encodeURIComponent(until)}${cursor}`);
    expect(page.status).toBe(200);
    items.push(...page.body.data);
    if (!page.body.has_more) return items;
    cursor = `&starting_after=${items.at(-1)!.id}`;
  }
}

/** A report of `type` over the test's range, once it is no longer pending. */
async function built(type: string, caller: Api = api) {
  const created = await caller.post('/v1/reports', { type, created: { gte: from, lt: until } });
  expect(created.status).toBe(201);
  let report = created.body;
  await waitUntil(async () => (report = (await caller.get(`/v1/reports/${created.body.id}`)).body).status !== 'pending', `report ${created.body.id} to be built`, { timeoutMs: 60_000, intervalMs: 200 });
  return report;
}

async function download(url: string) {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return { type: answer.headers.get('content-type'), text: await answer.text() };
}

test('POST /v1/reports answers 201 with the pending report of §18', async () => {
  const created = await api.post('/v1/reports', { type: 'payments', created: { gte: from, lt: until } });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    id: expect.stringMatching(/^rpt_[0-9a-z]{26}$/),
    object: 'report',
    type: 'payments',
    created: { gte: new Date(Date.parse(from)).toISOString(), lt: new Date(Date.parse(until)).toISOString() },
    status: 'pending',
    row_count: null,
    url: null,
    expires_at: null,
    failure_reason: null,
    created_at: expect.any(String),
  });
});

test('a payments report: the rows GET /v1/payments returns for the range, in its order, with its fields as byte-exact columns', async () => {
  const report = await built('payments');
  expect(report.status).toBe('succeeded');
  const payments = await listed('/v1/payments');
  expect(report.row_count).toBe(payments.length);
  const { type, text } = await download(report.url);
  expect(type).toBe('text/csv; charset=utf-8');
  const [header, ...rows] = text.split('\r\n');
  expect(header).toBe(
    'object,id,status,amount.value,amount.currency,created_at,paid_at,payment_link_id,amount_refunded.value,amount_refunded.currency,' +
      'amount_chargedback.value,amount_chargedback.currency,acceptor_id,org_id,mode,customer.email,customer.phone,billing.address,' +
      'acquirer_reference,capture.status,capture.acquirer_reference,failure_reason,links.api.href,links.api.type',
  );
  expect(rows.pop()).toBe('');
  const columns = header.split(',');
  expect(parseCsv(text).slice(1)).toEqual(payments.map((payment) => columns.map((column) => flatten(payment)[column] ?? '')));
  // Amounts as the API writes them.
  expect(rows[0]).toContain(',12.50,EUR,');
  // The report goes when its file does: TTL 30 days after it was finished.
  const item = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.report(report.id) }))).Item!;
  expect(item.expiresAtEpoch).toBe(Math.floor(Date.parse(item.completedAt) / 1000) + 30 * 86_400);
});

test('a refunds report is formula-safe: a cell a spreadsheet would run starts with an apostrophe; numbers, even negative, stay numbers', async () => {
  const report = await built('refunds');
  const refunds = await listed('/v1/refunds');
  const [header, ...rows] = parseCsv((await download(report.url)).text);
  expect(rows.map((row) => row[header.indexOf('id')])).toEqual(refunds.map((refund) => refund.id));
  const descriptions = rows.map((row) => row[header.indexOf('description')]);
  expect(descriptions.sort()).toEqual(FORMULAS.map((formula) => `'${formula}`).sort());
  expect(rows.every((row) => row[header.indexOf('metadata')] === '{"note":"a, \\"quoted\\" note"}')).toBe(true);

  const ledger = await built('balance_transactions');
  const [ledgerHeader, ...entries] = parseCsv((await download(ledger.url)).text);
  expect(ledgerHeader).toEqual(['id', 'object', 'type', 'amount.value', 'amount.currency', 'source', 'created_at']);
  expect(entries.filter((entry) => entry[2] === 'refund').map((entry) => entry[3])).toEqual(FORMULAS.map(() => '-1.00'));
  expect(entries.map((entry) => entry[0])).toEqual((await listed('/v1/balance_transactions')).map((entry) => entry.id));
});

test('a chargebacks report holds the list items of GET /v1/chargebacks; an acceptor-bound key\'s, its acceptor\'s alone', async () => {
  const report = await built('chargebacks');
  const [header, ...rows] = parseCsv((await download(report.url)).text);
  expect(header).toEqual(['object', 'id', 'payment_id', 'status', 'reason.code', 'reason.description', 'amount.value', 'amount.currency', 'deadline_at', 'created_at', 'links.api.href', 'links.api.type']);
  expect(rows.map((row) => row[1])).toEqual((await listed('/v1/chargebacks')).map((chargeback) => chargeback.id));
  expect(rows).toHaveLength(1);

  const otherAcceptor = await stack.directory.createAcceptor(merchant.orgId, 'Shop two', 'Other');
  const bound = client(stack.baseUrl, await merchant.key({ acceptorId: otherAcceptor.id }));
  const ofAcceptor = await built('chargebacks', bound);
  expect(ofAcceptor.row_count).toBe(0);
  expect(parseCsv((await download(ofAcceptor.url)).text)).toEqual([header]);
});

test('the download is a presigned S3 GET valid one hour: it works, and the same URL signed an hour and a second ago is refused', async () => {
  const report = await built('payments');
  const url = new URL(report.url);
  expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
  const signedAt = Date.parse(url.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  expect(Date.parse(report.expires_at) - signedAt).toBeGreaterThanOrEqual(3_599_000);
  expect(Date.parse(report.expires_at) - signedAt).toBeLessThanOrEqual(3_601_000);
  await download(report.url);
  // The signer of the API's URL, with its local secret, signing the same GET as if an hour had passed: a
  // function's own key against the bundles, this process's in source mode (its functions run here).
  const [accessKeyId] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const secretAccessKey = accessKeyId === process.env.AWS_ACCESS_KEY_ID ? process.env.AWS_SECRET_ACCESS_KEY! : FUNCTION_SECRET_KEY;
  const s3 = new S3Client({ endpoint: url.origin, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey } });
  const [, bucket, ...key] = url.pathname.split('/');
  const signedBefore = (ms: number) => getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: decodeURIComponent(key.join('/')) }), { expiresIn: 3600, signingDate: new Date(Date.now() - ms) });
  expect((await fetch(await signedBefore(3_590_000))).status).toBe(200);
  const expired = await fetch(await signedBefore(3_601_000));
  expect(expired.status).toBe(403);
  expect(await expired.text()).toContain('Request has expired');
});

test('scopes: report:create to ask, report:read to read (403 without)', async () => {
  const reader = client(stack.baseUrl, await merchant.key({ scopes: ['report:read', 'payment:read'] }));
  expectEnvelope(await reader.post('/v1/reports', { type: 'payments', created: { gte: from, lt: until } }), 403);
  const asker = client(stack.baseUrl, await merchant.key({ scopes: ['report:create'] }));
  const created = await asker.post('/v1/reports', { type: 'payments', created: { gte: from, lt: until } });
  expect(created.status).toBe(201);
  expectEnvelope(await asker.get(`/v1/reports/${created.body.id}`), 403);
  expectEnvelope(await asker.get('/v1/reports'), 403);
  expect((await reader.get(`/v1/reports/${created.body.id}`)).status).toBe(200);
});

test('at most 366 days: 366 are taken, a millisecond more is 422 at created.lt', async () => {
  expect((await api.post('/v1/reports', { type: 'refunds', created: { gte: '2025-01-01T00:00:00Z', lt: '2026-01-02T00:00:00Z' } })).status).toBe(201);
  expectEnvelope(await api.post('/v1/reports', { type: 'refunds', created: { gte: '2025-01-01T00:00:00Z', lt: '2026-01-02T00:00:00.001Z' } }), 422, 'created.lt');
});

test('400 for the shape; 422 for a value missing (as every body of the service) and a range that does not end after it starts', async () => {
  const range = { gte: from, lt: until };
  expectEnvelope(await api.post('/v1/reports', { type: 'settlements', created: range }), 400, 'type');
  expectEnvelope(await api.post('/v1/reports', { type: 'payments', created: 'last month' }), 400, 'created');
  expectEnvelope(await api.post('/v1/reports', { type: 'payments' }), 422, 'created');
  expectEnvelope(await api.post('/v1/reports', { type: 'payments', created: { gte: 'yesterday', lt: until } }), 400, 'created.gte');
  expectEnvelope(await api.post('/v1/reports', { type: 'payments', created: range, status: 'paid' }), 400);
  expectEnvelope(await api.post('/v1/reports', { type: 'payments', created: { gte: until, lt: from } }), 422, 'created.lt');
  expectEnvelope(await api.post('/v1/reports', { type: 'payments', created: { gte: from, lt: from } }), 422, 'created.lt');
});

test('GET /v1/reports lists the key\'s reports newest first with the list rules; another organization\'s report is 404', async () => {
  const page = await api.get('/v1/reports?limit=2');
  expect(page.status).toBe(200);
  expect(page.body.data).toHaveLength(2);
  expect(page.body.has_more).toBe(true);
  expect(page.body.data[0].id > page.body.data[1].id).toBe(true);
  const next = await api.get(`/v1/reports?limit=2&starting_after=${page.body.data[1].id}`);
  expect(next.body.data[0].id < page.body.data[1].id).toBe(true);
  expectEnvelope(await api.get('/v1/reports?color=red'), 400);
  const stranger = await strangerClient();
  expectEnvelope(await stranger.get(`/v1/reports/${page.body.data[0].id}`), 404);
});

/** A key of another organization, allowed to read reports. */
async function strangerClient(): Promise<Api> {
  const org = await stack.directory.createOrganization('Stranger');
  const user = await stack.directory.createUser(org.id, 'member');
  return client(stack.baseUrl, (await stack.directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode: 'test', scopes: ['report:read'] })).token);
}

test('a report emits transactions.report.succeeded with the report object, without a URL', async () => {
  const report = await built('refunds');
  let events: { data: Record<string, unknown> }[] = [];
  await waitUntil(async () => {
    events = (await api.get('/v1/events?type=transactions.report.succeeded&limit=100')).body.data;
    return events.some((event) => event.data.id === report.id);
  }, 'the report event');
  const event = events.find((candidate) => candidate.data.id === report.id)!;
  expect(event.data).toEqual({ ...report, url: null, expires_at: null });
});
