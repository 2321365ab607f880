import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp } from '../support/http-client.js';
import { keyHolder, proUser, createKey } from '../../src/public-api/public-api.test-helpers.js';
import { makeImage, postMultipart } from '../../src/files/files.test-helpers.js';

// CSRF on the cookie-authenticated surfaces: what a page of another origin (another port of the same
// host, a sibling subdomain, another site) can make a signed-in browser send.
const BASE_URL = 'http://planner.example.test:8080';
const TRUSTED = 'http://trusted.example.test:5173';
const SIBLING = 'http://evil.example.test:8080';
const OTHER_PORT = 'http://planner.example.test:9999';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ BASE_URL, TRUSTED_ORIGINS: `https://unused.example.test, ${TRUSTED}`, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});
afterAll(async () => {
  await app?.close();
});

function expectRefused(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ ok: false, error: { code, message: expect.any(String) } });
}

const fromOrigin = (origin: string, site = 'same-site') => ({ headers: { origin, 'sec-fetch-site': site } });

describe('a write sent by a page of another origin', () => {
  it('is refused 403 FORBIDDEN on /api/v1 and the deprecated /api/... paths, and changes nothing', async () => {
    const { client } = await signUp(app.url);
    for (const origin of [SIBLING, OTHER_PORT, 'null']) {
      expectRefused(await client.post('/api/v1/tasks', { title: 'planted', timebox: 30 }, fromOrigin(origin)), 403, 'FORBIDDEN');
      expectRefused(await client.post('/api/tasks', { title: 'planted', timebox: 30 }, fromOrigin(origin)), 403, 'FORBIDDEN');
    }
    // Sec-Fetch-Site alone says so too.
    const bySite = await client.post('/api/v1/tasks', { title: 'planted', timebox: 30 }, { headers: { 'sec-fetch-site': 'cross-site' } });
    expectRefused(bySite, 403, 'FORBIDDEN');
    expect((await client.get('/api/v1/tasks')).body.data).toEqual([]);
    // Reads stay open (a GET changes nothing and its answer is not readable across origins).
    expect((await client.get('/api/v1/tasks', fromOrigin(SIBLING))).status).toBe(200);
  });

  it('cannot create a webhook to itself, nor rotate a key', async () => {
    const { client } = await proUser(app);
    const hook = await client.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['task_created'] }, fromOrigin(SIBLING));
    expectRefused(hook, 403, 'FORBIDDEN');
    expect((await client.get('/api/v1/webhooks')).body.data).toEqual([]);
    const key = await createKey(client);
    expectRefused(await client.post(`/api/v1/api-keys/${key.id}/rotate`, undefined, fromOrigin(OTHER_PORT)), 403, 'FORBIDDEN');
    expect((await client.get('/api/v1/api-keys')).body.data[0].keyPrefix).toBe(key.keyPrefix);
  });

  it('is refused on /graphql in the GraphQL error shape, also with a JSON body', async () => {
    const { client } = await signUp(app.url);
    const res = await client.request('POST', '/graphql', {
      body: { query: 'mutation { createTask(title: "planted", timebox: 30) { id } }' },
      ...fromOrigin(SIBLING),
    });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await client.graphql('{ tasks { items { id } } }')).body.data.tasks.items).toEqual([]);
  });

  it('is refused on the multipart upload routes', async () => {
    const { client } = await signUp(app.url);
    const image = await makeImage('png', 20, 20);
    const form = new FormData();
    form.append('fileType', 'image');
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${app.url}/api/v1/files/upload`, { method: 'POST', body: form, headers: { cookie: client.cookie!, origin: SIBLING } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('FORBIDDEN');
    // The same upload from the service's own origin goes through (multipart is not a 415).
    const own = await fetch(`${app.url}/api/v1/files/upload`, { method: 'POST', body: form, headers: { cookie: client.cookie!, origin: BASE_URL } });
    expect(own.status).toBe(201);
    expect((await postMultipart(client, '/api/v1/files/upload', { fileType: 'image', file: { data: image, fileName: 'b.png', contentType: 'image/png' } })).status).toBe(201);
  });

  it('compares the whole origin: the right host with another scheme or port is refused', async () => {
    const { client } = await signUp(app.url);
    const own = new URL(app.url);
    const otherScheme = [`https://${own.host}`, 'https://planner.example.test:8080', 'https://trusted.example.test:5173', `http://${own.hostname}:1`];
    for (const origin of otherScheme) {
      expectRefused(await client.post('/api/v1/tasks', { title: 'planted', timebox: 30 }, fromOrigin(origin, 'same-site')), 403, 'FORBIDDEN');
    }
    expect((await client.get('/api/v1/tasks')).body.data).toEqual([]);
  });

  it('passes from BASE_URL, from the address the request itself was sent to, from TRUSTED_ORIGINS, and without Origin (scripts)', async () => {
    const { client } = await signUp(app.url);
    expect((await client.post('/api/v1/tasks', { title: 'a', timebox: 30 }, fromOrigin(BASE_URL, 'same-origin'))).status).toBe(201);
    expect((await client.post('/api/v1/tasks', { title: 'b', timebox: 30 }, fromOrigin(app.url, 'same-origin'))).status).toBe(201);
    expect((await client.post('/api/v1/tasks', { title: 'c', timebox: 30 }, fromOrigin(TRUSTED, 'cross-site'))).status).toBe(201);
    expect((await client.post('/api/v1/tasks', { title: 'd', timebox: 30 })).status).toBe(201);
    expect((await client.post('/api/v1/tasks', { title: 'e', timebox: 30 }, { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(201);
    expect((await client.get('/api/v1/tasks')).body.data).toHaveLength(5);
  });

  it('does not concern the Public API, authenticated by a bearer key', async () => {
    const { api } = await keyHolder(app);
    expect((await api.post('/water', { volume: 250 }, fromOrigin(SIBLING, 'cross-site'))).status).toBe(200);
  });
});

describe('login CSRF', () => {
  it('a cross-site form POST to /auth/login?email=…&password=… signs nobody in', async () => {
    const { email, password } = await signUp(app.url);
    const query = `?email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`;
    const anon = new HttpClient(app.url);
    const crossSite = await anon.request('POST', `/api/v1/auth/login${query}`, {
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    });
    expectRefused(crossSite, 403, 'FORBIDDEN');
    expect(crossSite.headers.getSetCookie()).toEqual([]);
    // Without Origin the query string is still never read for a mutation.
    const fromQuery = await anon.request('POST', `/api/v1/auth/login${query}`);
    expectRefused(fromQuery, 400, 'VALIDATION_ERROR');
    expect(fromQuery.body.error.details.errors.map((e: any) => e.path[0])).toEqual(['email', 'password']);
    expect(fromQuery.headers.getSetCookie()).toEqual([]);
    expect(anon.cookie).toBeUndefined();
  });
});

describe('a body that is not sent as JSON', () => {
  it('is refused 415 UNSUPPORTED_MEDIA_TYPE on /api/v1 (a text/plain form carrying JSON), nothing stored', async () => {
    const { client } = await signUp(app.url);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await client.post('/api/v1/tasks', undefined, { rawBody: '{"title":"planted","timebox":30}', headers: { 'content-type': type } });
      expectRefused(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const none = await client.request('POST', '/api/v1/tasks', { body: { title: 'planted', timebox: 30 }, headers: { 'content-type': '' } });
    expectRefused(none, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((await client.get('/api/v1/tasks')).body.data).toEqual([]);
    expect((await client.post('/api/v1/tasks', undefined, { rawBody: '{"title":"ok","timebox":30}', headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(201);
  });

  it('is refused 415 on /graphql', async () => {
    const { client } = await signUp(app.url);
    const res = await client.request('POST', '/graphql', {
      rawBody: JSON.stringify({ query: 'mutation { createTask(title: "planted", timebox: 30) { id } }' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await client.graphql('{ tasks { items { id } } }')).body.data.tasks.items).toEqual([]);
  });

  it('a mutation never reads its arguments from the query string (400 naming them)', async () => {
    const { client } = await signUp(app.url);
    const res = await client.post('/api/v1/tasks?title=planted&timebox=30');
    expectRefused(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: any) => e.path)).toEqual([['title'], ['timebox']]);
    expect((await client.get('/api/v1/tasks')).body.data).toEqual([]);
    const nested = await client.post('/api/v1/tasks?title[x]=1', { title: 'a', timebox: 30 });
    expectRefused(nested, 400, 'VALIDATION_ERROR');
    // A parameter that names no argument is not read, and harmless.
    expect((await client.post('/api/v1/tasks?cacheBust=1', { title: 'ok', timebox: 30 })).status).toBe(201);
    // Reads keep their query parameters.
    expect((await client.get('/api/v1/tasks?page=1&limit=5')).status).toBe(200);
  });
});
