import { LIMITS } from '../../../shared/limits';
import { isoMillis } from '../../../shared/time';
import { createPerson, dashboardBrowser, hiddenFieldsOf, type DashboardBrowser } from '../../support/dashboard';
import { outboxEvents } from '../../support/events';
import { client } from '../../support/http';
import { storePaidPayment } from '../../support/payments';
import { createMerchant, startTestStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/**
 * A merchant answers a chargeback from its dashboard page (product-decisions §13): accept it, or
 * dispute it with evidence texts and documents uploaded through the page's script, through the
 * API's use cases, scope and rules. Over HTTP, as a browser posts the forms and its script asks.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
let browser: DashboardBrowser;
/** A signed-in session of the merchant's owner (every permission), in test mode. */
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  api = client(stack.baseUrl, merchant.test);
  browser = dashboardBrowser(stack);
  cookie = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'owner'));
}, 60_000);
afterAll(() => stack.stop());

const PDF = Buffer.from('%PDF-1.4\n% evidence\n%%EOF\n');
const DEADLINE_PASSED = 'deadline_at has passed: the chargeback is accepted automatically';

/** A new open chargeback (test mode), its deadline 7 days away unless given. */
async function openChargeback(body: Record<string, unknown> = {}): Promise<{ id: string }> {
  const payment = await storePaidPayment(stack, merchant);
  const result = await api.post(`/v1/test_helpers/payments/${payment.id}/chargebacks`, body);
  expect(result.status).toBe(201);
  return result.body;
}

