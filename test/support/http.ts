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
