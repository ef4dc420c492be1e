import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adyenClient } from '../../shared/acquirer/adyen-client';
import { adyenDisputes } from '../../shared/acquirer/adyen-disputes';
import { adyenNotifications } from '../../shared/acquirer/adyen-notifications';
import { adyenPayments } from '../../shared/acquirer/adyen-payments';
import type { AcquirerNotification, AcquirerNotifications, AuthorisedPayment, NotificationCheck } from '../../shared/domain/acquirer';
import { startLocalAcquirer, type LocalAcquirer } from '../../bin/local/adyen';

/**
 * The acquirer's two sides for tests: the local Adyen, the Adyen adapter pointed at it through
 * a recording proxy (every request and answer, for the contract tests), and a notification
 * endpoint that checks each batch with the adapter, as the service's will, and answers
 * `[accepted]` unless told to fail.
 */

export interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  requestBody: string;
  status: number;
  responseBody: string;
}

export interface Delivery {
  body: string;
  authorization: string | undefined;
  check: NotificationCheck;
  answeredWith: number;
}

export interface NotificationEndpoint {
  url: string;
  /** Where the hosted page sends the customer back. */
  returnUrl: string;
  deliveries: Delivery[];
  /** The notifications of the accepted batches, in the order they were accepted. */
  accepted(): AcquirerNotification[];
  /** Answer the next `count` batches with 500 (Adyen retries them). */
  failNext(count: number): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Polls `find` until it returns something; rejects naming `what` after the deadline. */
export async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startNotificationEndpoint(notifications: AcquirerNotifications): Promise<NotificationEndpoint> {
  const deliveries: Delivery[] = [];
  let failures = 0;
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.url?.startsWith('/return')) {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<!doctype html><title>Back from the acquirer</title><h1>Back from the acquirer</h1>');
    }
    const check = notifications.check({ authorization: request.headers.authorization, body });
    const answeredWith = !check.accepted ? 401 : failures > 0 ? 500 : 200;
    if (answeredWith === 500) failures -= 1;
    deliveries.push({ body, authorization: request.headers.authorization, check, answeredWith });
    response.writeHead(answeredWith, { 'content-type': 'text/plain' });
    response.end(answeredWith === 200 ? notifications.acknowledgement : 'refused');
  });
  const url = await listen(server);
  return {
    url: `${url}/notifications`,
    returnUrl: `${url}/return?payment=1`,
    deliveries,
    accepted: () => deliveries.flatMap((delivery) => (delivery.answeredWith === 200 && delivery.check.accepted ? delivery.check.notifications : [])),
    failNext(count) {
      failures = count;
    },
    close: () => close(server),
  };
}

/** A pass-through proxy that keeps every exchange between the adapter and the local Adyen. */
export async function startRecordingProxy(target: string) {
  const exchanges: Exchange[] = [];
  const server = createServer(async (request, response) => {
    const requestBody = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length' && name !== 'connection'));
    const answer = await fetch(`${target}${request.url}`, { method: request.method, headers: headers as Record<string, string>, body: requestBody || undefined }).catch(() => undefined);
    // Unreachable behind the proxy: unreachable in front of it.
    if (!answer) return void request.socket.destroy();
    const responseBody = await answer.text();
    exchanges.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, requestBody, status: answer.status, responseBody });
    const passed = ['content-type', 'idempotency-key'].flatMap((name) => (answer.headers.has(name) ? [[name, answer.headers.get(name)!]] : []));
    response.writeHead(answer.status, Object.fromEntries(passed));
    response.end(responseBody);
  });
  return { url: await listen(server), exchanges, close: () => close(server) };
}

export const MERCHANT_ACCOUNT = 'LocalShopECOM';

/** Adyen's test cards (docs.adyen.com, "Test card numbers"): a Visa and a Mastercard. */
export const CARDS = {
  visa: { number: '4111 1111 1111 1111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
  mastercard: { number: '5555 3412 4444 1115', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
};

export interface AcquirerWorld {
  local: LocalAcquirer;
  proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  endpoint: NotificationEndpoint;
  payments: ReturnType<typeof adyenPayments>;
  disputes: ReturnType<typeof adyenDisputes>;
  settings: { apiKey: string; hmacKey: string; username: string; password: string };
  /** POSTs a test control of the local Adyen. */
  control(path: string, body: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** The local Adyen with fresh credentials, and the adapter wired to it as the local stack wires it. */
export async function startAcquirerWorld(retryDelaysMs = [200, 400]): Promise<AcquirerWorld> {
  const settings = { apiKey: `test_${randomBytes(16).toString('hex')}`, hmacKey: randomBytes(32).toString('hex'), username: 'adyen-notifications', password: randomBytes(12).toString('hex') };
  const endpoint = await startNotificationEndpoint(adyenNotifications(settings));
  const local = await startLocalAcquirer({
    port: 0,
    notificationUrl: endpoint.url,
    hmacKey: settings.hmacKey,
    basicAuth: { username: settings.username, password: settings.password },
    apiKey: settings.apiKey,
    retryDelaysMs,
    // The API credential of a test account: one merchant account.
    merchantAccounts: [MERCHANT_ACCOUNT],
  });
  const proxy = await startRecordingProxy(local.url);
  const client = adyenClient({ apiKey: settings.apiKey, environment: 'test', endpoint: proxy.url });
  return {
    local,
    proxy,
    endpoint,
    payments: adyenPayments(client),
    disputes: adyenDisputes(client),
    settings,
    async control(path, body) {
      const response = await fetch(`${local.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    },
    async stop() {
      await proxy.close();
      await local.stop();
      await endpoint.close();
    },
  };
}

export type TestCard = (typeof CARDS)[keyof typeof CARDS];

/** Submits the hosted page's form as a browser would (no redirect followed): the answer's status and Location. */
export async function submitHostedForm(url: string, holderName: string, card: TestCard) {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams({ holderName, ...card }), redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

let payments = 0;

/** A payment authorised on its hosted page, once its AUTHORISATION notification was accepted. */
export async function authorisedPayment(world: AcquirerWorld, card: TestCard = CARDS.visa, minor = 2500): Promise<AuthorisedPayment> {
  payments += 1;
  const paymentId = `pay_test${payments}_${randomBytes(4).toString('hex')}`;
  const hosted = await world.payments.startHostedPayment({
    paymentId,
    amount: { minor, currency: 'EUR' },
    merchantAccount: MERCHANT_ACCOUNT,
    returnUrl: world.endpoint.returnUrl,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  await submitHostedForm(hosted.url, 'Ada Lovelace', card);
  const authorised = await notified(world, 'payment.authorized', (notification) => notification.paymentId === paymentId);
  return { paymentId, acquirerReference: authorised.acquirerReference, merchantAccount: MERCHANT_ACCOUNT };
}

/** The first accepted notification of `kind` that `matches`. */
export function notified<K extends AcquirerNotification['kind']>(world: AcquirerWorld, kind: K, matches: (notification: Extract<AcquirerNotification, { kind: K }>) => boolean) {
  return waitFor(
    () => world.endpoint.accepted().find((notification): notification is Extract<AcquirerNotification, { kind: K }> => notification.kind === kind && matches(notification as Extract<AcquirerNotification, { kind: K }>)),
    `a ${kind} notification`,
  );
}
