import { escapeHtml } from '../http/page';

/**
 * A user agent in a few words for a narrow column (the Audit page): the browser and its major
 * version on the system ("Chrome 156 on Linux"), or a tool's product and version ("curl 8.5"),
 * or what was given, cut to SHORT_LENGTH. Browsers name others in their string (Edge says
 * Chrome and Safari, Chrome says Safari), so the most specific token is looked for first.
 */
const BROWSERS: [name: string, token: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:(?:Headless)?Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
];

const SYSTEMS: [name: string, token: RegExp][] = [
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/** A tool's first product token, `name/1.2.3`: its name and major.minor version. */
const PRODUCT = /^([A-Za-z][\w.-]*)\/(\d+)(?:\.(\d+))?/;

/** The longest summary of an agent nothing above recognizes. */
export const SHORT_LENGTH = 40;

export function summarizeUserAgent(userAgent: string): string {
  const given = userAgent.trim();
  for (const [name, token] of BROWSERS) {
    const version = token.exec(given)?.[1];
    if (!version) continue;
    const system = SYSTEMS.find(([, marker]) => marker.test(given))?.[0];
    return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
  }
  const product = PRODUCT.exec(given);
  if (product && !given.startsWith('Mozilla/')) return product[3] === undefined ? `${product[1]} ${product[2]}` : `${product[1]} ${product[2]}.${product[3]}`;
  return given.length <= SHORT_LENGTH ? given : `${given.slice(0, SHORT_LENGTH - 1).trimEnd()}…`;
}

/**
 * A table cell of a user agent: its summary, and the whole string beside it in a disclosure
 * (reachable by keyboard and touch, read by screen readers, unlike a `title`); escaped, as an
 * agent is whatever the caller sent. An agent its summary says whole is shown as it is.
 */
export function userAgentCell(userAgent: string | null | undefined): string {
  if (!userAgent) return '—';
  const summary = summarizeUserAgent(userAgent);
  if (summary === userAgent) return escapeHtml(userAgent);
  return `<details class="agent"><summary>${escapeHtml(summary)}</summary><code class="wraps">${escapeHtml(userAgent)}</code></details>`;
}
