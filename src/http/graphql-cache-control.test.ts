import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';

/** /graphql answers are per user: never cacheable (set by us since Apollo's cache-control plugin is off). */
let app: TestApp;
let client: HttpClient;

beforeAll(async () => {
  app = await startTestApp({ DISABLE_RATE_LIMIT: 'true' });
  ({ client } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

describe('Cache-Control on /graphql', () => {
  it('is no-store on a mutation answer and on a query answer', async () => {
    const created = await client.graphql('mutation($s: LocalDate!) { generateWeek(startDate: $s) { id days { id } } }', { s: '2033-01-03' });
    expect(created.body.errors).toBeUndefined();
    expect(created.headers.get('cache-control')).toBe('no-store');
    const read = await client.graphql('query($s: LocalDate!) { week(startDate: $s) { id days { date } } }', { s: '2033-01-03' });
    expect(read.status).toBe(200);
    expect(read.body.data.week.days).toHaveLength(7);
    expect(read.headers.get('cache-control')).toBe('no-store');
  });

  it('is no-store on an error answer and for a signed-out caller', async () => {
    const res = await client.withoutCookie().graphql('{ week(startDate: "2033-01-03") { id } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const invalid = await client.request('POST', '/graphql', { rawBody: '{not json' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('cache-control')).toBe('no-store');
  });
});
