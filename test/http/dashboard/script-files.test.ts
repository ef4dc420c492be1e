import { Script } from 'node:vm';
import { COPY_SCRIPT_PATH } from '../../../shared/dashboard/copy-script';
import { PASSKEY_SCRIPT_PATH } from '../../../shared/dashboard/passkey-script';
import { startTestStack, type TestStack } from '../../support/stack';

/** The dashboard's scripts are files of its origin, so that a page's policy allows them with `script-src 'self'` and no inline script. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 120_000);
afterAll(() => stack?.stop());

const SCRIPTS = [
  [PASSKEY_SCRIPT_PATH, ['navigator.credentials.create', 'navigator.credentials.get']],
  [COPY_SCRIPT_PATH, ['navigator.clipboard.writeText']],
] as const;

test.each(SCRIPTS)('GET %s: JavaScript, not sniffed as anything else, cacheable for a few minutes, and valid', async (path, calls) => {
  // Act
  const answer = await fetch(`${stack.baseUrl}${path}`);
  const script = await answer.text();
  // Assess
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  expect(() => new Script(script)).not.toThrow();
  for (const call of calls) expect(script).toContain(call);
});

test.each(SCRIPTS)('HEAD %s answers the same headers without the script', async (path) => {
  const answer = await fetch(`${stack.baseUrl}${path}`, { method: 'HEAD' });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await answer.text()).toBe('');
});
