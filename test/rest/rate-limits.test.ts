import { createHash, randomInt } from 'node:crypto';
import { createClient } from 'redis';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp, type HttpResult } from '../support/http-client.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
async function app(env: Record<string, string>): Promise<TestApp> {
  const started = await startTestApp(env);
  apps.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

const credentials = { email: 'nobody@example.com', password: 'wrong password' };

function expect429(res: HttpResult, max: number, windowSeconds: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toMatchObject({ ok: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
  expect(res.body.error.message).toContain(`${max} `);
  expect(res.body.error.message).toContain(`${windowSeconds} seconds`);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get('api-version')).toBe('v1');
}

/** A 429 on /graphql: the GraphQL error shape with the same code, and Retry-After. */
function expectGraphQL429(res: HttpResult, max: number, windowSeconds: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors[0]).toMatchObject({ message: `Too many requests: at most ${max} per ${windowSeconds} seconds`, extensions: { code: 'RATE_LIMIT_EXCEEDED', status: 429 } });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(windowSeconds);
}

const LOGIN = 'mutation ($e: String!, $p: String!) { login(email: $e, password: $p) { user { id } } }';

describe('auth limiter', () => {
  it('allows RATE_LIMIT_AUTH_MAX auth mutations, then 429 with the envelope and Retry-After', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    for (let i = 0; i < 3; i++) expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect429(await client.post('/api/v1/auth/login', credentials), 3, 60);
    expect429(await client.post('/api/v1/auth/register', { email: 'x@example.com', password: 'long enough password' }), 3, 60);
    // Reading who is signed in is no auth mutation: never counted, never limited by it.
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('does not count GET /auth/me: a signed-in app polling it keeps its sign-in budget', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '2', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const { client } = await signUp(a.url); // one
    for (let i = 0; i < 5; i++) {
      const me = await client.get('/api/v1/auth/me');
      expect(me.status).toBe(200);
      expect(me.headers.get('ratelimit-limit')).toBe('1000');
    }
    expect((await client.withoutCookie().post('/api/v1/auth/login', credentials)).status).toBe(401); // two
    expect429(await client.withoutCookie().post('/api/v1/auth/login', credentials), 2, 60);
    expect((await client.get('/api/v1/auth/me')).status).toBe(200);
  });

  it('limits the deprecated /api/auth paths with the same counter', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '4', RATE_LIMIT_AUTH_TIME_WINDOW: '120000' });
    const client = new HttpClient(a.url);
    for (let i = 0; i < 2; i++) expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await client.post('/api/auth/login', credentials)).status).toBe(401);
    const old = await client.post('/api/auth/login', credentials);
    expect429(old, 4, 120);
    expect(old.headers.get('deprecation')).toBe('true');
    expect429(await client.post('/api/v1/auth/login', credentials), 4, 120);
  });

  it('limits sign-in through /graphql too, on the same counter as the REST routes', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    for (let i = 0; i < 2; i++) {
      const res = await client.graphql(LOGIN, { e: credentials.email, p: credentials.password });
      expect(res.body.errors![0].extensions.code).toBe('INVALID_CREDENTIALS');
    }
    expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(401);
    expectGraphQL429(await client.graphql(LOGIN, { e: credentials.email, p: credentials.password }), 3, 60);
    expect429(await client.post('/api/v1/auth/login', credentials), 3, 60);
    // Other GraphQL operations are not auth-limited.
    expect((await client.graphql('{ __typename }')).status).toBe(200);
  });

  it('refuses two auth mutations in one operation before running either: no password oracle, no cookie', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '100' });
    const user = await signUp(a.url);
    const client = new HttpClient(a.url);
    const both = await client.graphql(
      'mutation ($e: String!, $p: String!, $w: String!) { a: login(email: $e, password: $w) { user { id } } b: login(email: $e, password: $p) { user { id } } }',
      { e: user.email, p: user.password, w: 'wrong password' },
    );
    expect(both.status, both.text).toBe(400);
    expect(both.body.errors![0].message).toBe('At most one auth mutation per operation, found 2');
    expect(both.headers.getSetCookie()).toEqual([]);
    expect(client.cookie).toBeUndefined();
  });

  it('counts a persisted login sent by hash alone', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '2', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    const variables = { e: credentials.email, p: credentials.password };
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(LOGIN).digest('hex') } };
    const first = await client.post('/graphql', { query: LOGIN, variables, extensions });
    expect(first.body.errors![0].extensions.code).toBe('INVALID_CREDENTIALS');
    const byHash = await client.post('/graphql', { variables, extensions });
    expect(byHash.body.errors![0].extensions.code).toBe('INVALID_CREDENTIALS');
    expectGraphQL429(await client.post('/graphql', { variables, extensions }), 2, 60);
  });

  it('does not touch other session routes', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    await client.post('/api/v1/auth/login', credentials);
    expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(429);
    expect((await client.get('/api/v1/no-such-route')).status).toBe(404);
    expect((await client.graphql('{ __typename }')).status).toBe(200);
  });
});

describe('a failed operation', () => {
  it('stops at the first failing root mutation (later ones never run) and never sets a cookie', async () => {
    const a = await app({});
    const user = await signUp(a.url);
    const variables = { e: user.email, p: user.password, id: '00000000-0000-4000-8000-000000000000' };
    // Failing first: the login after it does not run.
    const client = new HttpClient(a.url);
    const before = await client.graphql('mutation ($e: String!, $p: String!, $id: UUID!) { deleteTask(taskId: $id) { id } login(email: $e, password: $p) { user { id } } }', variables);
    expect(before.status).toBe(200);
    expect(before.body.data).toBeNull();
    expect(before.body.errors).toHaveLength(1);
    expect(before.body.errors![0].path).toEqual(['deleteTask']);
    expect(before.headers.getSetCookie()).toEqual([]);
    // Failing after the login: the body says the operation failed, so the cookie is taken back.
    const after = await client.graphql('mutation ($e: String!, $p: String!, $id: UUID!) { login(email: $e, password: $p) { user { id } } deleteTask(taskId: $id) { id } }', variables);
    expect(after.body.data).toBeNull();
    expect(after.body.errors![0].path).toEqual(['deleteTask']);
    expect(after.headers.getSetCookie()).toEqual([]);
    expect(client.cookie).toBeUndefined();
  });
});

