import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { escapeHtml, htmlPage, ICON_LINK } from '../../shared/http/page';

/** One message the local SES took, in the mailbox's JSON shape (product-decisions §16). */
export interface MailMessage {
  id: string;
  /** The sender as the message names it (`Name <address>` or the address). */
  from: string;
  /** Every recipient: To, then CC, then BCC. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  sent_at: string;
}

export interface Mailbox {
  add(message: MailMessage): void;
  /** Newest first; with `to`, only the messages that address (compared case-insensitively) received. */
  messages(to?: string): MailMessage[];
}

/** The port the mailbox is served on by `npm start` (MAIL_PORT). */
export const DEFAULT_MAIL_PORT = 3002;

/**
 * Every message the local SES sent: in memory, and with a data folder also in
 * `DATA_DIR/mail.jsonl` (one message a line, appended as it is sent), so that an invitation
 * mailed before a restart can still be opened after it.
 */
export function createMailbox(dataDir: string): Mailbox {
  const file = dataDir === ':memory:' ? undefined : join(dataDir, 'mail.jsonl');
  const kept: MailMessage[] = [];
  if (file && existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) kept.push(JSON.parse(line) as MailMessage);
  }
  return {
    add(message) {
      kept.push(message);
      if (file) {
        mkdirSync(dataDir, { recursive: true });
        appendFileSync(file, `${JSON.stringify(message)}\n`);
      }
    },
    messages(to) {
      const address = to?.trim().toLowerCase();
      return kept.filter((message) => !address || message.to.some((recipient) => recipient.toLowerCase() === address)).reverse();
    },
  };
}

const STYLE = `<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f5f6f8; color: #1d2330; }
  header, main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
  h1 { font-size: 1.4rem; margin: .5rem 0; }
  main > h2 { font-size: 1.15rem; }
  form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
  label { display: block; font-weight: 500; margin-bottom: .25rem; }
  input { padding: .45rem; font: inherit; border: 1px solid #6b7385; border-radius: 6px; min-width: 16rem; max-width: 100%; box-sizing: border-box; }
  button, .reset { padding: .45rem .9rem; font: inherit; border-radius: 6px; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; text-decoration: none; }
  .reset { background: #fff; color: #1d4ed8; }
  article { background: #fff; border-radius: 10px; padding: 1rem 1.25rem; margin: 1rem 0; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  article h2 { font-size: 1.1rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: 0 0 .75rem; font-size: .95rem; }
  dt { color: #4a5263; } dd { margin: 0; overflow-wrap: anywhere; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f5f6f8; padding: .75rem; border-radius: 6px; font: inherit; }
  summary { cursor: pointer; color: #1d4ed8; }
  iframe { width: 100%; height: 24rem; border: 1px solid #d5d9e0; border-radius: 6px; background: #fff; }
  .empty { color: #4a5263; }
  a { color: #1d4ed8; }
</style>`;

/** The text body with its web addresses as links, so that an invitation or a reset link can be followed from the inbox. */
const linkified = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`);

/** The inbox page shows the newest messages only; the JSON has them all. */
export const INBOX_PAGE_MESSAGES = 50;

/**
 * The inbox a person reads: the newest messages, optionally for one recipient; the text
 * body with its links, and the HTML body as it renders, in a sandboxed frame (no script, no
 * requests of its own; its links open in a new tab).
 */
export function inboxPage(messages: MailMessage[], to: string | undefined): string {
  const list = messages
    .slice(0, INBOX_PAGE_MESSAGES)
    .map(
      (message) => `<article aria-labelledby="subject-${escapeHtml(message.id)}">
<h2 id="subject-${escapeHtml(message.id)}">${escapeHtml(message.subject)}</h2>
<dl><dt>From</dt><dd>${escapeHtml(message.from)}</dd><dt>To</dt><dd>${escapeHtml(message.to.join(', '))}</dd><dt>Sent</dt><dd><time datetime="${escapeHtml(message.sent_at)}">${escapeHtml(message.sent_at.replace('T', ' ').slice(0, 19))} UTC</time></dd></dl>
<pre>${linkified(message.text)}</pre>
${message.html ? `<details><summary>HTML version</summary><iframe title="HTML version of ${escapeHtml(message.subject)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(`<base target="_blank">${message.html}`)}"></iframe></details>` : ''}
</article>`,
    )
    .join('\n');
  const heading = to ? `Messages to ${escapeHtml(to)}` : 'Every message';
  return htmlPage(
    'Local mailbox',
    `${ICON_LINK}${STYLE}`,
    `<header><h1>Local mailbox</h1>
<p>What the local stack's email service (the local SES) sent. Nothing leaves this machine.</p>
<form method="get" action="/" role="search"><div><label for="to">Recipient</label><input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}" autocomplete="off"></div><button type="submit">Show</button>${to ? '<a class="reset" href="/">Show all</a>' : ''}</form></header>
<main><h2>${heading} (${messages.length}${messages.length > INBOX_PAGE_MESSAGES ? `, the newest ${INBOX_PAGE_MESSAGES} shown` : ''})</h2>
${list || '<p class="empty">No message yet.</p>'}
</main>`,
  );
}

/**
 * The mailbox of product-decisions §16 on its own port: `GET /messages[?to=ADDRESS]` →
 * `{"messages": […]}` newest first, and `GET /` the inbox page.
 */
export async function startMailboxServer(mailbox: Mailbox, port: number): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://mailbox');
    const to = url.searchParams.get('to') ?? undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' });
      return response.end(JSON.stringify({ message: 'Method not allowed' }));
    }
    if (url.pathname === '/messages') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return response.end(JSON.stringify({ messages: mailbox.messages(to) }));
    }
    if (url.pathname === '/') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // The messages' HTML renders in sandboxed frames whose documents inherit this policy: no script, no request anywhere.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      });
      return response.end(request.method === 'HEAD' ? undefined : inboxPage(mailbox.messages(to), to));
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'Not found' }));
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
