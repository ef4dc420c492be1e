import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { faultsOf, type FaultKind, type FaultPlan } from '../../../bin/local/faults';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { openCheckoutPage, postCheckoutForm } from '../../support/checkout-form';
import { client } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * The faults of the functions, their event sources, the merchants' endpoints and the stack
 * itself (FAULTS, bin/local/faults.ts), each injected once: every payment ends paid once and
 * credited once, every event reaches the endpoint under its one webhook-id.
 */
jest.setTimeout(180_000);

let stack: TestStack;
let merchant: Merchant;
let receiver: WebhookReceiver;
const receiverFaults = faultsOf(undefined, 'receiver');
// The queues' messages and the streams' places outlast the restart in it.
const dataDir = mkdtempSync(join(tmpdir(), 'pipeline-faults-'));

beforeAll(async () => {
  stack = await startTestStack({ background: true, restartOf: { tableName: `test-${randomUUID()}`, dataDir } });
  merchant = await createMerchant(stack);
  receiver = await startWebhookReceiver(receiverFaults);
  await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({ orgId: merchant.orgId, mode: 'test', url: receiver.url, events: ['transactions.payment.*'] });
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = () => client(stack.baseUrl, merchant.test);
/** `kind` once, where `only` says, and nothing else. */
const once = (kind: FaultKind, only?: string[]): FaultPlan => ({ seed: 3, rates: { [kind]: 1 }, limits: { [kind]: 1 }, ...(only ? { only: { [kind]: only } } : {}) });

/** A customer's checkout page and Pay; a 5xx (a killed function) is retried as a customer retries, with the same form. */
async function customerPays(linkId: string): Promise<{ paymentId: string; answers: number[] }> {
  const opened = await openCheckoutPage(stack.baseUrl, linkId);
  const answers: number[] = [];
  for (;;) {
    const paid = await postCheckoutForm(stack.baseUrl, linkId, opened, {});
    answers.push(paid.status);
    if (paid.status < 500) return { paymentId: opened.paymentId, answers };
  }
}

/** The payment paid, counted on its link, credited and announced once, and its paid event at the endpoint under one webhook-id. */
async function expectPaidOnce(linkId: string, paymentId: string) {
  expect((await api().get(`/v1/payments/${paymentId}`)).body.status).toBe('paid');
  expect((await api().get(`/v1/payment_links/${linkId}`)).body.paid_count).toBe(1);
  await creditsRolled(stack, merchant.orgId);
  const ledger = (await api().get(`/v1/balance_transactions?source=${paymentId}`)).body.data;
  expect(ledger.map((entry: { type: string }) => entry.type)).toEqual(['payment']);
  const events = (await api().get('/v1/events?type=transactions.payment.paid&limit=100')).body.data.filter((event: { data: { id: string } }) => event.data.id === paymentId);
  expect(events).toHaveLength(1);
  await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.id === events[0].id), `the paid event of ${paymentId} delivered`, 60_000);
  const ids = new Set(receiver.requests.filter((request) => request.envelope.id === events[0].id).map((request) => request.headers['webhook-id']));
  expect(ids).toEqual(new Set([events[0].id]));
}

const newLink = async () => (await api().post('/v1/payment_links', { amount: { value: '6.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, payments_limit: 5 })).body;

test("the Pay's function killed mid-invocation: the customer sees a 500, pays again, and is paid once", async () => {
  const link = await newLink();
  await stack.setFaults(once('lambda.kill', [stack.aws.functionOfRoute('POST /checkout/{id}')]));
  const { paymentId, answers } = await customerPays(link.id);
  await stack.setFaults(undefined);
  expect(stack.faults()['lambda.kill']).toBe(1);
  expect(answers[0]).toBe(500);
  expect(answers.at(-1)).toBeLessThan(500);
  await expectPaidOnce(link.id, paymentId);
});

test("the Pay's function stopped until its timeout kills it: API Gateway's 500, the customer pays again, and is paid once", async () => {
  const link = await newLink();
  await stack.setFaults(once('lambda.timeout', [stack.aws.functionOfRoute('POST /checkout/{id}')]));
  const { paymentId, answers } = await customerPays(link.id);
  await stack.setFaults(undefined);
  expect(stack.faults()['lambda.timeout']).toBe(1);
  expect(answers[0]).toBe(500);
  await expectPaidOnce(link.id, paymentId);
});

test("a table stream batch handed to the outbox processor twice: one credit, and each event delivered under one webhook-id", async () => {
  const link = await newLink();
  const before = stack.faults()['stream.redelivery'] ?? 0;
  await stack.setFaults({ seed: 4, rates: { 'stream.redelivery': 1 } });
  const { paymentId } = await customerPays(link.id);
  await creditsRolled(stack, merchant.orgId);
  // The batch comes again after it was processed once: the faults stay on until it has.
  await waitUntil(async () => (stack.faults()['stream.redelivery'] ?? 0) > before, 'a batch handed again', { timeoutMs: 30_000, intervalMs: 100 });
  await stack.setFaults(undefined);
  await expectPaidOnce(link.id, paymentId);
});

test('an SQS message of the webhook queue delivered twice: the endpoint gets the event under one webhook-id', async () => {
  const link = await newLink();
  const before = stack.faults()['sqs.redelivery'] ?? 0;
  await stack.setFaults({ seed: 5, rates: { 'sqs.redelivery': 1 }, limits: { 'sqs.redelivery': 3 } });
  const { paymentId } = await customerPays(link.id);
  await receiver.waitFor(() => (stack.faults()['sqs.redelivery'] ?? 0) > before, 'a message delivered again', 60_000);
  await stack.setFaults(undefined);
  await expectPaidOnce(link.id, paymentId);
});

test('the endpoint fails once, then hangs once: the event is delivered on a later attempt, under its one webhook-id', async () => {
  const link = await newLink();
  receiverFaults.replan({ seed: 6, rates: { 'receiver.failure': 1, 'receiver.hang': 1 }, limits: { 'receiver.failure': 1, 'receiver.hang': 1 } });
  const { paymentId } = await customerPays(link.id);
  await expectPaidOnce(link.id, paymentId);
  receiverFaults.replan(undefined);
  expect(receiverFaults.injected()).toEqual({ 'receiver.failure': 1, 'receiver.hang': 1 });
});

test('the service stopped and started again right after a Pay: the payment is credited and announced once, after the restart', async () => {
  const link = await newLink();
  const { paymentId } = await customerPays(link.id);
  jest.resetModules();
  await stack.restart();
  await expectPaidOnce(link.id, paymentId);
});

