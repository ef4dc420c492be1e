import type { PublicUrls } from '../config';
import { LIMITS } from '../limits';
import { STATUS_TYPES } from '../http/error-envelope';
import { escapeHtml, htmlPage, ICON_LINK } from '../http/page';
import { SWAGGER_UI_VERSION } from './swagger-ui';

/**
 * The developer pages at {docs_url}: the API reference (Swagger UI over `/v1/openapi.json`,
 * its files served by the stack) and the error reference the error envelope links to.
 */

/** The pages fit a 390 px phone: the header's items wrap to a new line rather than past the edge. */
const HEADER_STYLE = `
  body { margin: 0; }
  header.site { font-family: system-ui, sans-serif; background: #1d2330; color: #fff; padding: .75rem 1.5rem; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; align-items: baseline; }
  header.site strong { font-size: 1.05rem; }
  header.site strong, header.site a { white-space: nowrap; }
  header.site a { color: #9ecbff; }
`;

/**
 * Swagger UI's long words (schema titles such as PaymentLinkRemainingPaymentsDecrementedEventData,
 * an operation's response table) break rather than widen a phone's page. Its colours that read
 * below WCAG AA's 4.5:1 (the methods' badges, links, the version badges, the schemas' expand
 * buttons) are darkened, each keeping its hue.
 */
const REFERENCE_STYLE = `${HEADER_STYLE}
  .swagger-ui .json-schema-2020-12-accordion, .swagger-ui .json-schema-2020-12-accordion__children { max-width: 100%; text-align: left; }
  .swagger-ui .json-schema-2020-12__title, .swagger-ui table td, .swagger-ui table th { overflow-wrap: anywhere; }
  .swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f69b8; }
  .swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1b7a4f; }
  .swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c62828; }
  .swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5300; }
  .swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #137563; }
  .swagger-ui .info .title small pre.version { background: #55616f; }
  .swagger-ui .info .title small.version-stamp { background: #4d6b00; }
  .swagger-ui .info a, .swagger-ui .info .base-url, .swagger-ui a.nostyle, .swagger-ui .info__extdocs { color: #1a66c2; }
  .swagger-ui .btn.authorize, .swagger-ui .btn.authorize svg { color: #1b7a4f; border-color: #1b7a4f; fill: #1b7a4f; }
  .swagger-ui .parameter__in { color: #595959; }
  .swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }
  .swagger-ui .btn.cancel { color: #c62828; border-color: #c62828; }
  .swagger-ui .btn.execute { background-color: #1f69b8; border-color: #1f69b8; }
  .swagger-ui .download-contents { background: #55616f; }
  /* Examples, commands and answers are shown whole, wrapped: a box that scrolls by itself is out of reach of a keyboard. */
  .swagger-ui .highlight-code > .microlight, .swagger-ui .responses-inner .curl { max-height: none; }
  .swagger-ui .microlight, .swagger-ui .microlight code { white-space: pre-wrap !important; overflow-wrap: anywhere; }
`;

const STYLE = `${HEADER_STYLE}
  body { font-family: system-ui, sans-serif; color: #1d2330; background: #fff; line-height: 1.5; }
  main { max-width: 54rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
  h1 { font-size: 1.6rem; }
  h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #e3e6eb; padding-bottom: .25rem; }
  code, pre { font-family: ui-monospace, monospace; background: #f3f4f7; border-radius: 4px; }
  code { padding: .05rem .3rem; }
  pre { padding: .75rem 1rem; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; border-bottom: 1px solid #e3e6eb; padding: .4rem .5rem; }
  .retry { color: #555e6e; }
  /* A phone: each row of a table (what, then what it is) reads as a short paragraph. */
  @media (max-width: 40rem) {
    table, tbody, tr { display: block; }
    thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
    tr { border-bottom: 1px solid #e3e6eb; padding: .5rem 0; }
    td { display: inline; border: 0; padding: 0; overflow-wrap: anywhere; }
    td:nth-child(2)::before { content: " — "; }
    td:last-child { display: block; margin-top: .2rem; }
  }
`;

function nav(urls: PublicUrls): string {
  return `<header class="site"><strong>Payment Operations API</strong>
<a href="${escapeHtml(urls.docs)}">API reference</a>
<a href="${escapeHtml(urls.docs)}/errors">Errors</a>
<a href="${escapeHtml(urls.base)}/v1/openapi.json">openapi.json</a></header>`;
}

