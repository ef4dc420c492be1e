import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotFoundError, PayloadTooLargeError } from '../errors';
import { LIMITS } from '../limits';
import type { ApiEvent, ApiResult } from '../http/response';
import { toErrorResponse } from '../http/error-envelope';
import type { RouteInvoker, ServedRoute } from './functions';

interface CompiledRoute {
  route: ServedRoute;
  pattern: RegExp;
  params: string[];
}

function compile(route: ServedRoute): CompiledRoute {
  const params: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), params };
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
function toEvent(request: IncomingMessage, url: URL, match: CompiledRoute, values: string[], body: string): ApiEvent {
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
    routeKey: `${match.route.method} ${match.route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(cookies?.length ? { cookies } : {}),
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(match.params.length
      ? { pathParameters: Object.fromEntries(match.params.map((name, i) => [name, decodePathSegment(values[i])])) }
      : {}),
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
      routeKey: `${match.route.method} ${match.route.path}`,
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
 * process, or its bundle in artifact mode), which answers as API Gateway would.
 */
export async function startApiServer(options: {
  routes: ServedRoute[];
  port: number;
  host?: string;
  loadHandler: (name: string) => Promise<RouteInvoker>;
  onListening?: (port: number) => void;
}): Promise<LocalApiServer> {
  const compiled = options.routes.map(compile);
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
      let matched: { route: CompiledRoute; values: string[] } | undefined;
      for (const route of compiled) {
        if (route.route.method !== request.method) continue;
        const values = route.pattern.exec(url.pathname);
        if (values) {
          matched = { route, values: values.slice(1) };
          break;
        }
      }
      if (!matched) {
        const { status, envelope } = toErrorResponse(new NotFoundError('No such route'), docsUrl());
        return respond(response, { statusCode: status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope) });
      }
      const body = await readBody(request);
      const name = matched.route.route.handler;
      if (!handlers.has(name)) {
        // A failed import is not cached: the next request tries again.
        handlers.set(name, options.loadHandler(name).catch((error) => {
          handlers.delete(name);
          throw error;
        }));
      }
      const handler = await handlers.get(name)!;
      const result = await handler(toEvent(request, url, matched.route, matched.values, body));
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
