import { Script } from 'node:vm';
import { PASSKEY_SCRIPT_PATH } from '../../../shared/dashboard/passkey-script';
import { startTestStack, type TestStack } from '../../support/stack';

/** The passkey pages' script is a file of the dashboard's origin, so that their policy allows it with `script-src 'self'` and no inline script. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 120_000);
afterAll(() => stack?.stop());

test('GET /dashboard/assets/passkeys.js: JavaScript, not sniffed as anything else, cacheable for a few minutes, and valid', async () => {
  // Act
  const answer = await fetch(`${stack.baseUrl}${PASSKEY_SCRIPT_PATH}`);
  const script = await answer.text();
  // Assess
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  expect(() => new Script(script)).not.toThrow();
  expect(script).toContain('navigator.credentials.create');
  expect(script).toContain('navigator.credentials.get');
});

test('HEAD answers the same headers without the script', async () => {
  const answer = await fetch(`${stack.baseUrl}${PASSKEY_SCRIPT_PATH}`, { method: 'HEAD' });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await answer.text()).toBe('');
});