describe('TRUST_PROXY', () => {
  const login = (client: HttpClient, forwardedFor: string) => client.post('/api/v1/auth/login', credentials, { headers: { 'x-forwarded-for': forwardedFor } });

  it('unset: X-Forwarded-For is ignored and every client behind one address shares its limit', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    expect((await login(client, '203.0.113.1')).status).toBe(401);
    expect429(await login(client, '203.0.113.2'), 1, 60);
  });

  it('set to the proxy in front: the limits count the client address it reports, on REST and /graphql alike', async () => {
    const a = await app({ TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    expect((await login(client, '203.0.113.1')).status).toBe(401);
    expect429(await login(client, '203.0.113.1'), 1, 60);
    expect((await login(client, '203.0.113.2')).status).toBe(401);
    const body = { query: LOGIN, variables: { e: credentials.email, p: credentials.password } };
    expectGraphQL429(await client.post('/graphql', body, { headers: { 'x-forwarded-for': '203.0.113.2' } }), 1, 60);
    const other = await client.post('/graphql', body, { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(other.body.errors![0].extensions.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('global limiter', () => {
  it('allows RATE_LIMIT_MAX requests to the session API (REST and GraphQL together), then 429', async () => {
    const a = await app({ RATE_LIMIT_MAX: '5', RATE_LIMIT_TIME_WINDOW: '30000', RATE_LIMIT_AUTH_MAX: '100' });
    const client = new HttpClient(a.url);
    const first = await client.get('/api/v1/nope');
    expect(first.headers.get('ratelimit-limit')).toBe('5');
    expect((await client.post('/api/v1/auth/logout')).headers.get('ratelimit-limit')).toBe('100'); // the auth limit's headers win on auth mutations
    await client.graphql('{ __typename }');
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await client.get('/api/v1/auth/me')).headers.get('ratelimit-limit')).toBe('5'); // the fifth
    expect429(await client.get('/api/v1/auth/me'), 5, 30);
    expect429(await client.graphql('{ __typename }'), 5, 30);
    expect429(await client.get('/api/v1/nope'), 5, 30);
    // Health checks are outside the API.
    expect((await client.get('/healthz')).status).toBe(200);
  });
});

describe('DISABLE_RATE_LIMIT=true', () => {
  it('turns both limiters off', async () => {
    const a = await app({ DISABLE_RATE_LIMIT: 'true', RATE_LIMIT_MAX: '2', RATE_LIMIT_AUTH_MAX: '1' });
    const { client } = await signUp(a.url);
    for (let i = 0; i < 6; i++) {
      const res = await client.get('/api/v1/auth/me');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    for (let i = 0; i < 3; i++) expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(401);
  });
});

describe('with REDIS_URL', () => {
  // A window no other run uses gives this run counters of its own (the window is part of the key).
  const windowMs = 600_000 + randomInt(0, 1_000_000) * 1000;
  const windowSeconds = windowMs / 1000;

  afterAll(async () => {
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      for (const key of await redis.keys(`rl:*:${windowMs}:*`)) await redis.del(key);
    } finally {
      await redis.quit();
    }
  });

  it('two instances share one counter', async () => {
    const env = { REDIS_URL, RATE_LIMIT_AUTH_MAX: '4', RATE_LIMIT_AUTH_TIME_WINDOW: String(windowMs), RATE_LIMIT_TIME_WINDOW: String(windowMs) };
    const [a, b] = await Promise.all([app(env), app(env)]);
    const ca = new HttpClient(a!.url);
    const cb = new HttpClient(b!.url);
    expect((await ca.post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect((await cb.post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect((await ca.post('/api/auth/login', credentials)).status).toBe(401);
    const last = await cb.post('/api/v1/auth/login', credentials);
    expect(last.status).toBe(401);
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect429(await ca.post('/api/v1/auth/login', credentials), 4, windowSeconds);
    expect429(await cb.post('/api/v1/auth/login', credentials), 4, windowSeconds);

    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      expect(await redis.keys(`rl:auth:${windowMs}:*`)).toHaveLength(1);
    } finally {
      await redis.quit();
    }
  });

  it('an instance without REDIS_URL keeps its own count', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_AUTH_TIME_WINDOW: String(windowMs) });
    const b = await app({ RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_AUTH_TIME_WINDOW: String(windowMs) });
    expect((await new HttpClient(a.url).post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect((await new HttpClient(b.url).post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect((await new HttpClient(a.url).post('/api/v1/auth/login', credentials)).status).toBe(429);
  });
});

describe('request logs', () => {
  it('name the client address express derives: the forwarded one behind a trusted proxy', async () => {
    const lines: Record<string, any>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const a = await startTestApp({ TRUST_PROXY: '127.0.0.1' }, { logger });
    apps.push(a);
    await new HttpClient(a.url).get('/api/v1/nope', { headers: { 'x-forwarded-for': '203.0.113.77' } });
    await vi.waitFor(() => expect(lines.find((l) => l.req?.url === '/api/v1/nope')).toBeDefined());
    expect(lines.find((l) => l.req?.url === '/api/v1/nope')!.req.remoteAddress).toBe('203.0.113.77');
  });
});
