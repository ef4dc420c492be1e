import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { ChargebackSchema } from '../../../shared/domain/chargebacks';
import { DisputeDocumentSchema } from '../../../shared/domain/dispute-documents';
import { newId } from '../../../shared/ids';
import { LIMITS } from '../../../shared/limits';
import { isoMillis } from '../../../shared/time';
import { outboxEvents } from '../../support/events';
import { storePaidPayment } from '../../support/payments';
import { client, expectEnvelope } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * A merchant's answers to a chargeback (product-decisions §13), over HTTP as a merchant makes
 * them: accept, dispute with evidence, and evidence documents uploaded to the local S3 with the
 * presigned URL the service gives.
 */
let stack: TestStack;
let merchant: Merchant;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
});
afterAll(() => stack.stop());

const HOUR = 3_600_000;
const api = (token: string) => client(stack.baseUrl, token);
const PDF = Buffer.from('%PDF-1.4\n% evidence\n%%EOF\n');


/** A new open chargeback of `owner` (test mode), with a deadline 7 days away unless given. */
async function openChargeback(owner = merchant, body: Record<string, unknown> = {}): Promise<any> {
  const payment = await storePaidPayment(stack, owner);
  const result = await api(owner.test).post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, body);
  expect(result.status).toBe(201);
  return result.body;
}

const accept = (id: string, token = merchant.test) => api(token).post(`/v1/chargebacks/${id}/accept`);
const dispute = (id: string, evidence: unknown, token = merchant.test) => api(token).post(`/v1/chargebacks/${id}/dispute`, { evidence });
const declare = (id: string, body: Record<string, unknown> = {}, token = merchant.test) =>
  api(token).post(`/v1/chargebacks/${id}/documents`, { filename: 'receipt.pdf', content_type: 'application/pdf', size: PDF.length, ...body });
const transition = (id: string, status: string) => api(merchant.test).post(`/v1/test_helpers/chargebacks/${id}/transitions`, { status });

/** The HTTP PUT a merchant's browser sends with the upload the service gave. */
const upload = (target: { url: string; method: string; headers: Record<string, string> }, body: Buffer, headers: Record<string, string> = {}) =>
  fetch(target.url, { method: target.method, headers: { ...target.headers, ...headers }, body: new Uint8Array(body) });

/** A declared document, uploaded as declared. */
async function uploadedDocument(chargebackId: string, token = merchant.test): Promise<string> {
  const document = (await declare(chargebackId, {}, token)).body;
  expect((await upload(document.upload, PDF)).status).toBe(200);
  return document.id;
}

const statusOf = async (id: string) => (await api(merchant.test).get(`/v1/chargebacks/${id}`)).body.status;
const eventTypesOf = async (owner: Merchant, id: string) => (await outboxEvents(stack, owner.orgId)).filter((event) => event.data.id === id).map((event) => event.type);

