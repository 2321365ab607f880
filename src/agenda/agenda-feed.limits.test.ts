import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { FEED_FETCHES_PER_TOKEN } from './agenda-feed.limits.js';

/** The calendar feed as a calendar app and an attacker use it: conditional GETs, limits per address and per token. */
let app: TestApp;
let alice: HttpClient;
const MISSES = 5;

beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_AUTH_MAX: String(MISSES) });
  ({ client: alice } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

async function newFeed(client: HttpClient): Promise<string> {
  const res = await client.post('/api/v1/agenda/feed');
  expect(res.status, res.text).toBe(200);
  return new URL(res.body.data.url).pathname;
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(app.url + path, { headers });

describe('calendar feed', () => {
  it('answers 304 to a calendar app that holds the current feed; any change to an entry changes the ETag', async () => {
    const path = await newFeed(alice);
    const first = await get(path);
    expect(first.status).toBe(200);
    const text = await first.text();
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true); // RFC 5545 §3.1: every content line ends with CRLF
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);

    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get(path, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get(path, { 'If-None-Match': '"something-else"' })).status).toBe(200);

    const etags = [etag];
    const changed = async () => {
      const res = await get(path, { 'If-None-Match': etags[etags.length - 1]! });
      expect(res.status).toBe(200);
      await res.text();
      etags.push(res.headers.get('etag')!);
    };
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const created = await alice.post('/api/v1/deadlines', { title: 'Tax return', dueDate: due });
    expect(created.status, created.text).toBe(201);
    await changed();
    const updated = await alice.patch(`/api/v1/deadlines/${created.body.data.id}`, { title: 'Tax return 2026' });
    expect(updated.status, updated.text).toBe(200);
    await changed();
    expect((await alice.delete(`/api/v1/deadlines/${created.body.data.id}`)).status).toBe(200);
    await changed();
    expect(new Set(etags.slice(0, 3)).size).toBe(3);
    // Back to the entries of the start: the ETag says so too.
    expect(etags[3]).toBe(etags[0]);
  });

  it('refuses a storm of made-up tokens from one address after a few misses (real feeds still answer), and a real feed fetched too often', async () => {
    const misses = await Promise.all(Array.from({ length: MISSES + 3 }, () => get(`/agenda/feed/${randomBytes(32).toString('base64url')}.ics`)));
    const statuses = misses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 404)).toHaveLength(MISSES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const refused = misses.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).error.code).toBe('RATE_LIMIT_EXCEEDED');

    const { client: bob } = await signUp(app.url);
    const path = await newFeed(bob);
    expect((await get(`/agenda/feed/${randomBytes(32).toString('base64url')}.ics`)).status).toBe(429);
    for (let i = 0; i < FEED_FETCHES_PER_TOKEN; i++) {
      const res = await get(path, { 'If-None-Match': '"x"' });
      expect(res.status, `fetch ${i + 1}`).toBe(200);
      await res.arrayBuffer();
    }
    const over = await get(path);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