/** JSON inside a <script>: no `</script>` can close it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * What Swagger UI renders, made usable by everyone (WCAG 2.2 AA) through its supported hooks:
 * - a plugin: an operation's summary is one button, and the deep link Swagger UI puts inside it
 *   is a control inside a control (nested-interactive, a target too small): the path is shown
 *   as text (deep linking itself stays: the address follows the opened operation and opens it);
 * - a watch over what it renders names the controls it leaves without a name (the servers'
 *   select, Try it out's parameters, by their names, and request body, the dialog's close
 *   button) and lets the dialog's buttons be named by their text (their labels do not contain it).
 */
const SWAGGER_UI_ACCESSIBLE = `const accessibleReference = (system) => ({ components: { DeepLink: ({ text }) => system.React.createElement('span', null, text) } });
const UNNAMED = { '#servers': 'Server', 'textarea.body-param__text': 'Request body', 'button.close-modal': 'Close' };
new MutationObserver(() => {
  for (const [selector, name] of Object.entries(UNNAMED)) for (const control of document.querySelectorAll(selector + ':not([aria-label])')) control.setAttribute('aria-label', name);
  for (const control of document.querySelectorAll('tr[data-param-name] :is(input, select, textarea):not([aria-label])')) control.setAttribute('aria-label', control.closest('tr').dataset.paramName);
  for (const button of document.querySelectorAll('.modal-ux button.modal-btn[aria-label]')) button.removeAttribute('aria-label');
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });`;

/** `{docs_url}`: Swagger UI rendering `/v1/openapi.json`; every file comes from this stack. */
export function apiReferencePage(urls: PublicUrls): string {
  const asset = (file: string) => `${urls.base}/docs/assets/${file}?v=${SWAGGER_UI_VERSION}`;
  const options = {
    url: `${urls.base}/v1/openapi.json`,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // No call to the public validator service: the stack serves everything the page needs.
    validatorUrl: null,
    layout: 'BaseLayout',
    // Examples in a highlighting theme whose every colour reads at 4.5:1 or more (the default, agate, has numbers at 3.45:1).
    syntaxHighlight: { theme: 'arta' },
  };
  return htmlPage(
    'Payment Operations API reference',
    `<link rel="stylesheet" href="${escapeHtml(asset('swagger-ui.css'))}">
<link rel="icon" type="image/png" sizes="32x32" href="${escapeHtml(asset('favicon-32x32.png'))}">
<link rel="icon" type="image/png" sizes="16x16" href="${escapeHtml(asset('favicon-16x16.png'))}">
<style>${REFERENCE_STYLE}</style>`,
    `${nav(urls)}
<div id="swagger-ui"></div>
<noscript><main><p>The reference needs JavaScript. The document itself is at <a href="${escapeHtml(options.url)}">${escapeHtml(options.url)}</a>.</p></main></noscript>
<script src="${escapeHtml(asset('swagger-ui-bundle.js'))}"></script>
<script>${SWAGGER_UI_ACCESSIBLE}
window.ui = SwaggerUIBundle(Object.assign(${scriptJson(options)}, { presets: [SwaggerUIBundle.presets.apis], plugins: [accessibleReference] }));</script>`,
  );
}

interface StatusEntry {
  status: number;
  meaning: string;
  causes: string[];
  action: string;
}