describe('accept: POST /v1/chargebacks/:id/accept', () => {
  test('accept: an open chargeback before deadline_at -> 200 accepted, with its event', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const result = await accept(chargeback.id);
    // Assess
    expect(result.status).toBe(200);
    expect(() => ChargebackSchema.parse(result.body)).not.toThrow();
    expect(result.body).toMatchObject({ id: chargeback.id, status: 'accepted' });
    expect(result.body).not.toHaveProperty('dispute');
    expect(await statusOf(chargeback.id)).toBe('accepted');
    expect(await eventTypesOf(merchant, chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
  });

  test('accept: after deadline_at -> 422 status, nothing changed', async () => {
    // Prepare
    const chargeback = await openChargeback(merchant, { deadline_at: isoMillis(Date.now() - 1000) });
    // Act
    const result = await accept(chargeback.id);
    // Assess
    expectEnvelope(result, 422, 'status');
    expect(await statusOf(chargeback.id)).toBe('open');
    expect(await eventTypesOf(merchant, chargeback.id)).toEqual(['transactions.chargeback.open']);
  });

  test.each(['accepted', 'disputed'])('accept: a chargeback already %s -> 422 status', async (status) => {
    // Prepare
    const chargeback = await openChargeback();
    expect((await transition(chargeback.id, status)).status).toBe(200);
    // Act
    const result = await accept(chargeback.id);
    // Assess
    expectEnvelope(result, 422, 'status');
    expect(await statusOf(chargeback.id)).toBe(status);
  });

  test('accept: two at once -> one 200, the other 422 status; one event', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const results = await Promise.all([accept(chargeback.id), accept(chargeback.id)]);
    // Assess
    expect(results.map((result) => result.status).sort()).toEqual([200, 422]);
    expect(await eventTypesOf(merchant, chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
  });
});

describe('dispute: POST /v1/chargebacks/:id/dispute', () => {
  test('dispute: texts and an uploaded document -> 200 disputed with dispute {submitted_at, evidence}; the event names the documents only', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const documentId = await uploadedDocument(chargeback.id);
    const evidence = { product_description: 'A blue mug', shipping_tracking_number: 'JJD000390007827763', documents: [documentId] };
    // Act
    const result = await dispute(chargeback.id, evidence);
    // Assess
    expect(result.status).toBe(200);
    expect(() => ChargebackSchema.parse(result.body)).not.toThrow();
    expect(result.body).toMatchObject({ status: 'disputed', dispute: { submitted_at: result.body.updated_at, evidence } });
    expect((await api(merchant.test).get(`/v1/chargebacks/${chargeback.id}`)).body.dispute).toEqual(result.body.dispute);
    const [event] = (await outboxEvents(stack, merchant.orgId)).filter((candidate) => candidate.type === 'transactions.chargeback.disputed' && candidate.data.id === chargeback.id);
    expect(event.data.dispute).toEqual({ submitted_at: result.body.updated_at, evidence: { documents: [documentId] } });
  });

  test(`dispute: every text at ${LIMITS.evidence.textLength} characters -> 200; one character more -> 422 at that field`, async () => {
    // Prepare
    const full = 'x'.repeat(LIMITS.evidence.textLength);
    const fields = ['product_description', 'customer_communication', 'refund_policy', 'shipping_tracking_number', 'uncategorized_text'];
    const [longest, tooLong] = [await openChargeback(), await openChargeback()];
    // Act
    const accepted = await dispute(longest.id, Object.fromEntries(fields.map((field) => [field, full])));
    const refused = await dispute(tooLong.id, { product_description: 'A mug', refund_policy: `${full}x` });
    // Assess
    expect(accepted.status).toBe(200);
    expectEnvelope(refused, 422, 'evidence.refund_policy');
    expect(await statusOf(tooLong.id)).toBe('open');
  });

  test(`dispute: a text's length counts characters (code points): ${LIMITS.evidence.textLength} emoji -> 200, one more -> 422 at that field`, async () => {
    // Prepare
    const emoji = '\u{1F4E6}'.repeat(LIMITS.evidence.textLength);
    const [longest, tooLong] = [await openChargeback(), await openChargeback()];
    // Act
    const accepted = await dispute(longest.id, { customer_communication: emoji });
    const refused = await dispute(tooLong.id, { customer_communication: `${emoji}\u{1F4E6}` });
    // Assess
    expect(accepted.status).toBe(200);
    expect(accepted.body.dispute.evidence.customer_communication).toBe(emoji);
    expectEnvelope(refused, 422, 'evidence.customer_communication');
  });

  test(`dispute: five texts of ${LIMITS.evidence.textLength} CJK characters -> 200 and kept; texts together above ${LIMITS.evidence.textsBytes} bytes in UTF-8 (five of ${LIMITS.evidence.textLength} emoji) -> 422 evidence, nothing changed`, async () => {
    // Prepare
    const fields = ['product_description', 'customer_communication', 'refund_policy', 'shipping_tracking_number', 'uncategorized_text'];
    const cjk = '\u4e2d'.repeat(LIMITS.evidence.textLength);
    const emoji = '\u{1F4E6}'.repeat(LIMITS.evidence.textLength);
    const [chinese, emojis] = [await openChargeback(), await openChargeback()];
    // Act
    const accepted = await dispute(chinese.id, Object.fromEntries(fields.map((field) => [field, cjk])));
    const refused = await dispute(emojis.id, Object.fromEntries(fields.map((field) => [field, emoji])));
    // Assess
    expect(accepted.status).toBe(200);
    expect((await api(merchant.test).get(`/v1/chargebacks/${chinese.id}`)).body.dispute.evidence).toEqual(Object.fromEntries(fields.map((field) => [field, cjk])));
    expect(expectEnvelope(refused, 422, 'evidence').detail).toContain(`${LIMITS.evidence.textsBytes} bytes in UTF-8`);
    expect(await statusOf(emojis.id)).toBe('open');
  });

  test(`dispute: the largest evidence the bound lets through (${LIMITS.evidence.textsBytes} bytes of texts, emoji included) is stored on the chargeback item within DynamoDB's 400 KB`, async () => {
    // Prepare: five full texts, 84,000 of their characters emoji (four bytes), the others three bytes: exactly the bound.
    const chargeback = await openChargeback(merchant, { reason: { code: 'R'.repeat(64), description: '\u4e2d'.repeat(500) } });
    const emoji = '\u{1F4E6}'.repeat(LIMITS.evidence.textLength);
    const mixed = '\u{1F4E6}'.repeat(4_000) + '\u4e2d'.repeat(LIMITS.evidence.textLength - 4_000);
    const evidence = { product_description: emoji, customer_communication: emoji, refund_policy: emoji, shipping_tracking_number: emoji, uncategorized_text: mixed };
    expect(Object.values(evidence).reduce((bytes, text) => bytes + Buffer.byteLength(text), 0)).toBe(LIMITS.evidence.textsBytes);
    // Act
    const stored = await dispute(chargeback.id, evidence);
    // Assess
    expect(stored.status).toBe(200);
    expect((await api(merchant.test).get(`/v1/chargebacks/${chargeback.id}`)).body.dispute.evidence).toEqual(evidence);
  });

  test('dispute: no evidence field, an empty text, or no evidence at all -> 422; a field of another type or unknown -> 400', async () => {
    const chargeback = await openChargeback();
    expectEnvelope(await dispute(chargeback.id, {}), 422, 'evidence');
    expectEnvelope(await dispute(chargeback.id, { documents: [] }), 422, 'evidence');
    expectEnvelope(await dispute(chargeback.id, { refund_policy: '' }), 422, 'evidence.refund_policy');
    expectEnvelope(await api(merchant.test).post(`/v1/chargebacks/${chargeback.id}/dispute`, {}), 422, 'evidence');
    expectEnvelope(await dispute(chargeback.id, { refund_policy: 12 }), 400);
    expectEnvelope(await dispute(chargeback.id, { photos: ['x'] }), 400);
    expect(await statusOf(chargeback.id)).toBe('open');
  });

  test(`dispute: ${LIMITS.evidence.documents + 1} documents, or one named twice -> 422 evidence.documents`, async () => {
    // Prepare
    const chargeback = await openChargeback();
    const documents = await Promise.all(Array.from({ length: LIMITS.evidence.documents + 1 }, () => uploadedDocument(chargeback.id)));
    // Act
    const tooMany = await dispute(chargeback.id, { documents });
    const twice = await dispute(chargeback.id, { documents: [documents[0], documents[0]] });
    // Assess
    expectEnvelope(tooMany, 422, 'evidence.documents');
    expectEnvelope(twice, 422, 'evidence.documents');
    expect(await statusOf(chargeback.id)).toBe('open');
  });

  test("dispute: an unknown document, another chargeback's, another organization's -> 422 evidence.documents", async () => {
    // Prepare
    const chargeback = await openChargeback();
    const otherChargebacks = await uploadedDocument((await openChargeback()).id);
    const other = await createMerchant(stack);
    const otherOrganizations = await uploadedDocument((await openChargeback(other)).id, other.test);
    // Act
    const results = [
      await dispute(chargeback.id, { documents: [newId('disputeDocument')] }),
      await dispute(chargeback.id, { documents: ['not-a-document'] }),
      await dispute(chargeback.id, { documents: [otherChargebacks] }),
      await dispute(chargeback.id, { documents: [otherOrganizations] }),
    ];
    // Assess
    for (const result of results) expectEnvelope(result, 422, 'evidence.documents');
    expect(await statusOf(chargeback.id)).toBe('open');
  });

  test('dispute: a document declared but never uploaded -> 422 evidence.documents', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const declared = (await declare(chargeback.id)).body;
    // Act
    const result = await dispute(chargeback.id, { refund_policy: 'None', documents: [declared.id] });
    // Assess
    expect(expectEnvelope(result, 422, 'evidence.documents').detail).toContain(declared.id);
    expect(await statusOf(chargeback.id)).toBe('open');
  });

  test('dispute: an object of another size or type where the document goes (written past the presigned URL, as only the local S3 allows) -> 422 evidence.documents', async () => {
    // Prepare: the local S3's store takes an unsigned PUT, which S3 refuses on a private bucket; the dispute's own check must catch it.
    const [wrongSize, wrongType] = [await openChargeback(), await openChargeback()];
    const bySize = (await declare(wrongSize.id)).body;
    const byType = (await declare(wrongType.id)).body;
    const unsigned = (url: string) => `${stack.s3StoreUrl}${new URL(url).pathname}`;
    expect((await fetch(unsigned(bySize.upload.url), { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(Buffer.concat([PDF, PDF])) })).status).toBe(200);
    expect((await fetch(unsigned(byType.upload.url), { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(PDF) })).status).toBe(200);
    // Act
    const results = [await dispute(wrongSize.id, { documents: [bySize.id] }), await dispute(wrongType.id, { documents: [byType.id] })];
    // Assess
    for (const result of results) expect(expectEnvelope(result, 422, 'evidence.documents').detail).toMatch(/uploaded as .* not the declared/);
    expect([await statusOf(wrongSize.id), await statusOf(wrongType.id)]).toEqual(['open', 'open']);
  });

  test('dispute: after deadline_at, or on a chargeback that is not open -> 422 status', async () => {
    const overdue = await openChargeback(merchant, { deadline_at: isoMillis(Date.now() - 1000) });
    const accepted = await openChargeback();
    expect((await accept(accepted.id)).status).toBe(200);
    expectEnvelope(await dispute(overdue.id, { refund_policy: 'None' }), 422, 'status');
    expectEnvelope(await dispute(accepted.id, { refund_policy: 'None' }), 422, 'status');
    expect(await statusOf(overdue.id)).toBe('open');
  });

  test('dispute: the test helper disputes with no evidence: dispute {submitted_at, evidence: {}}; a ruling keeps it as submitted', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const disputed = (await transition(chargeback.id, 'disputed')).body;
    const won = (await transition(chargeback.id, 'won')).body;
    // Assess
    expect(disputed.dispute).toEqual({ submitted_at: disputed.updated_at, evidence: {} });
    expect(won).toMatchObject({ status: 'won', dispute: disputed.dispute });
  });
});

