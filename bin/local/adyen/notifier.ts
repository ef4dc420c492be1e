import { createHmac } from 'node:crypto';
import { NO_FAULTS, type Faults } from '../faults';

/** A standard webhook's item (Webhooks v1 `NotificationRequestItem`), before it is signed. */
export interface NotificationItem {
  pspReference: string;
  originalReference?: string;
  merchantAccountCode: string;
  merchantReference: string;
  eventCode: string;
  eventDate: string;
  success: 'true' | 'false';
  reason?: string;
  paymentMethod?: string;
  operations?: string[];
  amount: { value: number; currency: string };
  additionalData?: Record<string, string>;
}

export interface NotifierOptions {
  /** Where notifications go; a function when the receiver's address is known only after the local Adyen listens. */
  url: string | (() => string);
  /** Hex, as Adyen's Customer Area shows it. */
  hmacKey: string;
  basicAuth: { username: string; password: string };
  /** The waits before each retry of an unaccepted batch; the last one repeats until `RETRY_FOR_MS`. */
  retryDelaysMs: number[];
  /** `adyen.duplicate-notification` and `adyen.reordered-notification` (FAULTS). */
  faults?: Faults;
}

/** A notification held back (`adyen.reordered-notification`) goes out after the next one, or after this long when none comes. */
const HELD_BACK_MS = 2_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Adyen's retry queue (docs.adyen.com, "Troubleshoot webhooks"): these intervals, then every 8 hours, for 30 days. */
export const ADYEN_RETRY_DELAYS_MS = [2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];
const RETRY_FOR_MS = 30 * 24 * HOUR;
/** How long Adyen waits for an answer before it counts the attempt as failed. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Adyen's signature of a standard webhook's item: HMAC-SHA256, with the hex key's bytes, of
 * `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`,
 * in Base64. Written here from Adyen's documentation, not with the library the adapter checks it with.
 */
export function signature(item: NotificationItem, hmacKey: string): string {
  const signed = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
  return createHmac('sha256', Buffer.from(hmacKey, 'hex')).update(signed, 'utf8').digest('base64');
}

interface Pending {
  body: string;
  firstAttemptAt: number;
  failures: number;
}

/**
 * Sends each item as a batch of its own (`NotificationRequest`, as Adyen does today), with Basic
 * credentials and the item's HMAC in `additionalData.hmacSignature`. A batch counts as delivered
 * when the answer is 2xx with `[accepted]`. As in Adyen's retry queue: every batch is tried once
 * when it is created, in the order of creation; one that fails joins the queue, whose earliest
 * batch is retried after the next interval, and once it is delivered the next one is tried at once.
 * Adyen promises neither one delivery nor order ("Webhooks: duplicates and ordering"); the faults
 * send a notification twice, or hold it back until after the next.
 */
export function startNotifier(options: NotifierOptions) {
  const queue: Pending[] = [];
  const inFlight = new Set<AbortController>();
  let firstAttempts = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const authorization = `Basic ${Buffer.from(`${options.basicAuth.username}:${options.basicAuth.password}`).toString('base64')}`;
  const faults = options.faults ?? NO_FAULTS;
  let heldBack: { body: string; timer: NodeJS.Timeout } | undefined;

  /** One POST of a batch to the receiver, with the credentials, within Adyen's answer timeout. */
  async function post(body: string): Promise<Response> {
    const abort = new AbortController();
    inFlight.add(abort);
    try {
      return await fetch(typeof options.url === 'string' ? options.url : options.url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(ANSWER_TIMEOUT_MS)]),
      });
    } finally {
      inFlight.delete(abort);
    }
  }

  async function deliver(pending: Pending): Promise<boolean> {
    try {
      const response = await post(pending.body);
      const answer = await response.text();
      if (response.ok && answer.includes('[accepted]')) return true;
    } catch {
      // Unreachable, timed out or stopped: a failed attempt like any other.
    }
    pending.failures += 1;
    return false;
  }

  function retryEarliest() {
    const earliest = queue[0];
    if (stopped || !earliest || timer) return;
    const delay = options.retryDelaysMs[Math.min(earliest.failures, options.retryDelaysMs.length) - 1];
    if (Date.now() + delay - earliest.firstAttemptAt > RETRY_FOR_MS) {
      queue.shift();
      retryEarliest();
      return;
    }
    timer = setTimeout(async () => {
      let next: Pending | undefined = earliest;
      while (next && !stopped && (await deliver(next))) {
        queue.shift();
        next = queue[0];
      }
      timer = undefined;
      retryEarliest();
    }, delay);
  }

  const signed = (item: NotificationItem): NotificationItem => ({ ...item, additionalData: { ...item.additionalData, hmacSignature: signature(item, options.hmacKey) } });

  /** A batch tried once now, in the order of creation, then queued for retries. */
  function attempt(body: string) {
    const pending: Pending = { body, firstAttemptAt: Date.now(), failures: 0 };
    firstAttempts = firstAttempts.then(async () => {
      if (stopped || (await deliver(pending))) return;
      queue.push(pending);
      retryEarliest();
    });
  }

  function releaseHeldBack() {
    if (!heldBack) return;
    clearTimeout(heldBack.timer);
    const { body } = heldBack;
    heldBack = undefined;
    attempt(body);
  }

  return {
    send(item: NotificationItem) {
      const body = JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: signed(item) }] });
      if (!heldBack && faults.strikes('adyen.reordered-notification', item.eventCode)) {
        heldBack = { body, timer: setTimeout(releaseHeldBack, HELD_BACK_MS) };
        return;
      }
      attempt(body);
      if (faults.strikes('adyen.duplicate-notification', item.eventCode)) attempt(body);
      releaseHeldBack();
    },
    /**
     * The test control `POST /_test/notifications` (product-decisions §12), as Adyen's "test
     * notification": the items as one batch, each signed unless it carries a signature already,
     * posted once (never queued nor retried). Answers the receiver's status and body (its JSON
     * when it answered JSON); unreachable or timed out, status 0 and the failure as the body.
     */
    async sendOnce(batch: { live: 'true' | 'false'; notificationItems: NotificationItem[] }): Promise<{ status: number; body: unknown }> {
      const items = batch.notificationItems.map((item) => ({ NotificationRequestItem: item.additionalData?.hmacSignature === undefined ? signed(item) : item }));
      try {
        const response = await post(JSON.stringify({ live: batch.live, notificationItems: items }));
        const text = await response.text();
        const json = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
        return { status: response.status, body: json ? JSON.parse(text) : text };
      } catch (error) {
        return { status: 0, body: (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable' };
      }
    },
    async stop() {
      stopped = true;
      if (heldBack) clearTimeout(heldBack.timer);
      clearTimeout(timer);
      for (const abort of inFlight) abort.abort();
      await firstAttempts;
    },
  };
}

export type Notifier = ReturnType<typeof startNotifier>;
