import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadConfig, publicUrls, type PublicUrls, type ServiceConfig } from '../config';

/*
 * What every HTTP function shares, the API's and the pages': the event and result shapes, the
 * request's public URLs and the response mapping. Apart from shared/http/api.ts (authentication
 * and idempotency), which brings the table's adapters: a page bundles none of it.
 */

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

export interface ApiResponse {
  status: number;
  body?: unknown;
  html?: string;
  /** A static file, sent base64-encoded; `headers` carry its content-type. */
  bytes?: Buffer;
  /** A text body other than HTML or JSON (a CSV download), sent as is; `headers` carry its content-type. */
  text?: string;
  headers?: Record<string, string>;
  cookies?: string[];
}

/** Read once per cold start. */
let config: ServiceConfig | undefined;

function requestBaseUrl(event: ApiEvent): string | undefined {
  const host = event.headers?.host;
  if (!host) return undefined;
  return `${event.headers['x-forwarded-proto'] ?? 'https'}://${host}`;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'];

/**
 * A configured base on a loopback name, reached by the other one on the same port (the local
 * stack): the name it was reached by. Browsers allow WebAuthn on `localhost` and not on
 * 127.0.0.1, so the dashboard keeps that name for its forms' origin check, cookies, redirects
 * and relying party id (product-decisions §16). Any other base is kept as configured.
 */
function asReached(baseUrl: string | undefined, host: string | undefined): string | undefined {
  if (!baseUrl || !host) return baseUrl;
  const base = new URL(baseUrl);
  let reached: URL;
  try {
    reached = new URL(`${base.protocol}//${host}`);
  } catch {
    return baseUrl;
  }
  const loopback = base.protocol === 'http:' && LOOPBACK_NAMES.includes(base.hostname) && LOOPBACK_NAMES.includes(reached.hostname) && reached.port === base.port;
  if (!loopback || reached.hostname === base.hostname) return baseUrl;
  base.hostname = reached.hostname;
  return base.toString().replace(/\/$/, '');
}

export function urlsFor(event: ApiEvent): PublicUrls {
  config ??= loadConfig();
  const baseUrl = asReached(config.baseUrl, event.headers?.host);
  return publicUrls(baseUrl === config.baseUrl ? config : { ...config, baseUrl }, requestBaseUrl(event));
}

export function toResult(response: ApiResponse): ApiResult {
  if (response.bytes) {
    return { statusCode: response.status, headers: response.headers, body: response.bytes.toString('base64'), isBase64Encoded: true };
  }
  if (response.text !== undefined) {
    return { statusCode: response.status, headers: response.headers, ...(response.cookies ? { cookies: response.cookies } : {}), body: response.text };
  }
  const isHtml = response.html !== undefined;
  return {
    statusCode: response.status,
    headers: {
      'content-type': isHtml ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      ...response.headers,
    },
    ...(response.cookies ? { cookies: response.cookies } : {}),
    body: isHtml ? response.html : response.body === undefined ? '' : JSON.stringify(response.body),
  };
}