const STATUSES: StatusEntry[] = [
  {
    status: 400,
    meaning: 'The request\'s shape is wrong. The schema of the operation rejects it before any rule is looked at.',
    causes: [
      'Malformed JSON, or a body that is not a JSON object.',
      'A field of the wrong type (a number where a string is expected, <code>"payments_limit": "3"</code>).',
      'An unknown body field, including the immutable fields on an update (<code>amount</code>, <code>acceptor_id</code>, <code>redirect_url</code>, <code>collect_*</code>) and <code>webhook_url</code> on a payment link.',
      'An unknown query parameter on any list (for example <code>status</code> on a link\'s payments).',
      'A format or pattern violation: <code>expires_at</code> or <code>redirect_url</code> malformed, <code>amount.value</code> not matching <code>^[0-9]+(\\.[0-9]{1,2})?$</code>.',
      'An enum value outside its set: <code>status</code> other than <code>active</code>/<code>inactive</code> on update (including <code>expired</code>), a <code>status</code> filter outside <code>active</code>, <code>inactive</code>, <code>expired</code>.',
      'An <code>Idempotency-Key</code> header outside 1..255 characters.',
    ],
    action: 'Fix the request; sending it again unchanged fails again.',
  },
  {
    status: 401,
    meaning: 'No usable API key.',
    causes: [
      'The <code>Authorization: Bearer &lt;key&gt;</code> header is missing or names no key.',
      'The key was revoked and its grace period is over.',
      'The key\'s creator was demoted.',
    ],
    action: 'Use a valid key. Changes to a key take effect within 5 seconds.',
  },
  {
    status: 403,
    meaning: 'The key is valid but may not do this.',
    causes: [
      'The key lacks the operation\'s scope (for example <code>payment_link:update</code>). No scope implies another.',
      'The key\'s creator lost the organization permission.',
    ],
    action: 'Create a key with the needed scope; each operation in the API reference names its scope.',
  },
  {
    status: 404,
    meaning: 'Nothing to show. One identical answer for every case, so the existence of other organizations\' objects is never disclosed.',
    causes: [
      'The id in the path is unknown, malformed, belongs to another organization, or to the other mode (test and live keys never see each other\'s objects).',
      'A test key on settlements (they exist only in live mode); a live key on a test helper.',
      'An unknown path.',
    ],
    action: 'Check the id and that the key has the object\'s mode.',
  },
  {
    status: 405,
    meaning: 'The path exists, but not with this method. The <code>Allow</code> header lists the methods it takes.',
    causes: ['For example <code>DELETE /v1/payment_links</code> (it takes <code>GET, POST</code>), or <code>HEAD</code> on an API path (the API answers <code>GET</code>; pages answer <code>HEAD</code> too).'],
    action: 'Use one of the methods in <code>Allow</code>.',
  },
  {
    status: 409,
    meaning: 'The current state of an object refuses the action.',
    causes: [
      'The checkout of a payment link that is <code>inactive</code>, <code>expired</code> or has reached its <code>payments_limit</code> (the checkout page, and the test helper checkout, whose envelope carries <code>reason</code>: <code>expired</code>, <code>inactive</code> or <code>limit_reached</code>). The API endpoints of a link never answer 409 for its state.',
      'A request with the same <code>Idempotency-Key</code> is still in progress.',
    ],
    action: 'Re-read the object; for an idempotent request still running, retry a little later.',
  },
  {
    status: 422,
    meaning: 'The request is well formed but breaks a business rule. <code>attribute</code> names the field.',
    causes: [
      'A required value is missing: <code>amount.value</code> on link create, <code>acceptor_id</code> with an organization-scoped key.',
      'A value breaks a rule: <code>amount.value</code> not positive, <code>payments_limit</code> below 1 or below <code>paid_count</code>, an <code>acceptor_id</code> of another organization, a refund above the refundable rest.',
      'A state rule: changing the status of an expired link (<code>Status cannot be changed once expired</code>), a refund or chargeback move its lifecycle forbids, an empty update body.',
      'List parameters: <code>limit</code> not an integer from 1 to 100 (<code>0</code>, <code>101</code>, <code>abc</code>, <code>1.5</code>), a malformed cursor, a cursor naming no item of the list, or both cursors at once (attribute <code>ending_before</code>).',
      'A key created by a user with the global admin role: <code>API key configuration is invalid (creator role)</code>, on every endpoint.',
      'An <code>Idempotency-Key</code> reused with a different body.',
    ],
    action: 'Change the value or the object\'s state; the <code>detail</code> says which rule applies.',
  },
  {
    status: 429,
    meaning: `Too many requests. The API's throttle (${LIMITS.stageThrottle.requestsPerSecond.toLocaleString('en')} requests per second on each operation, bursts of ${LIMITS.stageThrottle.burst.toLocaleString('en')}) answers before the service sees the request, with API Gateway's own body <code>{"message":"Too Many Requests"}</code>: not this envelope, and no <code>Retry-After</code>.`,
    causes: [
      'Any operation, when all clients together send more than the throttle takes.',
      `An operation's own limit, in the envelope with <code>Retry-After</code>: resending one event more than ${LIMITS.resends.perEvent} times, or more than ${LIMITS.resends.perOrganization} events of an organization and mode, within a minute.`,
    ],
    action: 'Wait the seconds of <code>Retry-After</code> when given; otherwise retry with exponential backoff and jitter. A POST with an <code>Idempotency-Key</code> is safe to retry (a 429 is never stored for replay).',
  },
  {
    status: 500,
    meaning: 'An unexpected error. The detail is generic and never shows internals.',
    causes: ['A defect on our side.'],
    action: 'Retry later with exponential backoff; a POST with an <code>Idempotency-Key</code> is safe to retry (a 5xx is never stored for replay).',
  },
  {
    status: 503,
    meaning: 'A dependency (the key store, the database) cannot be reached right now. Never a 500, and never a 401 for a key that could not be checked.',
    causes: ['Authentication infrastructure or the database is unavailable or throttled.'],
    action: 'Wait the seconds of the <code>Retry-After</code> header, then retry with exponential backoff.',
  },
];

