import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from '../../../shared/zod';
import { adyenContract, type AdyenOperation } from './contract';
import { closedPage, paymentForm, returnTo } from './hosted-page';
import { AdyenServiceError, createLedger, type Ledger } from './ledger';
import { ADYEN_RETRY_DELAYS_MS, startNotifier, type NotificationItem, type NotifierOptions } from './notifier';
import { addCounts, faultsOf, type FaultKind, type FaultPlan } from '../faults';

/**
 * The local Adyen (product-decisions §12): the subset of Checkout v71 and Dispute Service v30 that
 * the adapter calls, at the documents' paths (`/v71/...`, `/ca/services/DisputeService/v30/...`),
 * so that the same adapter reaches it by swapping the origin; a hosted payment page per session;
 * signed notifications in batches, retried until accepted; and the test controls under `/_test/`
 * (§12's four, `POST /_test/notifications` among them; `GET /_test/payments/{pspReference}` and
 * `GET /_test/disputes/{pspReference}`: what became of a payment or a dispute here;
 * `GET /_test/disputes/{pspReference}/documents/{n}`: the content of the nth document it was
 * supplied; `POST /_test/disputes/{pspReference}/unreachable`
 * `{requests?}`: the next requests about that dispute go unanswered).
 * Part of the local stack only: nothing under `functions/` or the rest of `shared/` imports it.
 */
export interface LocalAcquirerOptions {
  /** ACQUIRER_PORT (default 3001); 0 takes a free port. */
  port?: number;
  host?: string;
  /** Where the notifications go (the service's `POST /acquirer/adyen/notifications`). */
  notificationUrl: NotifierOptions['url'];
  /** The HMAC key the notifications are signed with, hex. */
  hmacKey: string;
  /** The notifications' Basic credentials. */
  basicAuth: { username: string; password: string };
  /** The API key requests must carry in `X-API-Key`. */
  apiKey: string;
  /** The waits between retries of an unaccepted notification (default: Adyen's own schedule, minutes to hours). */
  retryDelaysMs?: number[];
  /** The merchant accounts the API key may act for (default: any). */
  merchantAccounts?: string[];
  /** Its faults (FAULTS): API requests answered 500 or too late, notifications twice or out of order. */
  faults?: FaultPlan;
}

export interface LocalAcquirer {
  url: string;
  /** The faults injected so far, by kind. */
  faults(): Partial<Record<FaultKind, number>>;
  /** Other faults from now on (none: undefined). */
  setFaults(plan: FaultPlan | undefined): void;
  stop(): Promise<void>;
}

/** How long an answer `adyen.timeout` holds back waits at most for its caller to give up. */
const LATE_ANSWER_MS = 60_000;

export const DEFAULT_ACQUIRER_PORT = 3001;
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const HOSTED_PAGE = /^\/checkoutshopper\/sessions\/([A-Za-z0-9]+)$/;
const OUTCOME = /^\/_test\/disputes\/([A-Za-z0-9]+)\/outcome$/;
const UNREACHABLE = /^\/_test\/disputes\/([A-Za-z0-9]+)\/unreachable$/;
const PAYMENT_STATE = /^\/_test\/payments\/([A-Za-z0-9]+)$/;
const DISPUTE_STATE = /^\/_test\/disputes\/([A-Za-z0-9]+)$/;
const SUPPLIED_DOCUMENT = /^\/_test\/disputes\/([A-Za-z0-9]+)\/documents\/(\d+)$/;

const ChargebackControl = /* @__PURE__ */ (() =>
  z.object({ pspReference: z.string(), amount: z.optional(z.object({ value: z.int(), currency: z.string() })), reasonCode: z.optional(z.string()) }))();
const OutcomeControl = /* @__PURE__ */ (() => z.object({ outcome: z.enum(['won', 'lost']) }))();
const UnreachableControl = /* @__PURE__ */ (() => z.object({ requests: z.optional(z.int().check(z.minimum(1), z.maximum(100))) }))();
const RefundFailureControl = /* @__PURE__ */ (() =>
  z.object({ paymentPspReference: z.string(), eventCode: z.optional(z.enum(['REFUND', 'REFUND_FAILED'])) }))();
/** The items' fields are the Webhooks document's to check (`notificationProblems`), not this schema's. */
const NotificationsControl = /* @__PURE__ */ (() =>
  z.object({
    notificationItems: z.array(z.object({ NotificationRequestItem: z.record(z.string(), z.unknown()) })).check(z.minLength(1)),
    live: z.optional(z.enum(['true', 'false'])),
  }))();

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const unauthorized = () => new AdyenServiceError(401, '000', 'HTTP Status Response - Unauthorized', 'security');
const unparsable = () => new AdyenServiceError(400, '702', 'Unexpected input: the body is not JSON', 'validation');

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new AdyenServiceError(413, '000', 'Request entity too large', 'validation'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw unparsable();
  }
}

