import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH } from '../../../shared/dashboard/passkey-script';
import { createDocumentClient } from '../../../shared/db/client';
import { createPasskeyStore } from '../../../shared/db/passkey-store';
import { RELYING_PARTY_NAME } from '../../../shared/domain/passkeys';
import { escapeHtml } from '../../../shared/http/page';
import { webauthnCeremonies } from '../../../shared/services/passkeys';
import { passkeyUseCases } from '../../../shared/use-cases/passkeys';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { personInTable } from '../../support/people';
import { addVirtualAuthenticator } from '../../support/virtual-authenticator';

/**
 * The passkey script (shared/dashboard/passkey-script.ts) in Chromium with its virtual
 * authenticator, against the passkey use cases on the table: a page on `localhost` (browsers
 * allow WebAuthn on a domain, not on 127.0.0.1) with the forms the dashboard marks, a policy
 * allowing only scripts of its own origin, and the ceremonies' options and answers as the
 * dashboard's routes pass them. The dashboard's own pages are tested the same way in test/http.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `passkeys-browser-${randomUUID()}`;
const passkeys = passkeyUseCases({ passkeys: createPasskeyStore(db, tableName), ceremonies: webauthnCeremonies, now: () => new Date() });
const user = { id: '', email: 'ada@example.com', name: 'Ada Lovelace' };
const BROWSER = 'the-test-browser';
const outcomes: string[] = [];
let server: Server;
let origin: string;
const rp = () => ({ id: 'localhost', name: RELYING_PARTY_NAME, origin });

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Passkeys</title><script src="${PASSKEY_SCRIPT_PATH}" defer></script></head><body><main>${body}</main></body></html>`;
const passkeyForm = (kind: 'register' | 'sign-in', action: string, fields = '') =>
  `<form method="post" action="${action}" data-passkey="${kind}" data-passkey-options="${action}/options" hidden>
<input type="hidden" name="csrf_token" value="token"><input type="hidden" name="credential" value="">${fields}
<p role="alert" data-passkey-status></p><button type="submit">${kind === 'register' ? 'Add a passkey' : 'Sign in with a passkey'}</button></form>`;

async function body(request: import('node:http').IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

beforeAll(async () => {
  await ensureTable(endpoint, tableName);
  user.id = await personInTable(db, tableName);
  server = createServer(async (request, response) => {
    const send = (status: number, type: string, text: string) => {
      response.writeHead(status, { 'content-type': type, 'content-security-policy': "default-src 'none'; script-src 'self'; connect-src 'self'; form-action 'self'" });
      response.end(text);
    };
    try {
      const path = new URL(request.url ?? '/', origin).pathname;
      if (path === PASSKEY_SCRIPT_PATH) return send(200, 'text/javascript', PASSKEY_SCRIPT);
      if (path === '/security') return send(200, 'text/html', page(passkeyForm('register', '/security/passkeys', '<label>Name <input name="name" value="Virtual key"></label>')));
      if (path === '/sign-in') return send(200, 'text/html', page(passkeyForm('sign-in', '/sign-in/passkey')));
      const fields = await body(request);
      if (fields.get('csrf_token') !== 'token') return send(403, 'text/plain', 'form token');
      if (path === '/security/passkeys/options') return send(200, 'application/json', JSON.stringify(await passkeys.registrationOptions(user, rp(), BROWSER)));
      if (path === '/sign-in/passkey/options') return send(200, 'application/json', JSON.stringify(await passkeys.authenticationOptions(rp(), BROWSER)));
      if (path === '/security/passkeys') {
        const passkey = await passkeys.registerPasskey(user, fields.get('name') ?? '', JSON.parse(fields.get('credential') ?? '{}'), rp(), BROWSER);
        outcomes.push(`registered ${passkey.name}`);
      }
      if (path === '/sign-in/passkey') {
        const answer = JSON.parse(fields.get('credential') ?? '{}');
        const found = await passkeys.registeredPasskey(answer);
        await passkeys.verifyPasskeySignIn(answer, found, rp(), BROWSER);
        outcomes.push(`signed in ${found.userId}`);
      }
      send(200, 'text/html', page(`<p id="done">${escapeHtml(outcomes.at(-1))}</p>`));
    } catch (error) {
      send(422, 'text/html', page(`<p id="refused">${escapeHtml((error as Error).message)}</p>`));
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  db.destroy();
});

(browserAvailable() ? test : test.skip)(
  'Chromium\'s virtual authenticator registers a discoverable passkey through the script, then signs in with it; a user not verified is refused',
  async () => {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      const authenticator = await addVirtualAuthenticator(context, tab);
      // Register: the form is shown only with WebAuthn, and the script sends it with the credential.
      await tab.goto(`${origin}/security`);
      await tab.getByRole('button', { name: 'Add a passkey' }).click();
      await tab.locator('#done').waitFor();
      expect(outcomes.at(-1)).toBe('registered Virtual key');
      const [held] = await authenticator.credentials();
      expect(held).toMatchObject({ isResidentCredential: true, rpId: 'localhost', userHandle: Buffer.from(user.id).toString('base64') });
      // Sign in: no email asked, the authenticator offers its discoverable credential.
      await tab.goto(`${origin}/sign-in`);
      await tab.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await tab.locator('#done').waitFor();
      expect(outcomes.at(-1)).toBe(`signed in ${user.id}`);
      // Not verified (no fingerprint match): the browser refuses, and the script says so in the form.
      await authenticator.setUserVerified(false);
      await tab.goto(`${origin}/sign-in`);
      await tab.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await tab.waitForFunction(() => (document.querySelector('[data-passkey-status]')?.textContent ?? '') !== '', undefined, { timeout: 20_000 });
      expect(await tab.locator('[data-passkey-status]').textContent()).toMatch(/passkey/);
      expect(outcomes).toHaveLength(2);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  },
  90_000,
);