function statusSection(entry: StatusEntry): string {
  return `<section id="status-${entry.status}">
<h2>${entry.status} ${escapeHtml(STATUS_TYPES[entry.status])}</h2>
<p>${entry.meaning}</p>
<ul>${entry.causes.map((cause) => `<li>${cause}</li>`).join('\n')}</ul>
<p class="retry"><strong>What to do:</strong> ${entry.action}</p>
</section>`;
}

/** `{docs_url}/errors`: the page every error envelope links to. */
export function errorReferencePage(urls: PublicUrls): string {
  const example = {
    status: 422,
    type: 'Unprocessable Entity',
    detail: 'payments_limit cannot be set below the count of payments already completed',
    attribute: 'payments_limit',
    links: { documentation: { href: `${urls.docs}/errors`, type: 'text/html' } },
  };
  return htmlPage(
    'Errors · Payment Operations API',
    `${ICON_LINK}\n<style>${STYLE}</style>`,
    `${nav(urls)}
<main>
<h1>Errors</h1>
<p>Every error of every endpoint, including the test helpers and the checkout's JSON answers, is one JSON envelope with the
HTTP status mirrored in the body. Details are actionable and never show internals (no stack traces, table or index names).
Every answer, an error or not, carries a <code>Request-Id</code> header: quote it when you ask us about a request.</p>
<pre tabindex="0" role="region" aria-label="An error envelope">${escapeHtml(JSON.stringify(example, null, 2))}</pre>

<h2 id="envelope">The envelope</h2>
<table>
<thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead>
<tbody>
<tr><td><code>status</code></td><td>integer</td><td>The HTTP status, mirrored.</td></tr>
<tr><td><code>type</code></td><td>string</td><td>The status name: ${Object.values(STATUS_TYPES).map((type) => `<code>${escapeHtml(type)}</code>`).join(', ')}.</td></tr>
<tr><td><code>detail</code></td><td>string</td><td>What went wrong, in a sentence you can act on.</td></tr>
<tr><td><code>attribute</code></td><td>string, optional</td><td>The offending input field, for example <code>amount.value</code>, <code>acceptor_id</code>, <code>payments_limit</code>, <code>status</code>, <code>limit</code>, <code>starting_after</code>.</td></tr>
<tr><td><code>reason</code></td><td>string, optional</td><td>On a 409 of a refused checkout: <code>expired</code>, <code>inactive</code> or <code>limit_reached</code>.</td></tr>
<tr><td><code>links.documentation</code></td><td>object</td><td><code>{href, type}</code>: this page, <code>text/html</code>.</td></tr>
</tbody>
</table>

<h2 id="400-vs-422">400 or 422: shape or business rule</h2>
<p>A request is checked in two steps. First its <strong>shape</strong>: JSON syntax, field types, known fields only, patterns,
formats and enum values. Anything wrong there is a <strong>400 Bad Request</strong>. Then the <strong>business rules</strong>:
values that are present and well formed but not acceptable (a non-positive amount, a limit out of range, a state that forbids
the change), and required values that are simply absent. Those are a <strong>422 Unprocessable Entity</strong>, with
<code>attribute</code> naming the field.</p>
<table>
<thead><tr><th>Request</th><th>Answer</th><th>Why</th></tr></thead>
<tbody>
<tr><td><code>"amount": {"value": "12.345", "currency": "EUR"}</code></td><td>400</td><td>The value does not match the decimal pattern: shape.</td></tr>
<tr><td><code>"amount": {"value": "0.00", "currency": "EUR"}</code></td><td>422 <code>amount.value</code></td><td>Well formed, but not positive: rule.</td></tr>
<tr><td>no <code>amount</code> at all</td><td>422 <code>amount.value</code></td><td>A missing required value is a rule, not a wrong type.</td></tr>
<tr><td><code>"payments_limit": "3"</code></td><td>400</td><td>A string where an integer belongs: shape.</td></tr>
<tr><td><code>"payments_limit": 2</code> with 3 payments made</td><td>422 <code>payments_limit</code></td><td>Below <code>paid_count</code>: rule.</td></tr>
<tr><td><code>"status": "expired"</code> on update</td><td>400</td><td>Outside the enum <code>active</code>, <code>inactive</code>: shape.</td></tr>
<tr><td><code>"status": "active"</code> on an expired link</td><td>422 <code>status</code></td><td>The link's state forbids it: rule.</td></tr>
<tr><td><code>?foo=1</code> on a list</td><td>400</td><td>Unknown query parameter: shape.</td></tr>
<tr><td><code>?limit=0</code> or <code>?limit=abc</code></td><td>422 <code>limit</code></td><td>List parameters are rules: 1 to 100.</td></tr>
</tbody>
</table>

<h2 id="statuses">Status codes</h2>
${STATUSES.map(statusSection).join('\n')}
</main>`,
  );
}
