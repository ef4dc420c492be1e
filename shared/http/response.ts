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

export function urlsFor(event: ApiEvent): PublicUrls {
  config ??= loadConfig();
  return publicUrls(config, requestBaseUrl(event));
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
