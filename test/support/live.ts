import type { Browser, Page } from 'playwright-core';
import { LOCAL_MERCHANT_ACCOUNT } from '../../bin/local/acquirer';
import { pspReference } from '../../bin/local/adyen/ledger';
import { signature, type NotificationItem } from '../../bin/local/adyen/notifier';
import { waitFor } from './acquirer';
import { client } from './http';
import { paymentCredited } from './refunds';
import { createMerchant, startTestStack, type Api, type TestStack } from './stack';

export { waitFor };

/**
 * Live mode against the local stack's local Adyen (product-decisions §12): the customer's way
 * through the checkout and the acquirer's hosted page in Chromium, the local Adyen's test
 * controls, and notifications signed with the stack's own credentials.
 */

/** Adyen's test Visa card (docs.adyen.com, "Test card numbers"). */
export const VISA = { number: '4111 1111 1111 1111', expiryMonth: '03', expiryYear: '2030', cvc: '737' };

export async function liveLink(api: Api, acceptorId: string, extra: Record<string, unknown> = {}) {
  const created = await api.post('/v1/payment_links', { amount: { value: '25.00', currency: 'EUR' }, acceptor_id: acceptorId, description: 'Concert ticket', ...extra });
  if (created.status !== 201) throw new Error(`live link not created: ${created.status} ${created.text}`);
  return created.body as { id: string; links: { checkout: { href: string } } };
}

/** The checkout's Pay in the browser: on to the acquirer's hosted page (nothing of the card is typed on ours). */
export async function continueToAcquirer(page: Page, stack: TestStack, checkoutUrl: string): Promise<void> {
  await page.goto(checkoutUrl);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(stack.acquirer.url));
}

/** The hosted page's form filled with the test card and `holderName`, then its Pay: back on the service's thank-you page. */
export async function payOnHostedPage(page: Page, holderName: string): Promise<string> {
  await page.getByLabel('Name on card').fill(holderName);
  await page.getByLabel('Card number').fill(VISA.number);
  await page.getByLabel('Expiry month').fill(VISA.expiryMonth);
  await page.getByLabel('Expiry year').fill(VISA.expiryYear);
  await page.getByLabel('Security code').fill(VISA.cvc);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/thank-you\?/);
  return new URL(page.url()).searchParams.get('payment_id')!;
}

/** A customer of their own (a fresh browser context: their own client_key cookie) who pays a live link with `holderName`. */
export async function livePayment(browser: Browser, stack: TestStack, checkoutUrl: string, holderName = 'Ada Lovelace') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await continueToAcquirer(page, stack, checkoutUrl);
  const paymentId = await payOnHostedPage(page, holderName);
  return { page, paymentId, close: () => context.close() };
}

/** The payment once `settled` holds for it (GET /v1/payments/:id). */
export function paymentWhen(api: Api, paymentId: string, settled: (payment: any) => boolean, what = `payment ${paymentId}`) {
  return waitFor(async () => {
    const { body } = await api.get(`/v1/payments/${paymentId}`);
    return settled(body) ? body : undefined;
  }, what, 30_000);
}

/** What became of a payment at the local Adyen (its test control): authorised, refused or cancelled; captured and refunded. */
export async function atAcquirer(stack: TestStack, pspReference: string) {
  const response = await fetch(`${stack.acquirer.url}/_test/payments/${pspReference}`);
  return (await response.json()) as { status: string; captured: number; refunded: number; amount: { value: number; currency: string } };
}

export function acquirerWhen(stack: TestStack, pspReference: string, settled: (payment: Awaited<ReturnType<typeof atAcquirer>>) => boolean, what: string) {
  return waitFor(async () => {
    const state = await atAcquirer(stack, pspReference);
    return settled(state) ? state : undefined;
  }, what, 30_000);
}

/** What became of a dispute at the local Adyen (its test control): its status, the documents it got (size and digest), the reason it was defended with. */
export async function disputeAtAcquirer(stack: TestStack, disputeReference: string) {
  const response = await fetch(`${stack.acquirer.url}/_test/disputes/${disputeReference}`);
  return (await response.json()) as {
    status: string;
    defenseReasonCode: string | null;
    defenseDocuments: { defenseDocumentTypeCode: string; contentType: string; size: number; sha256: string }[];
  };
}

/** The content of the `index`th document (from 0) a dispute got at the local Adyen. */
export async function suppliedAtAcquirer(stack: TestStack, disputeReference: string, index: number) {
  const response = await fetch(`${stack.acquirer.url}/_test/disputes/${disputeReference}/documents/${index}`);
  const { contentType, content } = (await response.json()) as { contentType: string; content: string };
  return { contentType, content: Buffer.from(content, 'base64') };
}