/** What Adyen answers a body its schema refuses: a missing field is 422, any other fault 400. */
function validated(operation: AdyenOperation, value: unknown) {
  const errors = adyenContract().violations(operation.document, operation.request, value);
  const missing = errors.find((error) => error.keyword === 'required');
  if (missing) throw new AdyenServiceError(422, '100', `Required field '${(missing.params as { missingProperty: string }).missingProperty}' is not provided.`, 'validation');
  if (errors.length > 0) {
    const [first] = errors;
    throw new AdyenServiceError(400, '702', `Structure of ${operation.request.split('/').pop()} is not valid: ${first.instancePath || '/'} ${first.message}`, 'validation');
  }
  // Checked against the operation's documented schema, of which the ledger's parameter types are a part.
  return value as never;
}

function control<T>(schema: z.ZodMiniType<T>, body: string): T {
  const parsed = schema.safeParse(parseJson(body));
  if (!parsed.success) throw new AdyenServiceError(400, '702', `Unexpected input: ${z.prettifyError(parsed.error)}`, 'validation');
  return parsed.data;
}

export async function startLocalAcquirer(options: LocalAcquirerOptions): Promise<LocalAcquirer> {
  const host = options.host ?? '127.0.0.1';
  const faults = { api: faultsOf(options.faults, 'adyen'), notifications: faultsOf(options.faults, 'adyen notifications') };
  const notifier = startNotifier({
    url: options.notificationUrl,
    hmacKey: options.hmacKey,
    basicAuth: options.basicAuth,
    retryDelaysMs: options.retryDelaysMs ?? ADYEN_RETRY_DELAYS_MS,
    faults: faults.notifications,
  });
  const ledger = createLedger({ send: notifier.send, merchantAccounts: options.merchantAccounts });
  /** Checkout's idempotency keys: per API key (a company account), the first answer kept and replayed. */
  const idempotent = new Map<string, Answer>();
  /** Per dispute, how many more Dispute Service requests about it go unanswered (the test control). */
  const cutOff = new Map<string, number>();
  let base = '';

  async function api(operation: AdyenOperation, headers: IncomingHttpHeaders, body: string): Promise<Answer> {
    if (headers['x-api-key'] !== options.apiKey) throw unauthorized();
    const key = operation.document === 'checkout' ? headers['idempotency-key'] : undefined;
    const kept = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (kept) return kept;
    const answer = perform(ledger, operation, validated(operation, parseJson(body)));
    if (typeof key === 'string') {
      answer.headers = { 'idempotency-key': key };
      idempotent.set(key, answer);
    }
    return answer;
  }

  function perform(books: Ledger, operation: AdyenOperation, request: never): Answer {
    const psp = operation.params.paymentPspReference;
    switch (operation.operationId) {
      case 'post-sessions':
        return { status: 201, body: books.createSession(request, (id) => `${base}/checkoutshopper/sessions/${id}`) };
      case 'post-payments-paymentPspReference-captures':
        return { status: 201, body: books.capture(psp, request) };
      case 'post-payments-paymentPspReference-cancels':
        return { status: 201, body: books.cancel(psp, request) };
      case 'post-payments-paymentPspReference-refunds':
        return { status: 201, body: books.refund(psp, request) };
      case 'post-acceptDispute':
        return { status: 200, body: books.acceptDispute(request) };
      case 'post-retrieveApplicableDefenseReasons':
        return { status: 200, body: books.defenseReasons(request) };
      case 'post-supplyDefenseDocument':
        return { status: 200, body: books.supplyDefenseDocuments(request) };
      case 'post-defendDispute':
        return { status: 200, body: books.defend(request) };
      default:
        throw new AdyenServiceError(501, '000', `${operation.operationId} is not served by the local Adyen`, 'configuration');
    }
  }

  /**
   * `POST /_test/notifications` (§12): a batch only as Adyen could send it (each item valid
   * against the Webhooks document of its event code, else 400 with the problems), signed and
   * sent once; the service's answer is the control's.
   */
  async function testNotifications(body: string): Promise<Answer> {
    const { notificationItems, live = 'false' } = control(NotificationsControl, body);
    const problems = adyenContract().notificationProblems({ live, notificationItems });
    if (problems.length > 0) throw new AdyenServiceError(400, '702', `Not a batch Adyen sends: ${problems.join('; ')}`, 'validation');
    return { status: 200, body: await notifier.sendOnce({ live, notificationItems: notificationItems.map((item) => item.NotificationRequestItem as unknown as NotificationItem) }) };
  }

  async function testControl(method: string, path: string, body: string): Promise<Answer | undefined> {
    const state = PAYMENT_STATE.exec(path);
    if (method === 'GET' && state) return { status: 200, body: ledger.paymentState(state[1]) };
    const dispute = DISPUTE_STATE.exec(path);
    if (method === 'GET' && dispute) return { status: 200, body: disputeState(dispute[1]) };
    const supplied = SUPPLIED_DOCUMENT.exec(path);
    if (method === 'GET' && supplied) {
      const document = ledger.suppliedDocument(supplied[1], Number(supplied[2]));
      if (!document) throw new AdyenServiceError(404, '000', 'The dispute has no such document', 'validation');
      return { status: 200, body: document };
    }
    if (method !== 'POST') return undefined;
    if (path === '/_test/notifications') return testNotifications(body);
    if (path === '/_test/chargebacks') {
      const { pspReference, amount, reasonCode } = control(ChargebackControl, body);
      return { status: 201, body: ledger.raiseChargeback(pspReference, amount, reasonCode) };
    }
    if (path === '/_test/refunds/fail') {
      const { paymentPspReference, eventCode } = control(RefundFailureControl, body);
      ledger.failNextRefund(paymentPspReference, eventCode ?? 'REFUND');
      return { status: 200, body: { paymentPspReference, failNextRefundWith: eventCode ?? 'REFUND' } };
    }
    const outcome = OUTCOME.exec(path);
    if (outcome) return { status: 200, body: ledger.settleDispute(outcome[1], control(OutcomeControl, body).outcome) };
    const unreachable = UNREACHABLE.exec(path);
    if (unreachable) {
      const { disputePspReference } = disputeState(unreachable[1]);
      const requests = control(UnreachableControl, body).requests ?? 1;
      cutOff.set(disputePspReference, requests);
      return { status: 200, body: { disputePspReference, unansweredRequests: requests } };
    }
    throw new AdyenServiceError(404, '000', 'Not Found', 'validation');
  }

  function disputeState(reference: string) {
    const found = ledger.disputeState(reference);
    if (!found) throw new AdyenServiceError(404, '000', 'No dispute has this pspReference', 'validation');
    return found;
  }

  /** A Dispute Service request about a dispute the test control cut off: it goes unanswered, as when Adyen cannot be reached. */
  function goesUnanswered(operation: AdyenOperation, body: string): boolean {
    if (operation.document !== 'disputes' || cutOff.size === 0) return false;
    let reference: unknown;
    try {
      reference = (JSON.parse(body) as { disputePspReference?: unknown }).disputePspReference;
    } catch {
      return false;
    }
    const left = cutOff.get(String(reference));
    if (!left) return false;
    if (left === 1) cutOff.delete(String(reference));
    else cutOff.set(String(reference), left - 1);
    return true;
  }

  /** The hosted page: the form, or after Pay the redirect back to the session's returnUrl. */
  function hostedPage(method: string, id: string, body: string, response: ServerResponse) {
    const session = ledger.hostedSession(id);
    const html = (status: number, page: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page);
    };
    if (!session) return html(404, closedPage('Payment session not found', 'This payment link is not valid.'));
    if (session.expiresAt.getTime() <= Date.now()) return html(410, closedPage('Payment session expired', 'This payment session has expired.'));
    if (session.paymentPspReference) return html(409, closedPage('Payment session complete', 'This payment session has already been used.'));
    const action = `/checkoutshopper/sessions/${id}`;
    if (method === 'GET') return html(200, paymentForm(session, action));
    if (method !== 'POST') return html(405, closedPage('Method not allowed', 'Use the payment form.'));
    const fields = Object.fromEntries(new URLSearchParams(body));
    const card = { holderName: fields.holderName ?? '', number: fields.number ?? '', expiryMonth: fields.expiryMonth ?? '', expiryYear: fields.expiryYear ?? '', cvc: fields.cvc ?? '' };
    const result = ledger.pay(session, card);
    if ('error' in result) return html(422, paymentForm(session, action, result.error, card));
    response.writeHead(303, { location: returnTo(session, randomBytes(24).toString('base64url')), 'cache-control': 'no-store' });
    response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const { pathname } = new URL(request.url ?? '/', base);
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    const page = HOSTED_PAGE.exec(pathname);
    if (page) return hostedPage(method, page[1], body, response);
    const operation = adyenContract().operation(method, pathname);
    if (operation && goesUnanswered(operation, body)) return void request.socket.destroy();
    // A fault: Adyen fails the request having done nothing, or does it and answers after the caller gave up.
    if (operation && faults.api.strikes('adyen.error', operation.operationId)) throw new AdyenServiceError(500, '000', 'Internal error', 'internal');
    const late = operation !== undefined && faults.api.strikes('adyen.timeout', operation.operationId);
    const answer = operation ? await api(operation, request.headers, body) : pathname.startsWith('/_test/') ? await testControl(method, pathname, body) : undefined;
    if (!answer) throw new AdyenServiceError(404, '000', 'Not Found', 'validation');
    if (late) {
      await new Promise((resolve) => (request.socket.once('close', resolve), setTimeout(resolve, LATE_ANSWER_MS).unref()));
      if (request.socket.destroyed) return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const refusal = error instanceof AdyenServiceError ? error : new AdyenServiceError(500, '000', 'Internal error', 'configuration');
      if (!(error instanceof AdyenServiceError)) console.error('local Adyen:', error);
      response.writeHead(refusal.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(refusal.body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_ACQUIRER_PORT, host, resolve);
  });
  base = `http://${host}:${(server.address() as AddressInfo).port}`;
  // Compiled now rather than on the first request, which would wait for it.
  adyenContract();
  return {
    url: base,
    faults: () => addCounts(faults.api.injected(), faults.notifications.injected()),
    setFaults: (plan) => Object.values(faults).forEach((part) => part.replan(plan)),
    async stop() {
      await notifier.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