describe('documents: POST /v1/chargebacks/:id/documents', () => {
  test('documents: 201 with a presigned PUT valid 15 minutes; the local S3 takes the file with the given headers', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const before = Date.now();
    // Act
    const result = await declare(chargeback.id, { filename: 'Delivery note.pdf' });
    const put = await upload(result.body.upload, PDF);
    // Assess
    expect(result.status).toBe(201);
    expect(() => DisputeDocumentSchema.parse(result.body)).not.toThrow();
    expect(result.body).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      object: 'dispute_document',
      filename: 'Delivery note.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
      upload: { method: 'PUT', headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(PDF.length) } },
    });
    const expiresIn = Date.parse(result.body.upload.expires_at) - before;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(put.status).toBe(200);
  });

  test('documents: the presigned URL refuses another type, another size and an altered signature (403); the document then stays unusable', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const document = (await declare(chargeback.id)).body;
    const bigger = Buffer.concat([PDF, Buffer.from('x')]);
    const tampered = new URL(document.upload.url);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    // Act
    const refusals = [
      await upload(document.upload, PDF, { 'Content-Type': 'image/png' }),
      await upload(document.upload, bigger, { 'Content-Length': String(bigger.length) }),
      await upload({ ...document.upload, url: tampered.toString() }, PDF),
    ];
    // Assess
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403]);
    expectEnvelope(await dispute(chargeback.id, { documents: [document.id] }), 422, 'evidence.documents');
  });

  test('documents: a type other than PDF, PNG or JPEG, size 0 or above 4 MiB, a filename too long -> 422 at the field; malformed -> 400', async () => {
    const chargeback = await openChargeback();
    expectEnvelope(await declare(chargeback.id, { content_type: 'image/gif' }), 422, 'content_type');
    expectEnvelope(await declare(chargeback.id, { size: 0 }), 422, 'size');
    expectEnvelope(await declare(chargeback.id, { size: LIMITS.evidence.documentBytes + 1 }), 422, 'size');
    expectEnvelope(await declare(chargeback.id, { filename: 'x'.repeat(LIMITS.evidence.filenameLength + 1) }), 422, 'filename');
    expectEnvelope(await api(merchant.test).post(`/v1/chargebacks/${chargeback.id}/documents`, { content_type: 'application/pdf', size: 1 }), 422, 'filename');
    expectEnvelope(await declare(chargeback.id, { content_type: 'pdf' }), 400, 'content_type');
    expectEnvelope(await declare(chargeback.id, { size: 1.5 }), 400, 'size');
    expectEnvelope(await declare(chargeback.id, { color: 'blue' }), 400);
    expect((await declare(chargeback.id, { size: LIMITS.evidence.documentBytes })).status).toBe(201);
  });

  test('documents: on a chargeback that is no longer open, or past its deadline -> 422 status', async () => {
    const accepted = await openChargeback();
    expect((await accept(accepted.id)).status).toBe(200);
    const overdue = await openChargeback(merchant, { deadline_at: isoMillis(Date.now() - 1000) });
    expectEnvelope(await declare(accepted.id), 422, 'status');
    expectEnvelope(await declare(overdue.id), 422, 'status');
  });
});

