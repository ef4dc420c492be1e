import type { ApiEvent } from '../../../shared/http/response';

/**
 * A request's public URLs (`urlsFor`): configured, except that a configured loopback base
 * reached by the other loopback name on the same port keeps the name it was reached by
 * (product-decisions §16: browsers allow WebAuthn on `localhost`, not on 127.0.0.1).
 */
const urlsWith = async (baseUrl: string, host: string | undefined) => {
  process.env.BASE_URL = baseUrl;
  let urls;
  await jest.isolateModulesAsync(async () => {
    const { urlsFor } = await import('../../../shared/http/response');
    urls = urlsFor({ headers: host === undefined ? {} : { host } } as unknown as ApiEvent);
  });
  delete process.env.BASE_URL;
  return urls as unknown as { base: string; dashboard: string };
};

test.each([
  ['http://127.0.0.1:3000', 'localhost:3000', 'http://localhost:3000'],
  ['http://localhost:3000', '127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ['http://127.0.0.1:3000', '127.0.0.1:3000', 'http://127.0.0.1:3000'],
])('configured %s, reached as %s: %s', async (configured, host, expected) => {
  const urls = await urlsWith(configured, host);
  expect(urls.base).toBe(expected);
  expect(urls.dashboard).toBe(`${expected}/dashboard`);
});

test.each([
  ['another port', 'http://127.0.0.1:3000', 'localhost:4000'],
  ['another host', 'http://127.0.0.1:3000', 'evil.example:3000'],
  ['a stage\'s endpoint', 'https://abc.execute-api.eu-west-1.amazonaws.com', 'localhost'],
  ['a Host that is no host', 'http://127.0.0.1:3000', 'local host:3000/x'],
  ['no Host', 'http://127.0.0.1:3000', undefined],
])('%s: the configured base, whatever the Host header says', async (_name, configured, host) => {
  expect((await urlsWith(configured, host)).base).toBe(configured);
});
