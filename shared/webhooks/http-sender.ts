import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../domain/webhook-delivery';
import { BusinessRuleError } from '../errors';
import { isIpAddress, nonPublicRange } from './public-address';
import type { WebhookSettings } from './settings';

/**
 * Why a webhook URL given to the service would never be delivered from AWS, or undefined when it
 * is a public address: an IP literal, or every address a name resolves to, is checked when the URL
 * is given, not only at send time (the sender checks again, against the address it connects to).
 */
export async function nonPublicReason(url: string): Promise<string | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIpAddress(host)) return literalRefusal(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is not a public address`;
  try {
    return resolvedRefusal(host, await dnsPromises.lookup(host, { all: true }));
  } catch {
    return `${host} does not resolve`;
  }
}

/** Why an IP literal host is refused; undefined for a public address or a name. */
function literalRefusal(host: string): string | undefined {
  const range = nonPublicRange(host);
  return range && `${host} is not a public address (${range})`;
}

/** Why a name is refused: the first of its addresses that is not public, or undefined when all are. */
function resolvedRefusal(host: string, addresses: LookupAddress[]): string | undefined {
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range) return `${host} resolves to ${address}, not a public address (${range})`;
  }
  return undefined;
}

/**
 * The check where URLs are given (a refund's webhook_url, webhook endpoints): where the service
 * runs in AWS (private URLs not allowed) a URL must be https, for what deliveries carry, on a
 * public address; a 422 on `attribute` otherwise. Locally anything goes.
 */
export function createWebhookUrlCheck(settings: Pick<WebhookSettings, 'allowPrivateUrls'>) {
  return async (url: string, attribute: string): Promise<void> => {
    if (settings.allowPrivateUrls) return;
    const reason = new URL(url).protocol === 'https:' ? await nonPublicReason(url) : 'deliveries go over https only';
    if (reason) throw new BusinessRuleError(`${attribute} must be a public https address: ${reason}`, attribute);
  };
}

class RefusedAddressError extends Error {
  readonly code = 'EADDRNOTPUBLIC';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that resolves every address of the host and refuses the host when any of them
 * is not public. The connection then goes to an address that was checked, so a name that
 * changes its answer between check and connect (DNS rebinding) cannot slip through.
 */
function publicOnlyLookup(hostname: string, options: LookupAllOptions & { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = resolvedRefusal(hostname, addresses);
    if (refused) return callback(new RefusedAddressError(refused), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

function describe(error: Error & { code?: string }, timeoutMs: number): string {
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof RefusedAddressError) return `refused: ${error.message}`;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/**
 * The HTTP adapter of deliveries: one POST per attempt, bounded by `timeoutMs` from connect to
 * the end of the answer. Redirects are not followed (a 3xx is a failed attempt). Outside the
 * local stack, endpoints on non-public addresses are refused, literal or resolved.
 */
export function createHttpSender(options: { allowPrivateUrls: boolean }): WebhookSender {
  return {
    post(url, headers, body, timeoutMs) {
      const started = performance.now();
      const finish = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
        ...result,
        durationMs: Math.round(performance.now() - started),
      });
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return Promise.resolve(finish({ error: 'invalid URL' }));
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        return Promise.resolve(finish({ error: `unsupported protocol ${target.protocol}` }));
      }
      const refused = options.allowPrivateUrls ? undefined : literalRefusal(target.hostname.replace(/^\[|\]$/g, ''));
      if (refused) return Promise.resolve(finish({ error: `refused: ${refused}` }));

      return new Promise<SendResult>((resolve) => {
        let statusCode: number | undefined;
        let settled = false;
        const done = (error?: Error) => {
          if (settled) return;
          settled = true;
          resolve(finish({ ...(statusCode !== undefined ? { statusCode } : {}), ...(error ? { error: describe(error, timeoutMs) } : {}) }));
        };
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        const request = send(
          target,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            signal: AbortSignal.timeout(timeoutMs),
            ...(options.allowPrivateUrls ? {} : { lookup: publicOnlyLookup as never }),
          },
          (response: IncomingMessage) => {
            statusCode = response.statusCode;
            response.on('error', done);
            response.on('end', () => done());
            response.resume();
          },
        );
        request.on('error', done);
        request.end(body);
      });
    },
  };
}
