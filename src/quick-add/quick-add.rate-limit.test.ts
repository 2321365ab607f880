import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import type { HttpResult } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { keyHolder } from '../public-api/public-api.test-helpers.js';

/**
 * Quick add past the rate limits: `/api/v1/quick` answers the session limiter's 429 envelope, and
 * `/api/public/v1/quick` the per-key limiter's spec body; the line past the limit writes nothing. The
 * app's limits are set small (no waiting: the windows are long and the counts are read from the headers).
 */
let app: TestApp;
let holder: Awaited<ReturnType<typeof keyHolder>>;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_MAX: '10', RATE_LIMIT_TIME_WINDOW: '600000', RATE_LIMIT_PUBLIC_API_MAX: '2', RATE_LIMIT_PUBLIC_API_TIME_WINDOW: '600000' });
  holder = await keyHolder(app);
});
afterAll(async () => {
  await app?.close();
});

const waterRows = async () => Number((await sql(app.databaseUrl, 'select count(*)::int as n from water_intakes where user_id = $1', [holder.id]))[0]!.n);

function expectRetryAfter(res: HttpResult, windowSeconds: number): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('quick add past the rate limit', () => {
  it('POST /api/v1/quick: 429 in the session envelope with Retry-After, nothing written', async () => {
    const first = await holder.client.post('/api/v1/quick', { text: 'water 250ml' });
    expect(first.status, first.text).toBe(201);
    const left = Number(first.headers.get('ratelimit-remaining'));
    for (let i = 0; i < left; i++) expect((await holder.client.post('/api/v1/quick', { text: 'water 250ml', dryRun: true })).status).toBe(200);
    const before = await waterRows();
    const refused = await holder.client.post('/api/v1/quick', { text: 'water 250ml' });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests: at most 10 per 600 seconds' } });
    expectRetryAfter(refused, 600);
    expect(await waterRows()).toBe(before);
  });

  it('POST /api/public/v1/quick: 429 with the Public API\'s body per key, nothing written', async () => {
    for (let i = 0; i < 2; i++) expect((await holder.api.post('/quick', { text: 'water 300ml' })).status).toBe(201);
    const before = await waterRows();
    const refused = await holder.api.post('/quick', { text: 'water 300ml' });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, error: 'RATE_LIMIT_EXCEEDED', message: expect.stringContaining('2 requests'), retryAfter: expect.any(Number) });
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.retryAfter));
    expectRetryAfter(refused, 600);
    expect(await waterRows()).toBe(before);
  });
});
