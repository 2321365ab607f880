import { setPlan } from '../../test/support/db.js';
import { HttpClient, signUp, type HttpResult, type RequestOptions } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';

export const PUBLIC = '/api/public/v1';
export { MISSING_ID } from '../../test/support/fixtures.js';

export { setPlan } from '../../test/support/db.js';

/** A signed-in user on the pro plan. */
export async function proUser(app: TestApp): Promise<{ client: HttpClient; id: string; email: string }> {
  const user = await signUp(app.url);
  await setPlan(app.databaseUrl, user.id, 'pro');
  return user;
}

export async function createKey(client: HttpClient, name = 'Shortcut', extra: Record<string, unknown> = {}): Promise<{ id: string; key: string; keyPrefix: string; name: string; createdAt: string }> {
  const res = await client.post('/api/v1/api-keys', { name, ...extra });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** A client for the Public API: no cookie, the key as a bearer token. */
export class KeyClient {
  readonly http: HttpClient;

  constructor(
    baseUrl: string,
    public key: string,
  ) {
    this.http = new HttpClient(baseUrl);
  }

  private options(options: RequestOptions = {}): RequestOptions {
    return { ...options, headers: { authorization: `Bearer ${this.key}`, ...options.headers } };
  }

  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResult<T>> {
    return this.http.get<T>(PUBLIC + path, this.options(options));
  }

  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResult<T>> {
    return this.http.post<T>(PUBLIC + path, body, this.options(options));
  }
}

/** A pro user with one key, and a Public API client using it. */
export async function keyHolder(app: TestApp): Promise<{ client: HttpClient; id: string; key: string; keyId: string; api: KeyClient }> {
  const user = await proUser(app);
  const created = await createKey(user.client);
  return { client: user.client, id: user.id, key: created.key, keyId: created.id, api: new KeyClient(app.url, created.key) };
}

export function expectUnauthorized(res: HttpResult): void {
  if (res.status !== 401 || res.body?.ok !== false || res.body?.error?.code !== 'UNAUTHORIZED') {
    throw new Error(`expected 401 UNAUTHORIZED, got ${res.status} ${res.text}`);
  }
}