describe('access: scope chargeback:update, organization and mode', () => {
  const answers = [
    ['accept', (id: string, token: string) => accept(id, token)],
    ['dispute', (id: string, token: string) => dispute(id, { refund_policy: 'None' }, token)],
    ['documents', (id: string, token: string) => declare(id, {}, token)],
  ] as const;

  test.each(answers)('%s: another organization, the other mode, an unknown or malformed id -> the identical 404', async (_name, answer) => {
    // Prepare
    const chargeback = await openChargeback();
    const other = await createMerchant(stack);
    // Act
    const results = [await answer(chargeback.id, other.test), await answer(chargeback.id, merchant.live), await answer(newId('chargeback'), merchant.test), await answer('cb_nope', merchant.test)];
    // Assess
    const bodies = results.map((result) => expectEnvelope(result, 404));
    for (const body of bodies) expect(body).toEqual(bodies[2]);
    expect(await statusOf(chargeback.id)).toBe('open');
  });

  test.each(answers)('%s: a key without chargeback:update (chargeback:read alone, or every other scope) -> 403', async (_name, answer) => {
    // Prepare
    const chargeback = await openChargeback();
    const readOnly = await merchant.key({ scopes: ['chargeback:read'] });
    const allButUpdate = await merchant.key({ scopes: (await import('../../../shared/auth/principal')).SCOPES.filter((scope) => scope !== 'chargeback:update') });
    // Act
    const results = [await answer(chargeback.id, readOnly), await answer(chargeback.id, allButUpdate)];
    // Assess
    for (const result of results) expectEnvelope(result, 403);
    expect(await statusOf(chargeback.id)).toBe('open');
  });
});

