import Client from '@adyen/api-library/lib/src/client';
import Config, { EnvironmentEnum } from '@adyen/api-library/lib/src/config';
import LibraryConstants from '@adyen/api-library/lib/src/constants/libraryConstants';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface';
import type { IRequest } from '@adyen/api-library/lib/src/typings/requestOptions';
import { invocationDeadline } from '../deadline';
import { AcquirerRefusedError, AcquirerUnavailableError } from '../domain/acquirer';

/**
 * The library's `Client` for Adyen's APIs (Checkout v71, Dispute Service v30), with this
 * module's HTTP transport: the seam `new Client(config, httpClient)`.
 *
 * In AWS the library's own endpoints stand (test or live environment, the live URL prefix).
 * In the local stack `endpoint` names the local Adyen and every request goes there, path and
 * all, through the same adapter. The transport is ours in both places so that what runs
 * locally is what ships: the library's default client opens a new TLS connection for every
 * request (a new agent each time) and speaks only https, while `fetch` keeps connections alive.
 */
export interface AdyenApiSettings {
  apiKey: string;
  environment: 'test' | 'live';
  /** The company's prefix of Adyen's live endpoints; required in live. */
  liveEndpointUrlPrefix?: string;
  /** The local Adyen's URL (local stack only). */
  endpoint?: string;
  /** How long a request may take before the acquirer counts as unavailable (default 8 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 8_000;
/**
 * What a request's invocation keeps after its last call to Adyen: the write that records what
 * Adyen took, and the answer (as a write's conflict retries keep, shared/db/conditional.ts).
 */
const ANSWER_MARGIN_MS = 2_000;
const APPLICATION_NAME = 'payment-operations';

export function adyenClient(settings: AdyenApiSettings): Client {
  const config = new Config({
    apiKey: settings.apiKey,
    environment: settings.environment === 'live' ? EnvironmentEnum.LIVE : EnvironmentEnum.TEST,
    liveEndpointUrlPrefix: settings.liveEndpointUrlPrefix,
    applicationName: APPLICATION_NAME,
  });
  return new Client(config, fetchTransport(settings.endpoint, settings.timeoutMs ?? DEFAULT_TIMEOUT_MS));
}

/**
 * Sends what the library's services build, with the headers its own client sets, and turns
 * every answer that is not a success into the port's errors: nothing of Adyen's error shapes
 * leaves the adapter.
 */
function fetchTransport(endpoint: string | undefined, timeoutMs: number): ClientInterface {
  return {
    async request(url: string, json: string, config: Config, _isApiKeyRequired: boolean, options: IRequest.Options = {}) {
      // The operations the adapter calls are POSTs with a JSON body and no query parameters.
      const destination = endpoint ? `${endpoint.replace(/\/$/, '')}${new URL(url).pathname}` : url;
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'X-API-Key': config.apiKey ?? '',
        'User-Agent': `${config.applicationName} ${LibraryConstants.LIB_NAME}/${LibraryConstants.LIB_VERSION}`,
        'adyen-library-name': LibraryConstants.LIB_NAME,
        'adyen-library-version': LibraryConstants.LIB_VERSION,
      };
      if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
      // Within a request, a call that cannot end before the invocation must answer is not made:
      // a dispute's several calls to a slow Adyen end in a 503 with Retry-After, not a timeout.
      const budget = Math.min(timeoutMs, invocationDeadline() - ANSWER_MARGIN_MS - Date.now());
      if (budget <= 0) throw new AcquirerUnavailableError('no time left in the invocation');
      let status: number;
      let body: string;
      let retryAfter: string | null;
      try {
        // A redirect would carry the API key to wherever it points: Adyen's APIs answer directly.
        const response = await fetch(destination, { method: options.method ?? 'POST', headers, body: json, redirect: 'manual', signal: AbortSignal.timeout(budget) });
        ({ status } = response);
        retryAfter = response.headers.get('retry-after');
        body = await response.text();
      } catch (error) {
        throw new AcquirerUnavailableError((error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
      }
      if (status >= 200 && status < 300 && isJson(body)) return body;
      throw failure(status, body, retryAfter);
    },
  };
}

function isJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * A refusal is Adyen saying no to this request (400, 403, 404, 422: the documents' ServiceError).
 * Everything else means the request may be tried again: a server error, a throttle, a redirect,
 * an answer that is not JSON, or a refusal of the service's own API key (401, a configuration
 * fault that the alarm on the error names, not the caller's).
 */
function failure(status: number, body: string, retryAfter: string | null): Error {
  if (status === 400 || status === 403 || status === 404 || status === 422) {
    const error = serviceError(body);
    return new AcquirerRefusedError(error.message ?? `HTTP ${status}`, error.errorCode);
  }
  const seconds = Number(retryAfter);
  return new AcquirerUnavailableError(status < 300 ? 'an answer that is not JSON' : `HTTP ${status}`, Number.isInteger(seconds) && seconds > 0 ? seconds : undefined);
}

function serviceError(body: string): { message?: string; errorCode?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { message, errorCode } = parsed as Record<string, unknown>;
    return { message: typeof message === 'string' ? message : undefined, errorCode: typeof errorCode === 'string' ? errorCode : undefined };
  } catch {
    return {};
  }
}
