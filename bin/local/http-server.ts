import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathParamNames, pathPattern } from '../../shared/api/operation';
import { PayloadTooLargeError } from '../../shared/errors';
import { LIMITS } from '../../shared/limits';
import type { ApiEvent, ApiResult } from '../../shared/http/response';
import { toErrorResponse } from '../../shared/http/error-envelope';
import { DEFAULT_ROUTE_KEY, type RouteInvoker, type ServedRoute } from './functions';

interface CompiledRoute {
  route: ServedRoute;
  pattern: RegExp;
  params: string[];
}

const compile = (route: ServedRoute): CompiledRoute => ({ route, pattern: pathPattern(route.path), params: pathParamNames(route.path) });

/** What a request matched: a route with its path parameters, or `$default` (no method, no path, no parameters). */
interface Matched {
  routeKey: string;
  handler: string;
  pathParameters?: Record<string, string>;
}

/** Like API Gateway: a segment that is not valid percent-encoding is passed on as written. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The body, read no further than LIMITS.requestBodyBytes: a larger one is a 413 before anything else. */
async function readBody(request: IncomingMessage): Promise<string> {
  if (Number(request.headers['content-length'] ?? 0) > LIMITS.requestBodyBytes) throw new PayloadTooLargeError(TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > LIMITS.requestBodyBytes) throw new PayloadTooLargeError(TOO_LARGE);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const TOO_LARGE = `The request body is larger than ${LIMITS.requestBodyBytes} bytes`;

/** The API Gateway HTTP API (payload 2.0) event that the deployed route would produce. */
function toEvent(request: IncomingMessage, url: URL, match: Matched, body: string): ApiEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] = 'http';
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const cookies = request.headers.cookie?.split(';').map((cookie) => cookie.trim()).filter(Boolean);
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(cookies?.length ? { cookies } : {}),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(match.pathParameters ? { pathParameters: match.pathParameters } : {}),
    ...(body ? { body } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
  };
}

export interface LocalApiServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the route table over HTTP by turning each request into the API Gateway event the
 * deployed API would send and handing it to the route's function (the handler module in this
 * process, or its bundle in artifact mode), which answers as API Gateway would. A route matches
 * its method and path exactly (HEAD only where a HEAD route is declared); a request no route
 * takes goes to `defaultRoute`, as API Gateway's `$default` route.
 */
export async function startApiServer(options: {
  routes: ServedRoute[];
  defaultRoute: string;
  port: number;
  host?: string;
  loadHandler: (name: string) => Promise<RouteInvoker>;
  onListening?: (port: number) => void;
}): Promise<LocalApiServer> {
  const compiled = options.routes.map(compile);
  const match = (method: string, path: string): Matched => {
    for (const { route, pattern, params } of compiled) {
      const values = route.method === method ? pattern.exec(path) : null;
      if (values) {
        const pathParameters = Object.fromEntries(params.map((name, i) => [name, decodePathSegment(values[i + 1])]));
        return { routeKey: `${route.method} ${route.path}`, handler: route.handler, ...(params.length ? { pathParameters } : {}) };
      }
    }
    return { routeKey: DEFAULT_ROUTE_KEY, handler: options.defaultRoute };
  };
  const handlers = new Map<string, Promise<RouteInvoker>>();
  const docsUrl = () => `${process.env.DOCS_URL ?? `${process.env.BASE_URL ?? ''}/docs`}`;

  const respond = (response: ServerResponse, result: ApiResult) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
    if (result.cookies?.length) headers['set-cookie'] = result.cookies;
    response.writeHead(result.statusCode ?? 200, headers);
    response.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
  };

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const matched = match(request.method ?? 'GET', url.pathname);
      const body = await readBody(request);
      const name = matched.handler;
      if (!handlers.has(name)) {
        // A failed import is not cached: the next request tries again.
        handlers.set(name, options.loadHandler(name).catch((error) => {
          handlers.delete(name);
          throw error;
        }));
      }
      const handler = await handlers.get(name)!;
      const result = await handler(toEvent(request, url, matched, body));
      respond(response, result);
    } catch (error) {
      const { status, envelope } = toErrorResponse(error, docsUrl());
      // The rest of an oversized body is never read: the connection closes after the answer.
      const close: Record<string, string> = error instanceof PayloadTooLargeError ? { connection: 'close' } : {};
      try {
        respond(response, { statusCode: status, headers: { 'content-type': 'application/json', ...close }, body: JSON.stringify(envelope) });
      } catch {
        response.destroy();
      }
    }
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', () => done());
  });
  const port = (server.address() as AddressInfo).port;
  options.onListening?.(port);
  return {
    server,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