describe('live: the acquirer takes the answer first (test/http/acquirer/live-answers.test.ts answers through the local Adyen)', () => {
  /** A live chargeback as the acquirer feed opens one without naming its acquirer (`acquirer.name` "Acquirer"). */
  async function fedChargeback(owner: Merchant): Promise<any> {
    const payment = await storePaidPayment(stack, owner, { mode: 'live' });
    const file = join(await mkdtemp(join(tmpdir(), 'live-chargeback-')), 'feed.json');
    await writeFile(file, JSON.stringify({ chargebacks: [{ payment_id: payment.id, reason: { code: '10.4', description: 'Fraud' }, amount: { value: '25.00', currency: 'EUR' } }] }));
    expect(await runOps(opsCommands(), ['chargeback', 'ingest', '--file', file])).toEqual({ ingested: 1 });
    return (await api(owner.live).get(`/v1/payments/${payment.id}/chargebacks`)).body.data[0];
  }

  test("live: a chargeback another acquirer's feed opened -> 422 naming that acquirer; the chargeback stays open, no event", async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const chargeback = await fedChargeback(shop);
    const document = (await declare(chargeback.id, {}, shop.live)).body;
    expect((await upload(document.upload, PDF)).status).toBe(200);
    // Act
    const results = [await accept(chargeback.id, shop.live), await dispute(chargeback.id, { refund_policy: 'None', documents: [document.id] }, shop.live)];
    // Assess
    for (const result of results) expect(expectEnvelope(result, 422).detail).toBe('This chargeback came from the acquirer Acquirer, which takes no answers through this API: answer it with that acquirer');
    expect((await api(shop.live).get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({ status: 'open' });
    expect((await outboxEvents(stack, shop.orgId, 'live')).filter((event) => event.data.id === chargeback.id).map((event) => event.type)).toEqual(['transactions.chargeback.open']);
  });
});

describe('reminders: the minute job remind-chargeback-deadlines', () => {
  const runJob = async (owner: Merchant) => (await api(owner.test).post('/v1/test_helpers/jobs/remind-chargeback-deadlines')).body;
  const remindersOf = async (owner: Merchant, id: string) =>
    (await outboxEvents(stack, owner.orgId)).filter((event) => event.type === 'transactions.chargeback.deadline_approaching' && event.data.id === id);
  const inHours = (hours: number) => isoMillis(Date.now() + hours * HOUR);

  test('reminders: the window a chargeback is in, once (71 h left: the 72-hour one; 23 h left: the 24-hour one; 100 h left: none yet); a second run sends nothing', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const [in72, in24, later] = [
      await openChargeback(shop, { deadline_at: inHours(71) }),
      await openChargeback(shop, { deadline_at: inHours(23) }),
      await openChargeback(shop, { deadline_at: inHours(100) }),
    ];
    // Act
    const first = await runJob(shop);
    const second = await runJob(shop);
    // Assess
    expect([first.processed, second.processed]).toEqual([2, 0]);
    const [reminder72] = await remindersOf(shop, in72.id);
    expect(reminder72.data).toMatchObject({ id: in72.id, status: 'open', hours_left: 72 });
    expect((await remindersOf(shop, in24.id)).map((event) => event.data.hours_left)).toEqual([24]);
    expect(await remindersOf(shop, in72.id)).toHaveLength(1);
    expect(await remindersOf(shop, later.id)).toEqual([]);
  });

  test('reminders: concurrent runs send each reminder exactly once', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const chargebacks = await Promise.all(Array.from({ length: 4 }, () => openChargeback(shop, { deadline_at: inHours(50) })));
    // Act
    const runs = await Promise.all(Array.from({ length: 4 }, () => runJob(shop)));
    // Assess
    expect(runs.reduce((sum, run) => sum + run.processed, 0)).toBe(chargebacks.length);
    for (const chargeback of chargebacks) expect(await remindersOf(shop, chargeback.id)).toHaveLength(1);
  });

  test('reminders: a chargeback answered before its reminder gets none', async () => {
    // Prepare
    const shop = await createMerchant(stack);
    const [accepted, disputed] = [await openChargeback(shop, { deadline_at: inHours(50) }), await openChargeback(shop, { deadline_at: inHours(10) })];
    expect((await accept(accepted.id, shop.test)).status).toBe(200);
    expect((await dispute(disputed.id, { refund_policy: 'None' }, shop.test)).status).toBe(200);
    // Act
    const run = await runJob(shop);
    // Assess
    expect(run.processed).toBe(0);
    expect([...(await remindersOf(shop, accepted.id)), ...(await remindersOf(shop, disputed.id))]).toEqual([]);
  });

  test('reminders: none once the deadline has passed (the deadline job accepts it)', async () => {
    const shop = await createMerchant(stack);
    const overdue = await openChargeback(shop, { deadline_at: isoMillis(Date.now() - 1000) });
    expect((await runJob(shop)).processed).toBe(0);
    expect(await remindersOf(shop, overdue.id)).toEqual([]);
  });
});
