import { createHash } from 'node:crypto';
import { LOCAL_MERCHANT_ACCOUNT } from '../../../bin/local/acquirer';
import { ChargebackSchema } from '../../../shared/domain/chargebacks';
import { outboxEvents } from '../../support/events';
import { expectEnvelope } from '../../support/http';
import { pdfPages, pngOf } from '../../support/pdf';
import { acquirerControl, chargebacksOf, disputeAtAcquirer, paidLivePayment, suppliedAtAcquirer, withLiveStack, waitFor } from '../../support/live';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * In live mode a merchant's answer goes to the acquirer first (product-decisions §13): accepting
 * is Adyen's acceptDispute, disputing is its defense reasons, each document supplied, then the
 * defense; the chargeback moves only once Adyen took the answer. Against the local Adyen, which
 * records what each dispute got.
 */
describe('live answers: the acquirer takes the answer first', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;

  withLiveStack((started) => ({ stack, merchant, live } = started));

  const PDF = Buffer.from('%PDF-1.4\n% proof of delivery\n%%EOF\n');
  const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

  /** A live chargeback the acquirer's dispute opened, and the dispute's reference at the acquirer. */
  async function openLiveChargeback() {
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const raised = await acquirerControl(stack, '/_test/chargebacks', { pspReference: payment.acquirer_reference });
    expect(raised.status).toBe(201);
    const chargeback = await waitFor(async () => (await chargebacksOf(live, payment.id)).find((found) => found.status === 'open'), `the chargeback of ${payment.id}`, 30_000);
    return { chargeback, disputeReference: raised.body.disputePspReference as string };
  }

  /**
   * Each test answers a chargeback of its own. Opening one takes a live payment's whole way
   * (checkout, hosted page, notifications, capture, then the dispute's notifications): the file
   * opens them all before its tests, one after another, within one deadline; a test that finds
   * none left opens its own.
   */
  const opened: Awaited<ReturnType<typeof openLiveChargeback>>[] = [];
  beforeAll(async () => {
    for (let test = 0; test < 9; test++) opened.push(await openLiveChargeback());
  }, 360_000);
  const liveChargeback = async () => opened.shift() ?? openLiveChargeback();

  /** An evidence document of the chargeback, uploaded with the presigned URL as a merchant's browser would. */
  async function uploadedDocument(chargebackId: string, content: Buffer = PDF, contentType = 'application/pdf') {
    const declared = await live.post(`/v1/chargebacks/${chargebackId}/documents`, { filename: 'delivery.pdf', content_type: contentType, size: content.length });
    expect(declared.status).toBe(201);
    const { url, method, headers } = declared.body.upload;
    expect((await fetch(url, { method, headers, body: new Uint8Array(content) })).status).toBe(200);
    return declared.body.id as string;
  }

  const accept = (id: string) => live.post(`/v1/chargebacks/${id}/accept`);
  const dispute = (id: string, evidence: unknown) => live.post(`/v1/chargebacks/${id}/dispute`, { evidence });
  const statusOf = async (id: string) => (await live.get(`/v1/chargebacks/${id}`)).body.status;
  const eventTypesOf = async (id: string) => (await outboxEvents(stack, merchant.orgId, 'live')).filter((event) => event.data.id === id).map((event) => event.type);

  test('live accept: Adyen accepts the dispute first, then the chargeback is accepted with its event', async () => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    // Act
    const result = await accept(chargeback.id);
    // Assess
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: chargeback.id, status: 'accepted' });
    expect((await disputeAtAcquirer(stack, disputeReference)).status).toBe('accepted');
    expect(await statusOf(chargeback.id)).toBe('accepted');
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
  });

  test('live dispute: Adyen gets each document (its content, as DefenseMaterial) and the defense with its generic reason, then the chargeback is disputed with {submitted_at, evidence}', async () => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const documentId = await uploadedDocument(chargeback.id);
    const evidence = { product_description: 'A concert ticket, scanned at the door', shipping_tracking_number: 'JJD000390007770001', documents: [documentId] };
    // Act
    const result = await dispute(chargeback.id, evidence);
    // Assess
    expect(result.status).toBe(200);
    expect(() => ChargebackSchema.parse(result.body)).not.toThrow();
    expect(result.body).toMatchObject({ id: chargeback.id, status: 'disputed', dispute: { submitted_at: expect.any(String), evidence } });
    expect(await disputeAtAcquirer(stack, disputeReference)).toEqual({
      disputePspReference: disputeReference,
      status: 'defended',
      defenseReasonCode: 'SupplyDefenseMaterial',
      defenseDocuments: [
        { defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', size: expect.any(Number), sha256: expect.any(String) },
        { defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', size: PDF.length, sha256: sha256(PDF) },
      ],
    });
    const statement = pdfPages((await suppliedAtAcquirer(stack, disputeReference, 0)).content).map((page) => page.text.replace(/\s+/g, ' ')).join(' ');
    expect(statement).toContain(`Product or service ${evidence.product_description}`);
    expect(statement).toContain(`Shipping tracking number ${evidence.shipping_tracking_number}`);
    expect(statement).toContain(`chargeback ${chargeback.id}`);
    expect((await live.get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({ status: 'disputed', dispute: { evidence } });
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.disputed']);
  });

  test.each([
    ['accept', (id: string) => accept(id), 'accepted'],
    ['dispute', (id: string, documentId: string) => dispute(id, { refund_policy: 'No refunds after the show', documents: [documentId] }), 'disputed'],
  ] as const)('live %s: Adyen unreachable -> 503 with Retry-After, the chargeback stays open (no event, nothing at Adyen); the retry once Adyen answers goes through', async (_answer, answer, answered) => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const documentId = await uploadedDocument(chargeback.id);
    expect((await acquirerControl(stack, `/_test/disputes/${disputeReference}/unreachable`, { requests: 1 })).status).toBe(200);
    // Act
    const unreachable = await answer(chargeback.id, documentId);
    const before = { status: await statusOf(chargeback.id), events: await eventTypesOf(chargeback.id), atAcquirer: (await disputeAtAcquirer(stack, disputeReference)).status };
    const retried = await answer(chargeback.id, documentId);
    // Assess
    expectEnvelope(unreachable, 503);
    expect(Number(unreachable.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(before).toEqual({ status: 'open', events: ['transactions.chargeback.open'], atAcquirer: 'open' });
    expect(retried.status).toBe(200);
    expect(await statusOf(chargeback.id)).toBe(answered);
    expect((await disputeAtAcquirer(stack, disputeReference)).status).toBe(answered === 'accepted' ? 'accepted' : 'defended');
  });

  test('live accept and dispute: Adyen refuses (the dispute was accepted in its Customer Area) -> 422 envelope naming the refusal, the chargeback unchanged', async () => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const documentId = await uploadedDocument(chargeback.id);
    const customerArea = await fetch(`${stack.acquirer.url}/ca/services/DisputeService/v30/acceptDispute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.acquirer.secret.apiKey },
      body: JSON.stringify({ disputePspReference: disputeReference, merchantAccountCode: LOCAL_MERCHANT_ACCOUNT }),
    });
    expect(await customerArea.json()).toEqual({ disputeServiceResult: { success: true } });
    // Act
    const results = [await accept(chargeback.id), await dispute(chargeback.id, { uncategorized_text: 'We shipped it', documents: [documentId] })];
    // Assess
    for (const result of results) expect(expectEnvelope(result, 422).detail).toMatch(/^The acquirer refused the request: Dispute cannot be (accepted|defended): it is accepted$/);
    expect((await live.get(`/v1/chargebacks/${chargeback.id}`)).body).toMatchObject({ status: 'open' });
    expect((await live.get(`/v1/chargebacks/${chargeback.id}`)).body).not.toHaveProperty('dispute');
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open']);
  });

  test('live dispute: texts only -> Adyen gets them as one PDF (every text under its heading, what the font cannot draw as code points), defended with its generic reason', async () => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const evidence = { customer_communication: 'Der Kunde bestätigte den Empfang am 3. März.\nПодтверждено.', uncategorized_text: 'Delivered to 東京 📦' };
    // Act
    const result = await dispute(chargeback.id, evidence);
    // Assess
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'disputed', dispute: { evidence } });
    const atAdyen = await disputeAtAcquirer(stack, disputeReference);
    expect(atAdyen).toMatchObject({ status: 'defended', defenseReasonCode: 'SupplyDefenseMaterial', defenseDocuments: [{ contentType: 'application/pdf' }] });
    const text = pdfPages((await suppliedAtAcquirer(stack, disputeReference, 0)).content).map((page) => page.text.replace(/\s+/g, ' ')).join(' ');
    expect(text).toContain('Communication with the customer Der Kunde bestätigte den Empfang am 3. März. Подтверждено.');
    expect(text).toContain('Other information Delivered to [U+6771 U+4EAC] [U+1F4E6]');
  });

  test('live dispute: a PNG goes to Adyen as a PDF of it (an A4 page painting the image), beside the texts', async () => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const documentId = await uploadedDocument(chargeback.id, pngOf(640, 480, { channels: 4, pixel: (x, y) => [x % 256, y % 256, 0, 200] }), 'image/png');
    // Act
    const result = await dispute(chargeback.id, { customer_communication: 'See the screenshot', documents: [documentId] });
    // Assess
    expect(result.status).toBe(200);
    expect((await disputeAtAcquirer(stack, disputeReference)).defenseDocuments.map((document) => document.contentType)).toEqual(['application/pdf', 'application/pdf']);
    const image = await suppliedAtAcquirer(stack, disputeReference, 1);
    expect(pdfPages(image.content)).toEqual([{ width: expect.closeTo(595.28, 0), height: expect.closeTo(841.89, 0), text: '', images: 1 }]);
  });

  test.each([
    ['a PDF above Adyen\'s 2,000,000 bytes', () => Buffer.concat([PDF, Buffer.alloc(2_000_001 - PDF.length, 0x20)]), 'application/pdf', /^Document doc_\w+ is a PDF of 2000001 bytes; the acquirer takes PDF files of at most 2000000 bytes$/],
    ['a JPEG whose content is a PNG', () => pngOf(8, 8), 'image/jpeg', /^Document doc_\w+ is not a JPEG file: its content does not start as one$/],
  ] as const)('live dispute: %s -> 422 at evidence.documents before anything is sent (Adyen got nothing), the chargeback still open', async (_case, content, contentType, detail) => {
    // Prepare
    const { chargeback, disputeReference } = await liveChargeback();
    const documentId = await uploadedDocument(chargeback.id, content(), contentType);
    // Act
    const result = await dispute(chargeback.id, { customer_communication: 'See the file', documents: [documentId] });
    // Assess
    expect(expectEnvelope(result, 422, 'evidence.documents').detail).toMatch(detail);
    expect(await disputeAtAcquirer(stack, disputeReference)).toMatchObject({ status: 'open', defenseDocuments: [] });
    expect(await statusOf(chargeback.id)).toBe('open');
  });
});
