import { randomUUID } from 'node:crypto';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A merchant's view of the API: real HTTP against the local stack. */
export function client(baseUrl: string, token?: string) {
  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* HTML or empty body: keep the text */
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, headers),
    call,
  };
}

/** Asserts the error envelope of product-decisions §1 and returns it. */
export function expectEnvelope(result: HttpResult, status: number, attribute?: string) {
  expect({ status: result.status, body: result.body }).toMatchObject({ status, body: { status } });
  expect(typeof result.body.type).toBe('string');
  expect(typeof result.body.detail).toBe('string');
  expect(result.body.links.documentation).toEqual({ href: expect.stringMatching(/\/docs\/errors$/), type: 'text/html' });
  if (attribute !== undefined) expect(result.body.attribute).toBe(attribute);
  return result.body;
}

// A client retries for as long as it cares to: counted in time, not in tries, because how many
// rounds concurrent writers of one item lose depends on how busy the machine is, not on the service.
const RETRY_FOR_MS = 90_000;
/**
 * What a client retries with the same Idempotency-Key: 503 (told to), 500 (API Gateway's answer
 * when a function was killed at its timeout, which a starved machine can cause) and 409 (the
 * key's first request is still in flight, or its lease has not yet run out after a kill).
 */
const retryable = (status: number) => status === 503 || status === 500 || status === 409;

/**
 * A POST as a careful client sends it: with its own Idempotency-Key, retried with that key while
 * the answer says to retry (after Retry-After), which makes the retry safe whatever the first
 * attempt did.
 */
export async function postWithRetries(api: ReturnType<typeof client>, path: string, body: unknown = {}): Promise<HttpResult> {
  const headers = { 'idempotency-key': randomUUID() };
  const giveUpAt = Date.now() + RETRY_FOR_MS;
  for (;;) {
    const result = await api.post(path, body, headers);
    if (!retryable(result.status) || Date.now() > giveUpAt) return result;
    await new Promise((resolve) => setTimeout(resolve, Number(result.headers.get('retry-after') ?? 1) * 1000));
  }
}
