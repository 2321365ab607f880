import { randomInt } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('auth limiter', () => {
  it('allows RATE_LIMIT_AUTH_MAX requests to /auth routes, then 429 with the envelope and Retry-After', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    for (let i = 0; i < 3; i++) expect((await client.post('/api/v1/auth/login', credentials)).status).toBe(401);
    expect429(await client.post('/api/v1/auth/login', credentials), 3, 60);
    expect429(await client.get('/api/v1/auth/me'), 3, 60);
    expect429(await client.post('/api/v1/auth/register', { email: 'x@example.com', password: 'long enough password' }), 3, 60);
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

  it('limits sign-in through /graphql too', async () => {
    const a = await app({ RATE_LIMIT_AUTH_MAX: '2', RATE_LIMIT_AUTH_TIME_WINDOW: '60000' });
    const client = new HttpClient(a.url);
    const login = 'mutation ($e: String!, $p: String!) { login(email: $e, password: $p) { user { id } } }';
    for (let i = 0; i < 2; i++) {
      const res = await client.graphql(login, { e: credentials.email, p: credentials.password });
      expect(res.body.errors![0].extensions.code).toBe('INVALID_CREDENTIALS');
    }
    expect429(await client.graphql(login, { e: credentials.email, p: credentials.password }), 2, 60);
    // Other GraphQL operations are not auth-limited.
    expect((await client.graphql('{ __typename }')).status).toBe(200);
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

describe('global limiter', () => {
  it('allows RATE_LIMIT_MAX requests to the session API (REST and GraphQL together), then 429', async () => {
    const a = await app({ RATE_LIMIT_MAX: '5', RATE_LIMIT_TIME_WINDOW: '30000', RATE_LIMIT_AUTH_MAX: '100' });
    const client = new HttpClient(a.url);
    const first = await client.get('/api/v1/nope');
    expect(first.headers.get('ratelimit-limit')).toBe('5');
    expect((await client.get('/api/v1/auth/me')).headers.get('ratelimit-limit')).toBe('100'); // the auth limit's headers win there
    await client.graphql('{ __typename }');
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await client.post('/api/v1/auth/logout')).status).toBe(200); // the fifth
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
