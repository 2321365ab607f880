import { checkContract } from './openapi-contract.js';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (for malformed JSON and the like). */
  rawBody?: string;
  headers?: Record<string, string>;
  /**
   * Skip the OpenAPI contract check (test/support/openapi-contract.ts) for this exchange: only for a
   * request that is meant to be outside any document (a forged or broken request the service must refuse).
   */
  outsideContract?: true;
}

/** Methods a client may send again: the same request twice has the effect of once (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The socket was reset or closed under the request: the server was closing the kept-alive connection it reused. */
function isConnectionReset(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/**
 * fetch, sent once more on a fresh connection when an idempotent request's kept-alive connection was
 * reset (issue 34, item 16: the server closed it as the request went out). A write (POST, PATCH) is not
 * sent again: the server may have done it; its failure is the test's to see.
 */
export async function fetchRetryingReset(url: string, init: RequestInit & { method: string }): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!IDEMPOTENT.has(init.method.toUpperCase()) || !isConnectionReset(error)) throw error;
    return fetch(url, init);
  }
}

/** Real HTTP to the service, keeping the session cookie like a browser would. */
/** A fetch response as an HttpResult: the body parsed as JSON when it is JSON, the text kept too. */
export async function readResult<T = any>(response: Response): Promise<HttpResult<T>> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: leave the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export class HttpClient {
  cookie: string | undefined;

  constructor(readonly baseUrl: string) {}

  withoutCookie(): HttpClient {
    return new HttpClient(this.baseUrl);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (this.cookie && !('cookie' in headers)) headers.cookie = this.cookie;
    const response = await fetchRetryingReset(this.baseUrl + path, { method, headers, body });
    const setCookie = response.headers.getSetCookie();
    for (const c of setCookie) {
      const pair = c.split(';')[0];
      if (pair.startsWith('lp_session=')) this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    const result = await readResult<T>(response);
    if (!options.outsideContract) {
      let sent: unknown;
      if (body !== undefined && /json/i.test(headers['content-type'] ?? '')) {
        try {
          sent = JSON.parse(body);
        } catch {
          // a malformed body is the test's point: nothing to compare
        }
      }
      await checkContract({ baseUrl: this.baseUrl, method, path, requestBody: sent, status: result.status, contentType: response.headers.get('content-type'), body: result.body });
    }
    return result;
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  /** POST /graphql with this client's cookie. */
  async graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<HttpResult<{ data?: T; errors?: any[] }>> {
    return this.request('POST', '/graphql', { body: { query, variables } });
  }
}

let counter = 0;

/** Registers a fresh user through the API and returns a client signed in as them. */
export async function signUp(baseUrl: string, email?: string): Promise<{ client: HttpClient; id: string; email: string; password: string }> {
  const client = new HttpClient(baseUrl);
  const address = email ?? `user${Date.now()}_${process.pid}_${++counter}@example.com`;
  const password = 'correct horse battery';
  const res = await client.post('/api/v1/auth/register', { email: address, password });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { client, id: res.body.data.user.id, email: address, password };
}
