import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { NO_FAULTS, type Faults } from '../../bin/local/faults';
import { waitUntil } from './wait';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The parsed JSON body (the event envelope). */
  envelope: any;
  /** What the receiver answered; undefined while the request is held. */
  answeredWith?: number;
  /** Date.now() when the whole request had arrived. */
  receivedAt: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:{port}/hooks` */
  url: string;
  requests: ReceivedWebhook[];
  /** Requests answered 2xx. */
  delivered(): ReceivedWebhook[];
  /** Answer the next `count` requests with `status` (default 500), then 200 again. */
  failNext(count: number, status?: number): void;
  /** Answer every request with `status` (default 500). */
  failAlways(status?: number): void;
  /** Keep requests open without answering until `release`. */
  hold(): void;
  /** Answer the held requests with `status` (default 200); later ones are answered as usual. */
  release(status?: number): void;
  /** Requests received and not answered yet. */
  held(): number;
  /** Verifies a request with the Standard Webhooks library; returns the verified payload or throws. */
  verify(request: ReceivedWebhook, secret: string): unknown;
  /** Waits (polling) until `condition` holds; rejects after `timeoutMs` naming `what`. */
  waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A webhook endpoint on 127.0.0.1 for tests and the bench: records every request, answers 200
 * unless told to fail or hold, and verifies signatures with the `standardwebhooks` library. With
 * `faults` (FAULTS' `receiver.failure`, `receiver.hang`) it also fails or never answers, as a
 * merchant's endpoint does now and then.
 */
export async function startWebhookReceiver(faults: Faults = NO_FAULTS): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  let failuresLeft = 0;
  let failStatus = 500;
  let failForever = false;
  let holding = false;
  const waiting: { request: ReceivedWebhook; response: ServerResponse }[] = [];

  const answer = (received: ReceivedWebhook, response: ServerResponse, status: number) => {
    received.answeredWith = status;
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(status < 300 ? 'ok' : 'failed');
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      let envelope: unknown;
      try {
        envelope = JSON.parse(body);
      } catch {
        envelope = undefined;
      }
      const received: ReceivedWebhook = { headers, body, envelope, receivedAt: Date.now() };
      requests.push(received);
      if (holding || faults.strikes('receiver.hang', receiver.url)) return void waiting.push({ request: received, response });
      if (faults.strikes('receiver.failure', receiver.url)) return answer(received, response, 500);
      if (failForever) return answer(received, response, failStatus);
      if (failuresLeft > 0) {
        failuresLeft--;
        return answer(received, response, failStatus);
      }
      answer(received, response, 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    delivered: () => requests.filter((request) => request.answeredWith !== undefined && request.answeredWith < 300),
    failNext(count, status = 500) {
      failuresLeft = count;
      failStatus = status;
    },
    failAlways(status = 500) {
      failForever = true;
      failStatus = status;
    },
    hold() {
      holding = true;
    },
    release(status = 200) {
      holding = false;
      for (const { request, response } of waiting.splice(0)) answer(request, response, status);
    },
    held: () => waiting.length,
    verify: (request, secret) => new Webhook(secret).verify(request.body, request.headers),
    waitFor: (condition, what, timeoutMs = 20_000) =>
      waitUntil(condition, () => `${what}; received: [${requests.map((r) => `${r.envelope?.type ?? '?'}→${r.answeredWith ?? 'held'}`).join(', ')}]`, { timeoutMs }),
    close: () =>
      new Promise<void>((resolve) => {
        receiver.release(503);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
