import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookSender } from '../domain/webhook-delivery';
import { BusinessRuleError } from '../errors';
import type { WebhookSettings } from './settings';

/**
 * Addresses a webhook may not reach from AWS: private, loopback, link-local, and the other
 * non-public ranges (unspecified, carrier-grade NAT, benchmarking, multicast, reserved,
 * unique-local IPv6), and the IPv6 forms that embed an IPv4 address (IPv4-compatible `::/96`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) or that were once site-local (`fec0::/10`). BlockList checks IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) against
 * the IPv4 rules.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fec0::', 10],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a webhook URL given to the service would never be delivered from AWS, or undefined when it
 * is a public address: an IP literal or a name is checked against the ranges above when given,
 * not only at send time (the sender checks again, against the address it connects to).
 */
export async function nonPublicReason(url: string): Promise<string | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isNonPublicAddress(host) ? `${host} is not a public address` : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is not a public address`;
  try {
    const addresses = await dnsPromises.lookup(host, { all: true });
    const refused = addresses.find((entry) => isNonPublicAddress(entry.address));
    return refused ? `${host} resolves to ${refused.address}, not a public address` : undefined;
  } catch {
    return `${host} does not resolve`;
  }
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
    const refused = addresses.find((entry) => isNonPublicAddress(entry.address));
    if (refused) return callback(new RefusedAddressError(`${hostname} resolves to the non-public address ${refused.address}`), []);
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
      const literal = target.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivateUrls && isNonPublicAddress(literal)) {
        return Promise.resolve(finish({ error: `refused: ${literal} is not a public address` }));
      }

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
