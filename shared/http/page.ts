import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { runWithDeadline } from '../deadline';
import { toErrorResponse } from './error-envelope';
import { logger } from '../observability/logger';
import { observeRequests } from '../observability/middleware';
import { toResult, urlsFor, type ApiEvent, type ApiResponse, type ApiResult } from './response';
import type { PublicUrls } from '../config';

/** Minimal HTML escaping for text and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A whole HTML page: `head` goes after the title (styles, links), `body` is the body's content. */
export function htmlPage(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>`;
}

/** The service's icon, inline (a data: URL): a page that names it makes the browser ask for no /favicon.ico. */
export const ICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#1d4ed8'/><path d='M8 22h16M10 18v-5M16 18V9M22 18v-7' stroke='#fff' stroke-width='3' stroke-linecap='round'/></svg>",
)}">`;

/** A page of the house style (with the service's icon); `extraStyle` is appended to (and may override) its style sheet. */
export function htmlDocument(title: string, body: string, extraStyle = ''): string {
  return htmlPage(
    title,
    `${ICON_LINK}
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f5f6f8; color: #1d2330; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); overflow-wrap: break-word; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  .amount { font-size: 2rem; font-weight: 600; margin: .5rem 0 1rem; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 500; }
  input, textarea { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #b8bfcc; border-radius: 6px; }
  .actions { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; margin-top: 1.25rem; }
  button { padding: .7rem; font: inherit; border-radius: 6px; border: 1px solid #1d2330; background: #fff; cursor: pointer; }
  button[value="paid"] { background: #1d4ed8; border-color: #1d4ed8; color: #fff; grid-column: 1 / -1; }
  .note { color: #555e6e; font-size: .9rem; }
  .mode { display: inline-block; font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; background: #fde68a; padding: .1rem .4rem; border-radius: 4px; }
${extraStyle}</style>`,
    `<main>
${body}
</main>`,
  );
}

/**
 * What every page sends (product-decisions §1): it frames nothing, and unless it says it may
 * be cached (the docs' static assets), nobody keeps a copy of what it shows. A page's own
 * headers (the dashboard's stricter Content-Security-Policy) take precedence.
 */
const PAGE_HEADERS = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'cache-control': 'no-store',
};

const withPageHeaders = (result: ApiResult): ApiResult => ({ ...result, headers: { ...PAGE_HEADERS, ...result.headers } });

type PageRequest = middy.Request<ApiEvent, ApiResult, Error, Context>;

/** A HEAD request gets what GET would, headers and status, without the body. */
function headersOnlyForHead(request: PageRequest): void {
  if (request.event.requestContext?.http?.method !== 'HEAD' || !request.response) return;
  const { isBase64Encoded: _encoding, ...answer } = request.response;
  request.response = { ...answer, body: '' };
}

/** An error as a page in its readers' own words, or undefined for the house page (the status name and the detail). */
export type ErrorPage = (status: number) => string | undefined;

/** The HTML page of an error: its mapped status, in the readers' words (`ownWords`) or the house page's type and detail, never internals. */
export function errorPage(error: unknown, urls: PublicUrls, ownWords?: ErrorPage): ApiResult {
  const { status, envelope, headers } = toErrorResponse(error, urls.docs);
  return withPageHeaders(
    toResult({
      status,
      html: ownWords?.(status) ?? htmlDocument(envelope.type, `<h1>${escapeHtml(envelope.type)}</h1><p>${escapeHtml(envelope.detail)}</p>`),
      headers,
    }),
  );
}

/**
 * A handler for the customer's HTML pages: like `apiHandler`'s error mapping, but every error
 * is an HTML page with the mapped status, never JSON and never internals (`errorPage`, in the
 * readers' own words where they are not developers: the checkout's customers). HEAD (routed to
 * every page read with GET) is answered like GET, without the body.
 */
export function pageHandler(run: (event: ApiEvent, urls: PublicUrls, deadline: number) => Promise<ApiResponse>, ownWords?: ErrorPage) {
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(observeRequests())
    .use({ after: headersOnlyForHead, onError: headersOnlyForHead })
    .use({
      onError: async (request) => {
        const response = errorPage(request.error, urlsFor(request.event), ownWords);
        // The route, not the path: a link's path carries its token (an invitation's, a reset's).
        if (response.statusCode === 500) logger.error('page failed', { error: request.error as Error, route: request.event.routeKey });
        request.response = response;
      },
    })
    .handler(async (event, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis();
      return withPageHeaders(toResult(await runWithDeadline(deadline, () => run(event, urlsFor(event), deadline))));
    });
}

/** Form fields of an `application/x-www-form-urlencoded` body. */
export function formFields(event: ApiEvent): Record<string, string> {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  return Object.fromEntries(new URLSearchParams(raw));
}

/**
 * Whether the request takes an HTML page (RFC 9110 §12.5.1): no Accept header takes anything;
 * otherwise the most specific range it names that covers `text/html` (the exact type, then
 * `text` with any subtype, then any type) decides, by its `q`.
 */
export function acceptsHtml(event: ApiEvent): boolean {
  const accept = event.headers?.accept;
  if (accept === undefined || accept.trim() === '') return true;
  let specificity = -1;
  let quality = 0;
  for (const range of accept.split(',')) {
    const [mediaRange, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const matching = ['*/*', 'text/*', 'text/html'].indexOf(mediaRange);
    if (matching <= specificity) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    specificity = matching;
    quality = q === undefined ? 1 : Number(q.slice(2)) || 0;
  }
  return quality > 0;
}