const pageOf = (id: string) => `/dashboard/chargebacks/${id}`;
const chargebackOf = async (id: string) => (await api.get(`/v1/chargebacks/${id}`)).body;
const eventTypesOf = async (id: string) => (await outboxEvents(stack, merchant.orgId)).filter((event) => event.data.id === id).map((event) => event.type);
/** The text of the inline error next to a field (`<p class="field-error" id="{form}-{field}-error">`). */
const fieldError = (html: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
const alertOf = (html: string, form: string) => new RegExp(`<p role="alert" id="${form}-error">([^<]*)</p>`).exec(html)?.[1];

/** What the page's script asks for a chosen file: the document and its presigned upload, in JSON. */
const declare = async (id: string, fields: Record<string, string>, session = cookie) =>
  fetch(`${stack.baseUrl}${pageOf(id)}/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie: session },
    body: new URLSearchParams({ csrf_token: await browser.tokenOf(session), page_mode: 'test', ...fields }).toString(),
  });

/** A PDF declared through the dashboard and sent with its upload, as the page's script does. */
async function uploadedPdf(id: string): Promise<{ id: string; url: string }> {
  const declared = await declare(id, { filename: 'receipt.pdf', content_type: 'application/pdf', size: String(PDF.length) });
  expect(declared.status).toBe(201);
  const document = await declared.json();
  const sent = await fetch(document.upload.url, { method: document.upload.method, headers: document.upload.headers, body: new Uint8Array(PDF) });
  expect(sent.status).toBe(200);
  return { id: document.id, url: document.upload.url };
}

describe("a chargeback's page offers the answers while it can be answered", () => {
  test('page: an open chargeback before its deadline, with chargeback:update -> the accept and dispute forms, each with its box, and the upload script its policy names', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const page = await browser.get(pageOf(chargeback.id), cookie);
    // Assess
    expect(page.status).toBe(200);
    expect(page.html).toContain(`action="${stack.baseUrl}${pageOf(chargeback.id)}/accept"`);
    expect(page.html).toContain(`action="${stack.baseUrl}${pageOf(chargeback.id)}/dispute"`);
    expect(page.html).toMatch(/id="accept-chargeback-confirm" name="confirm" type="checkbox" value="on">/);
    expect(page.html).toMatch(/id="dispute-chargeback-confirm" name="confirm" type="checkbox" value="on">/);
    for (const text of ['product_description', 'customer_communication', 'refund_policy', 'shipping_tracking_number', 'uncategorized_text']) {
      expect(page.html).toMatch(new RegExp(`name="evidence\\.${text}"[^>]*maxlength="${LIMITS.evidence.textLength}"`));
    }
    expect(page.html).toContain('accept="application/pdf,image/png,image/jpeg"');
    const { url } = await uploadedPdf(chargeback.id);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(policy).toContain(`connect-src 'self' ${new URL(url).origin}`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-eval');
  });

  test('evidence uploads go to the local S3 the stack prints (S3_PORT), the origin the page\'s policy names', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const page = await browser.get(pageOf(chargeback.id), cookie);
    const { url } = await uploadedPdf(chargeback.id);
    // Assess
    expect(new URL(url).origin).toBe(stack.s3Url);
    expect(/connect-src 'self' ([^;\s]+)/.exec(page.headers.get('content-security-policy')!)?.[1]).toBe(stack.s3Url);
  });

  test('page: a role without chargeback:update (support) sees no form, no script and the policy without script; its posts are refused 403', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const reader = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'support'));
    // Act
    const page = await browser.get(pageOf(chargeback.id), reader);
    const accept = await browser.submit(`${pageOf(chargeback.id)}/accept`, reader, { confirm: 'on' });
    const dispute = await browser.submit(`${pageOf(chargeback.id)}/dispute`, reader, { confirm: 'on', 'evidence.product_description': 'A lamp' });
    const declared = await declare(chargeback.id, { filename: 'receipt.pdf', content_type: 'application/pdf', size: String(PDF.length) }, reader);
    // Assess
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="confirm"');
    expect(page.html).not.toContain('<script');
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    expect(accept.status).toBe(403);
    expect(dispute.status).toBe(403);
    expect(declared.status).toBe(403);
    expect((await declared.json()).detail).toMatch(/chargeback:update/);
    expect((await chargebackOf(chargeback.id)).status).toBe('open');
  });

  test.each([
    ['past its deadline', async () => openChargeback({ deadline_at: isoMillis(Date.now() - 1000) }), DEADLINE_PASSED],
    [
      'accepted',
      async () => {
        const chargeback = await openChargeback();
        await api.post(`/v1/chargebacks/${chargeback.id}/accept`);
        return chargeback;
      },
      'A chargeback in status accepted can no longer be answered',
    ],
  ])('page: a chargeback %s shows no form; an answer posted anyway -> 422 with the reason on its page, nothing changed', async (_case, make, reason) => {
    // Prepare
    const chargeback = await make();
    const before = await chargebackOf(chargeback.id);
    // Act
    const page = await browser.get(pageOf(chargeback.id), cookie);
    const accept = await browser.submit(`${pageOf(chargeback.id)}/accept`, cookie, { confirm: 'on' });
    const dispute = await browser.submit(`${pageOf(chargeback.id)}/dispute`, cookie, { confirm: 'on', 'evidence.product_description': 'A lamp' });
    const declared = await declare(chargeback.id, { filename: 'receipt.pdf', content_type: 'application/pdf', size: String(PDF.length) });
    // Assess
    expect(page.html).not.toContain('name="confirm"');
    expect(page.html).not.toContain('<script');
    expect([accept.status, dispute.status]).toEqual([422, 422]);
    expect(alertOf(accept.html, 'accept-chargeback')).toBe(reason);
    expect(alertOf(dispute.html, 'dispute-chargeback')).toBe(reason);
    expect(declared.status).toBe(422);
    expect(await declared.json()).toMatchObject({ status: 422, attribute: 'status', detail: reason });
    expect(await chargebackOf(chargeback.id)).toEqual(before);
  });
});

describe('accept', () => {
  test('accept: ticked -> 303 back to the page, the chargeback accepted with its event, no form left', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const form = hiddenFieldsOf((await browser.get(pageOf(chargeback.id), cookie)).html, `${pageOf(chargeback.id)}/accept`);
    // Act
    const posted = await browser.post(`${pageOf(chargeback.id)}/accept`, { ...form, confirm: 'on' }, { cookie });
    // Assess
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`${stack.baseUrl}${pageOf(chargeback.id)}`);
    expect((await chargebackOf(chargeback.id)).status).toBe('accepted');
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
    const page = await browser.get(pageOf(chargeback.id), cookie);
    expect(page.html).toMatch(/data-field="status"><span class="badge[^"]*">accepted</);
    expect(page.html).not.toContain('name="confirm"');
  });

  test('accept: without its box ticked -> 422 beside the box, nothing changed; the same form ticked then accepts (its nonce was not spent)', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const form = hiddenFieldsOf((await browser.get(pageOf(chargeback.id), cookie)).html, `${pageOf(chargeback.id)}/accept`);
    // Act
    const unconfirmed = await browser.submit(`${pageOf(chargeback.id)}/accept`, cookie, form);
    // Assess
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'accept-chargeback-confirm')).toBe('Tick the box to confirm that you accept the chargeback');
    expect(unconfirmed.html).toMatch(/id="accept-chargeback-confirm" name="confirm" type="checkbox" value="on" aria-describedby="accept-chargeback-confirm-error" aria-invalid="true">/);
    expect((await chargebackOf(chargeback.id)).status).toBe('open');
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open']);
    expect((await browser.post(`${pageOf(chargeback.id)}/accept`, { ...form, confirm: 'on' }, { cookie })).status).toBe(303);
    expect((await chargebackOf(chargeback.id)).status).toBe('accepted');
  });

  test('accept: one form posted twice at once (a double click) -> accepted once, both answered with the same 303', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const form = { ...hiddenFieldsOf((await browser.get(pageOf(chargeback.id), cookie)).html, `${pageOf(chargeback.id)}/accept`), confirm: 'on' };
    // Act
    const answers = await Promise.all([1, 2].map(() => browser.post(`${pageOf(chargeback.id)}/accept`, form, { cookie })));
    // Assess
    expect(answers.map((answer) => [answer.status, answer.location])).toEqual([1, 2].map(() => [303, `${stack.baseUrl}${pageOf(chargeback.id)}`]));
    expect(await eventTypesOf(chargeback.id)).toEqual(['transactions.chargeback.open', 'transactions.chargeback.accepted']);
  });
});

describe('dispute', () => {
  test('dispute: texts and a PDF uploaded through the dashboard, ticked -> disputed, dispute.evidence holds the texts and the document; the page shows them', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const form = hiddenFieldsOf((await browser.get(pageOf(chargeback.id), cookie)).html, `${pageOf(chargeback.id)}/dispute`);
    const document = await uploadedPdf(chargeback.id);
    const texts = { product_description: 'A brass desk lamp, delivered on 2 March.', shipping_tracking_number: 'JJD0099887766', refund_policy: '' };
    // Act
    const posted = await browser.post(
      `${pageOf(chargeback.id)}/dispute`,
      { ...form, 'evidence.product_description': texts.product_description, 'evidence.shipping_tracking_number': texts.shipping_tracking_number, 'evidence.refund_policy': '', 'evidence.documents': document.id, confirm: 'on' },
      { cookie },
    );
    // Assess
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`${stack.baseUrl}${pageOf(chargeback.id)}`);
    const disputed = await chargebackOf(chargeback.id);
    expect(disputed).toMatchObject({
      status: 'disputed',
      dispute: { submitted_at: expect.any(String), evidence: { product_description: texts.product_description, shipping_tracking_number: texts.shipping_tracking_number, documents: [document.id] } },
    });
    expect(disputed.dispute.evidence).not.toHaveProperty('refund_policy');
    const page = await browser.get(pageOf(chargeback.id), cookie);
    expect(page.html).toContain(`data-field="evidence.product_description">${texts.product_description}</dd>`);
    expect(page.html).toContain(`<code>${document.id}</code>`);
    expect(page.html).not.toContain('name="confirm"');
  });

  test('dispute: without its box ticked -> 422 beside the box, the texts kept, nothing changed', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const unconfirmed = await browser.submit(`${pageOf(chargeback.id)}/dispute`, cookie, { 'evidence.customer_communication': 'Emails of 3 March' });
    // Assess
    expect(unconfirmed.status).toBe(422);
    expect(fieldError(unconfirmed.html, 'dispute-chargeback-confirm')).toBe('Tick the box to confirm that you dispute the chargeback with this evidence');
    expect(unconfirmed.html).toMatch(/name="evidence\.customer_communication"[^>]*>Emails of 3 March<\/textarea>/);
    expect((await chargebackOf(chargeback.id)).status).toBe('open');
  });

  test('dispute: no evidence -> 422 evidence above the form; a text over 20,000 characters -> 422 beside it; nothing changed', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const empty = await browser.submit(`${pageOf(chargeback.id)}/dispute`, cookie, { confirm: 'on', 'evidence.product_description': '  ' });
    const long = await browser.submit(`${pageOf(chargeback.id)}/dispute`, cookie, { confirm: 'on', 'evidence.uncategorized_text': 'x'.repeat(LIMITS.evidence.textLength + 1) });
    // Assess
    expect(empty.status).toBe(422);
    expect(alertOf(empty.html, 'dispute-chargeback')).toMatch(/evidence/);
    expect(long.status).toBe(422);
    expect(fieldError(long.html, 'dispute-chargeback-evidence-uncategorized_text')).toMatch(/20000|20,000/);
    expect((await chargebackOf(chargeback.id)).status).toBe('open');
  });

  test('dispute: a document declared but never uploaded -> 422 beside the documents, its id kept in the form', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const declared = await (await declare(chargeback.id, { filename: 'receipt.pdf', content_type: 'application/pdf', size: String(PDF.length) })).json();
    // Act
    const refused = await browser.submit(`${pageOf(chargeback.id)}/dispute`, cookie, { confirm: 'on', 'evidence.documents': declared.id });
    // Assess
    expect(refused.status).toBe(422);
    expect(fieldError(refused.html, 'dispute-chargeback-evidence-documents')).toBeDefined();
    expect(refused.html).toContain(`<input type="hidden" name="evidence.documents" value="${declared.id}">`);
    expect((await chargebackOf(chargeback.id)).status).toBe('open');
  });
});

describe("documents: the page script's request", () => {
  test('documents: a type other than PDF, PNG or JPEG, or over 4 MB -> the API envelope, 422 with its attribute', async () => {
    // Prepare
    const chargeback = await openChargeback();
    // Act
    const byType = await declare(chargeback.id, { filename: 'notes.txt', content_type: 'text/plain', size: '10' });
    const bySize = await declare(chargeback.id, { filename: 'big.pdf', content_type: 'application/pdf', size: String(LIMITS.evidence.documentBytes + 1) });
    // Assess
    expect([byType.status, bySize.status]).toEqual([422, 422]);
    expect(await byType.json()).toMatchObject({ status: 422, attribute: 'content_type' });
    expect(await bySize.json()).toMatchObject({ status: 422, attribute: 'size' });
  });

  test('documents: without the form token, or from another origin -> 403; without a session -> 401', async () => {
    // Prepare
    const chargeback = await openChargeback();
    const fields = { filename: 'receipt.pdf', content_type: 'application/pdf', size: String(PDF.length) };
    const post = (headers: Record<string, string>, body: Record<string, string>) =>
      fetch(`${stack.baseUrl}${pageOf(chargeback.id)}/documents`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body).toString() });
    const token = await browser.tokenOf(cookie);
    // Act
    const answers = await Promise.all([
      post({ cookie }, fields),
      post({ cookie, origin: 'https://evil.example' }, { ...fields, csrf_token: token }),
      post({}, { ...fields, csrf_token: token }),
    ]);
    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 401]);
    for (const answer of answers) expect((await answer.json()).detail).toEqual(expect.any(String));
  });
});