/** POSTs one of the local Adyen's test controls. */
export async function acquirerControl(stack: TestStack, path: string, body: unknown) {
  const response = await fetch(`${stack.acquirer.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

export const NOTIFICATIONS_PATH = '/acquirer/adyen/notifications';

/**
 * The local Adyen's `POST /_test/notifications` (product-decisions §12): the items as one batch,
 * signed with the stack's HMAC key unless one carries a signature, sent once with the stack's
 * credentials. Answers the service's reply, as the control reports it.
 */
export async function notify(stack: TestStack, items: NotificationItem[]): Promise<{ status: number; body: any }> {
  const answer = await acquirerControl(stack, '/_test/notifications', { notificationItems: items.map((item) => ({ NotificationRequestItem: item })) });
  if (answer.status !== 200) throw new Error(`the local Adyen refused the batch: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A notification batch of the given items, each signed with the stack's HMAC key (or `hmacKey`), as Adyen sends one. */
export function signedBatch(stack: TestStack, items: NotificationItem[], hmacKey = stack.acquirer.secret.hmacKey): string {
  const signed = items.map((item) => ({ NotificationRequestItem: { ...item, additionalData: { ...item.additionalData, hmacSignature: signature(item, hmacKey) } } }));
  return JSON.stringify({ live: 'false', notificationItems: signed });
}

export const basicAuth = (stack: TestStack, password = stack.acquirer.secret.notificationPassword) =>
  `Basic ${Buffer.from(`${stack.acquirer.secret.notificationUsername}:${password}`).toString('base64')}`;

/** Delivers a batch to the stack's receiver as the acquirer would (`authorization` null: no header). */
export async function deliver(stack: TestStack, body: string, authorization: string | null = basicAuth(stack)) {
  const response = await fetch(`${stack.baseUrl}${NOTIFICATIONS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
    body,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/**
 * A live payment paid over plain HTTP, as a browser would post the forms: the checkout (its
 * client_key cookie), its Pay, the hosted page's form; then, once the AUTHORISATION is processed,
 * captured at the local Adyen and the capture confirmed here. Answers the payment as the API shows it.
 */
export async function paidLivePayment(stack: TestStack, live: Api, acceptorId: string, extra: Record<string, unknown> = {}) {
  const link = await liveLink(live, acceptorId, extra);
  const opened = await fetch(link.links.checkout.href, { headers: { accept: 'text/html' } });
  const cookie = opened.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  const paymentId = /name="payment_id" value="([^"]+)"/.exec(await opened.text())![1];
  const pay = await fetch(link.links.checkout.href, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ payment_id: paymentId, outcome: 'paid' }),
    redirect: 'manual',
  });
  const hosted = pay.headers.get('location')!;
  const paid = await fetch(hosted, { method: 'POST', body: new URLSearchParams({ holderName: 'Ada Lovelace', ...VISA }), redirect: 'manual' });
  if (paid.status !== 303) throw new Error(`the hosted page refused the card: ${paid.status}`);
  // Paid, then its capture confirmed by the acquirer's notification: only then are its refunds sent.
  const payment = await paymentWhen(live, paymentId, (found) => found.status === 'paid' && found.capture?.status === 'captured' && found.capture.acquirer_reference !== null);
  await paymentCredited(stack, live, paymentId);
  return payment as { id: string; acquirer_reference: string; amount: { value: string; currency: string }; capture: { status: string; acquirer_reference: string } };
}

/** An open live payment of a new link (`extra`: its other fields): its checkout opened, as a customer's browser would. */
export async function openLivePayment(live: Api, acceptorId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const link = await liveLink(live, acceptorId, extra);
  const opened = await fetch(link.links.checkout.href, { headers: { accept: 'text/html' } });
  const paymentId = /name="payment_id" value="([^"]+)"/.exec(await opened.text())?.[1];
  if (!paymentId) throw new Error(`the live checkout opened no payment: ${opened.status}`);
  return paymentId;
}

/** Adyen writes instants with an offset and whole seconds; `offsetSeconds` from now. */
export const adyenDate = (offsetSeconds = 0) => `${new Date(Date.now() + offsetSeconds * 1000).toISOString().slice(0, 19)}+00:00`;

/** A successful AUTHORISATION of a live payment of the local merchant account, as Adyen words it. */
export const authorisationItem = (paymentId: string, amount = { value: 2500, currency: 'EUR' }): NotificationItem => ({
  eventCode: 'AUTHORISATION',
  pspReference: pspReference(),
  merchantAccountCode: LOCAL_MERCHANT_ACCOUNT,
  merchantReference: paymentId,
  eventDate: adyenDate(),
  success: 'true',
  amount,
});

/**
 * A live EUR 25.00 payment paid by an AUTHORISATION sent through the test control: the local
 * Adyen knows no such payment, so it refuses the capture, which is parked. Paid and credited
 * here, its capture `pending`, and no notification of the acquirer's about it to come.
 */
export async function paidWithCapturePending(stack: TestStack, live: Api, acceptorId: string) {
  const paymentId = await openLivePayment(live, acceptorId);
  const authorisation = authorisationItem(paymentId);
  const answer = await notify(stack, [authorisation]);
  if (answer.status !== 200) throw new Error(`the AUTHORISATION was refused: ${JSON.stringify(answer)}`);
  await paymentWhen(live, paymentId, (found) => found.status === 'paid');
  await paymentCredited(stack, live, paymentId);
  return { id: paymentId, acquirer_reference: authorisation.pspReference };
}

/** A stack that processes the acquirer's notifications (background on), one merchant and an API client with its live key. */
export async function startLiveStack(env: Record<string, string> = {}) {
  const stack = await startTestStack({ background: true, env });
  const merchant = await createMerchant(stack);
  return { stack, merchant, live: client(stack.baseUrl, merchant.live) };
}

/** One live stack for the tests of a `describe`: started before them (handed to `use`), stopped after them. */
export function withLiveStack(use: (started: Awaited<ReturnType<typeof startLiveStack>>) => void, env: Record<string, string> = {}) {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    const started = await startLiveStack(env);
    stack = started.stack;
    use(started);
  }, 120_000);
  afterAll(() => stack?.stop());
}

/** A payment's chargebacks, as the API lists them. */
export const chargebacksOf = async (live: Api, paymentId: string) => (await live.get(`/v1/payments/${paymentId}/chargebacks`)).body.data as any[];
