import type { FaultKind, FaultPlan } from '../../../bin/local/faults';
import { client } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';

/**
 * The local Adyen's faults (FAULTS, bin/local/faults.ts), each injected once into a live
 * payment: an API request answered 500 or too late, a notification sent twice or out of order.
 * Every authorised payment ends paid once and captured exactly once, credited once.
 */
jest.setTimeout(180_000);

let stack: TestStack;
let merchant: Merchant;
let live: Api;

beforeAll(async () => {
  ({ stack, merchant } = await startMerchantStack({ background: true }));
  live = client(stack.baseUrl, merchant.live);
});
afterAll(() => stack.stop());

const CARD = { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' };
const once = (kind: FaultKind, only: string[]): FaultPlan => ({ seed: 8, rates: { [kind]: 1 }, limits: { [kind]: 1 }, only: { [kind]: only } });
const CAPTURE = 'post-payments-paymentPspReference-captures';
/** What the checkout page answered, in order. */
const pageAnswers: number[] = [];

/** A customer pays a new live link: its checkout page, Pay, the local Adyen's hosted form with the test card; the payment's id. */
async function livePayment(): Promise<string> {
  const link = (await live.post('/v1/payment_links', { amount: { value: '12.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  // A page answered 503 (Adyen unreachable) is opened again, as a customer reloads it.
  let page: Response;
  let cookie = '';
  do {
    page = await fetch(link.links.checkout.href, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
    cookie = page.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') || cookie;
    pageAnswers.push(page.status);
  } while (page.status >= 500);
  const paymentId = /name="payment_id" value="([^"]+)"/.exec(await page.text())![1];
  const pay = await fetch(link.links.checkout.href, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ payment_id: paymentId, outcome: 'paid' }),
    redirect: 'manual',
  });
  const back = await fetch(pay.headers.get('location')!, { method: 'POST', body: new URLSearchParams(CARD), redirect: 'manual' });
  expect(back.status).toBe(303);
  return paymentId;
}

/** Paid, captured at the local Adyen exactly its amount, credited once: the minute job runs meanwhile, as the schedule would. */
async function expectCapturedOnce(paymentId: string) {
  let payment: { status: string; acquirer_reference: string | null } = { status: 'open', acquirer_reference: null };
  await waitUntil(async () => {
    payment = (await live.get(`/v1/payments/${paymentId}`)).body;
    if (payment.acquirer_reference) {
      const state = await (await fetch(`${stack.acquirer.url}/_test/payments/${payment.acquirer_reference}`)).json();
      if (state.captured >= state.amount.value) return true;
    }
    await stack.runMinuteJobs();
    return false;
  }, `payment ${paymentId} captured`, { timeoutMs: 60_000, intervalMs: 200 });
  expect(payment.status).toBe('paid');
  const state = await (await fetch(`${stack.acquirer.url}/_test/payments/${payment.acquirer_reference}`)).json();
  expect([state.captured, state.amount.value]).toEqual([1200, 1200]);
  await creditsRolled(stack, merchant.orgId, 'live');
  const ledger = (await live.get(`/v1/balance_transactions?source=${paymentId}`)).body.data;
  expect(ledger.map((entry: { type: string; amount: { value: string } }) => [entry.type, entry.amount.value])).toEqual([['payment', '12.00']]);
}

test("Adyen answers the hosted session's creation 500 once: the checkout page answers 503, the customer opens it again and pays once", async () => {
  await stack.setFaults(once('adyen.error', ['post-sessions']));
  pageAnswers.length = 0;
  const paymentId = await livePayment();
  expect(pageAnswers).toEqual([503, 200]);
  await expectCapturedOnce(paymentId);
  expect(stack.faults()['adyen.error']).toBe(1);
  await stack.setFaults(undefined);
});

test('Adyen takes the capture and answers too late once: sent again with its idempotency key, captured once', async () => {
  await stack.setFaults(once('adyen.timeout', [CAPTURE]));
  const paymentId = await livePayment();
  await expectCapturedOnce(paymentId);
  expect(stack.faults()['adyen.timeout']).toBe(1);
  await stack.setFaults(undefined);
});

test('Adyen sends the AUTHORISATION twice: paid once, captured once', async () => {
  await stack.setFaults(once('adyen.duplicate-notification', ['AUTHORISATION']));
  const paymentId = await livePayment();
  await expectCapturedOnce(paymentId);
  expect(stack.faults()['adyen.duplicate-notification']).toBe(1);
  await stack.setFaults(undefined);
});

test("Adyen holds one AUTHORISATION back until after the next payment's: both paid once, captured once", async () => {
  await stack.setFaults(once('adyen.reordered-notification', ['AUTHORISATION']));
  const first = await livePayment();
  const second = await livePayment();
  await expectCapturedOnce(second);
  await expectCapturedOnce(first);
  expect(stack.faults()['adyen.reordered-notification']).toBe(1);
  await stack.setFaults(undefined);
});
