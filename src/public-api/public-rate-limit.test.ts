import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startServer, type RunningServer } from '../app/server.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import type { HttpResult } from '../../test/support/http-client.js';
import { createKey, expectUnauthorized, keyHolder, KeyClient } from './public-api.test-helpers.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
const extra: RunningServer[] = [];
const cleanups: Array<() => Promise<void>> = [];
async function app(env: Record<string, string>): Promise<TestApp> {
  const started = await startTestApp(env);
  apps.push(started);
  return started;
}
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => undefined);
  await Promise.all(extra.map((s) => s.close()));
  await Promise.all(apps.map((a) => a.close()));
});

function expectHeaders(res: HttpResult, limit: number, remaining: number, windowSeconds: number): void {
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  // A Unix time in seconds, within the window from now.
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + windowSeconds + 1);
  expect(res.headers.get('api-version')).toBe('v1');
}

function expect429(res: HttpResult, max: number, windowSeconds: number): void {
  expect(res.status, res.text).toBe(429);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'retryAfter', 'statusCode']);
  expect(res.body.statusCode).toBe(429);
  expect(res.body.error).toBe('RATE_LIMIT_EXCEEDED');
  expect(res.body.message).toContain(`${max} requests`);
  expect(res.body.message).toContain(`${windowSeconds} seconds`);
  expect(res.body.retryAfter).toBeGreaterThan(0);
  expect(res.body.retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfter));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(max));
}

describe('per-key limiter', () => {
  it('allows RATE_LIMIT_PUBLIC_API_MAX requests per key, then 429 with the spec body; other keys keep their own count', async () => {
    const a = await app({ RATE_LIMIT_PUBLIC_API_MAX: '3', RATE_LIMIT_PUBLIC_API_TIME_WINDOW: '60000' });
    const holder = await keyHolder(a);
    for (let i = 0; i < 3; i++) {
      const res = await holder.api.post('/water', { volume: 100 });
      expect(res.status).toBe(200);
      expectHeaders(res, 3, 2 - i, 60);
    }
    expect429(await holder.api.post('/water', { volume: 100 }), 3, 60);
    // Every route shares the key's counter, errors included.
    expect429(await holder.api.get('/exercises/search'), 3, 60);
    expect429(await holder.api.get('/no-such-route'), 3, 60);
    // Nothing past the limit was written.
    const water = await holder.client.graphql('{ today { waterIntakes { id } } }');
    expect(water.body.data.today.waterIntakes).toHaveLength(3);

    // Counting is per key, not per IP: the same user's second key and another user's key are untouched.
    const second = new KeyClient(a.url, (await createKey(holder.client, 'Second')).key);
    const res = await second.post('/water', { volume: 100 });
    expect(res.status).toBe(200);
    expectHeaders(res, 3, 2, 60);
    const other = await keyHolder(a);
    expect((await other.api.get('/exercises/search')).status).toBe(200);

    // Refused keys are answered 401 before counting.
    expectUnauthorized(await new KeyClient(a.url, `svc_${'q'.repeat(43)}`).get('/exercises/search'));

    // The session API has its own limiter and is not affected.
    expect((await holder.client.get('/api/v1/subscription')).status).toBe(200);
  });

  it('headers are on every counted answer, validation errors included', async () => {
    const a = await app({ RATE_LIMIT_PUBLIC_API_MAX: '10', RATE_LIMIT_PUBLIC_API_TIME_WINDOW: '120000' });
    const holder = await keyHolder(a);
    const res = await holder.api.post('/water', { volume: -1 });
    expect(res.status).toBe(400);
    expectHeaders(res, 10, 9, 120);
  });

  it('defaults to 500 per 900 seconds', async () => {
    const a = await app({});
    const holder = await keyHolder(a);
    const res = await holder.api.get('/exercises/search');
    expectHeaders(res, 500, 499, 900);
  });

  it('DISABLE_RATE_LIMIT=true turns it off', async () => {
    const a = await app({ DISABLE_RATE_LIMIT: 'true', RATE_LIMIT_PUBLIC_API_MAX: '1' });
    const holder = await keyHolder(a);
    for (let i = 0; i < 3; i++) {
      const res = await holder.api.get('/exercises/search');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('with REDIS_URL two instances share one counter per key', async () => {
    // A window of its own so no earlier run's counters can interfere (the window is part of the Redis key).
    const windowMs = 600_000 + randomInt(1, 1_000_000) * 1000; // whole seconds: the 429 bounds compare in seconds
    const env = { REDIS_URL, RATE_LIMIT_PUBLIC_API_MAX: '4', RATE_LIMIT_PUBLIC_API_TIME_WINDOW: String(windowMs) };
    const first = await app(env);
    const dataDir = await mkdtemp(join(tmpdir(), 'lp-test-data-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env, DATABASE_URL: first.databaseUrl });
    const second = await startServer(config, { logger: createLogger('silent') });
    extra.push(second);

    const holder = await keyHolder(first);
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const redisKey = `rl:public:${windowMs}:${holder.keyId}`;
    cleanups.push(async () => {
      await redis.del(redisKey);
      await redis.quit();
    });

    const onSecond = new KeyClient(second.url, holder.key);
    const seconds = Math.round(windowMs / 1000);
    expectHeaders(await holder.api.get('/exercises/search'), 4, 3, seconds);
    expectHeaders(await onSecond.get('/exercises/search'), 4, 2, seconds);
    expectHeaders(await holder.api.get('/exercises/search'), 4, 1, seconds);
    expectHeaders(await onSecond.get('/exercises/search'), 4, 0, seconds);
    expect429(await holder.api.get('/exercises/search'), 4, seconds);
    expect429(await onSecond.get('/exercises/search'), 4, seconds);
    // The counter lives in Redis under the key's id (never the key itself).
    expect(Number(await redis.get(redisKey))).toBeGreaterThanOrEqual(4);
    expect(await redis.keys(`*${holder.key}*`)).toEqual([]);
  });
});
