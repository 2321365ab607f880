import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient, signUp, type HttpResult } from '../support/http-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

let n = 0;
const freshEmail = () => `env${Date.now()}_${process.pid}_${++n}@example.com`;

function expectEnvelopeError(res: HttpResult, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.body).toMatchObject({ ok: false, error: { code, message: expect.any(String) } });
  expect(Object.keys(res.body).sort()).toEqual(['error', 'ok']);
  expect(res.headers.get('api-version')).toBe('v1');
}

function fieldPaths(res: HttpResult): unknown[] {
  return (res.body.error.details?.errors ?? []).map((e: { path: unknown }) => e.path);
}

/** Raw HTTP, for bodies fetch will not send (chunked without a length, a lying Content-Length). */
function rawPost(path: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(app.url + path);
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* keep text */
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server may answer and close before the whole body is written.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
      reject(error);
    });
    (async () => {
      for (const chunk of chunks) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(() => undefined);
  });
}

describe('API-Version header', () => {
  it('is on successes, errors, 404s, 405s and /graphql', async () => {
    const { client } = await signUp(app.url);
    const anon = new HttpClient(app.url);
    const responses = [
      await client.get('/api/v1/auth/me'),
      await anon.get('/api/v1/auth/me'),
      await anon.get('/api/v1/no/such/route'),
      await anon.get('/api/no/such/route'),
      await anon.get('/api'),
      await anon.get('/api/v1'),
      await anon.get('/api/v1/auth/login'),
      await anon.post('/api/v1/auth/login', undefined, { rawBody: '{bad' }),
      await client.graphql('{ me { id } }'),
      await anon.graphql('{ me { id } }'),
      await anon.get('/graphql?query=%7B__typename%7D', { headers: { 'apollo-require-preflight': 'true' } }),
    ];
    for (const res of responses) expect(res.headers.get('api-version')).toBe('v1');
  });
});

describe('deprecated unversioned /api paths', () => {
  it('answer like /api/v1 and add Deprecation and a Link to the successor', async () => {
    const { client, id, email } = await signUp(app.url);
    const current = await client.get('/api/v1/auth/me');
    const old = await client.get('/api/auth/me');
    expect(old.status).toBe(200);
    expect(old.body).toEqual(current.body);
    expect(old.body.data).toMatchObject({ id, email });
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.headers.get('link')).toBe('</api/v1/auth/me>; rel="successor-version"');
    expect(old.headers.get('api-version')).toBe('v1');
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('link')).toBeNull();
  });

  it('work for writes and errors too, and keep the query out of the Link', async () => {
    const anon = new HttpClient(app.url);
    const reg = await anon.post('/api/auth/register?x=1', { email: freshEmail(), password: 'long enough password' });
    expect(reg.status).toBe(201);
    expect(reg.headers.get('deprecation')).toBe('true');
    expect(reg.headers.get('link')).toBe('</api/v1/auth/register>; rel="successor-version"');
    expect((await anon.get('/api/auth/me')).status).toBe(200);
    const out = await new HttpClient(app.url).get('/api/auth/me');
    expectEnvelopeError(out, 401, 'UNAUTHORIZED');
    expect(out.headers.get('deprecation')).toBe('true');
  });

  it('leave other API versions and the Public API alone', async () => {
    const v2 = await new HttpClient(app.url).get('/api/v2/auth/me');
    expectEnvelopeError(v2, 404, 'NOT_FOUND');
    expect(v2.headers.get('deprecation')).toBeNull();
    const pub = await new HttpClient(app.url).get('/api/public/v1/nothing-here');
    expect(pub.headers.get('deprecation')).toBeNull();
    expect(pub.headers.get('api-version')).toBe('v1');
  });
});

describe('request edges', () => {
  it('malformed JSON → 400 VALIDATION_ERROR envelope', async () => {
    for (const rawBody of ['{"email": "a@b.c", ', '{email: 1}', 'not json at all', '{"a":1}}']) {
      const res = await new HttpClient(app.url).post('/api/v1/auth/login', undefined, { rawBody });
      expectEnvelopeError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/JSON/);
    }
  });

  it('a JSON body that is not an object → 400', async () => {
    for (const rawBody of ['null', '[]', '"a@b.c"', '42', 'true']) {
      const res = await new HttpClient(app.url).post('/api/v1/auth/login', undefined, { rawBody });
      expectEnvelopeError(res, 400, 'VALIDATION_ERROR');
    }
  });

  it('unknown routes → 404 NOT_FOUND envelope', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/auth/nope', '/api/nope', '/api/v1/auth/me/extra']) {
      expectEnvelopeError(await new HttpClient(app.url).get(path), 404, 'NOT_FOUND');
    }
    expectEnvelopeError(await new HttpClient(app.url).post('/api/v1/nope', { a: 1 }), 404, 'NOT_FOUND');
  });

  it('a wrong method on a known path → 405 envelope with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v1/auth/login', 'POST'],
      ['DELETE', '/api/v1/auth/me', 'GET, HEAD'],
      ['PUT', '/api/v1/auth/register', 'POST'],
      ['PATCH', '/api/auth/logout', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await new HttpClient(app.url).request(method, path);
      expectEnvelopeError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('HEAD answers as GET without a body, and counts as allowed wherever GET is', async () => {
    const { client } = await signUp(app.url);
    const get = await client.get('/api/v1/auth/me');
    const head = await client.request('HEAD', '/api/v1/auth/me');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('api-version')).toBe('v1');
    expect((await new HttpClient(app.url).request('HEAD', '/api/v1/auth/me')).status).toBe(401);
    const refused = await new HttpClient(app.url).request('HEAD', '/api/v1/auth/login');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('POST');
    expect((await new HttpClient(app.url).request('HEAD', '/api/v1/nope')).status).toBe(404);
  });

  it('a body over 2 MB → 413 envelope, with or without Content-Length', async () => {
    const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024 + 10) });
    const withLength = await new HttpClient(app.url).post('/api/v1/auth/login', undefined, { rawBody: big });
    expectEnvelopeError(withLength, 413, 'PAYLOAD_TOO_LARGE');

    const chunk = Buffer.from('x'.repeat(256 * 1024));
    const chunks = [Buffer.from('{"email":"a@example.com","password":"'), ...Array.from({ length: 10 }, () => chunk), Buffer.from('"}')];
    const chunked = await rawPost('/api/v1/auth/login', chunks);
    expect(chunked.status).toBe(413);
    expect(chunked.body).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(chunked.headers['api-version']).toBe('v1');

    const gql = await rawPost('/graphql', chunks);
    expect(gql.status).toBe(413);
    expect(gql.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const gqlWithLength = await new HttpClient(app.url).request('POST', '/graphql', { rawBody: big });
    expect(gqlWithLength.status).toBe(413);
    expect(gqlWithLength.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(gqlWithLength.headers.get('api-version')).toBe('v1');
  });

  it('a body just under the limit is read (and refused on its merits)', async () => {
    const res = await new HttpClient(app.url).post('/api/v1/auth/login', { email: 'a@example.com', password: 'x'.repeat(1024 * 1024) });
    expectEnvelopeError(res, 400, 'VALIDATION_ERROR');
    expect(fieldPaths(res)).toEqual([['password']]);
  });
});

describe('bad input is a 400 naming the field, never a 500', () => {
  const routes = ['/api/v1/auth/register', '/api/v1/auth/login'];

  it('wrong types', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 5, password: 'long enough password' }, 'email'],
      [{ email: true, password: 'long enough password' }, 'email'],
      [{ email: 'a@example.com', password: { a: 1 } }, 'password'],
      [{ email: 'a@example.com', password: ['long enough password'] }, 'password'],
      [{ email: 'a@example.com', password: 12345678 }, 'password'],
      [{ email: ['a@example.com'], password: 'long enough password' }, 'email'],
      [{ email: { $ne: '' }, password: 'long enough password' }, 'email'],
    ];
    for (const route of routes) {
      for (const [body, field] of cases) {
        const res = await new HttpClient(app.url).post(route, body);
        expectEnvelopeError(res, 400, 'VALIDATION_ERROR');
        expect(fieldPaths(res), `${route} ${JSON.stringify(body)}`).toContainEqual([field]);
        expect(res.body.error.message).toContain(field);
      }
    }
  });

  it('missing and null required fields', async () => {
    for (const route of routes) {
      const noPassword = await new HttpClient(app.url).post(route, { email: 'a@example.com' });
      expectEnvelopeError(noPassword, 400, 'VALIDATION_ERROR');
      expect(fieldPaths(noPassword)).toEqual([['password']]);
      const nothing = await new HttpClient(app.url).post(route, {});
      expectEnvelopeError(nothing, 400, 'VALIDATION_ERROR');
      expect(fieldPaths(nothing)).toEqual([['email'], ['password']]);
      const noBody = await new HttpClient(app.url).post(route);
      expectEnvelopeError(noBody, 400, 'VALIDATION_ERROR');
      const nulls = await new HttpClient(app.url).post(route, { email: null, password: 'long enough password' });
      expectEnvelopeError(nulls, 400, 'VALIDATION_ERROR');
      expect(fieldPaths(nulls)).toEqual([['email']]);
    }
  });

  it('1 MB strings → 400 naming the field', async () => {
    const huge = 'a'.repeat(1024 * 1024);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/v1/auth/register', { email: `${huge}@example.com`, password: 'long enough password' }, 'email'],
      ['/api/v1/auth/register', { email: freshEmail(), password: huge }, 'password'],
      ['/api/v1/auth/login', { email: huge, password: 'long enough password' }, 'email'],
      ['/api/v1/auth/request-password-reset', { email: huge }, 'email'],
      ['/api/v1/auth/reset-password', { token: huge, newPassword: 'long enough password' }, 'token'],
      ['/api/v1/auth/verify-email', { token: huge }, 'token'],
    ];
    for (const [route, body, field] of cases) {
      const res = await new HttpClient(app.url).post(route, body);
      expectEnvelopeError(res, 400, 'VALIDATION_ERROR');
      expect(fieldPaths(res)).toContainEqual([field]);
      expect(res.text.length).toBeLessThan(10_000); // the value is not echoed back
    }
  });

  it('__proto__ and constructor keys neither break nor pollute', async () => {
    const email = freshEmail();
    const bodies = [
      `{"__proto__": {"polluted": true}, "email": "${email}", "password": "long enough password"}`,
      `{"constructor": {"prototype": {"polluted": true}}, "email": "${email}", "password": "long enough password"}`,
      `{"email": {"__proto__": {"toString": 1}}, "password": "long enough password"}`,
      `{"__proto__": null}`,
      `{"constructor": "x", "email": "x@example.com"}`,
    ];
    const statuses = [];
    for (const rawBody of bodies) {
      const res = await new HttpClient(app.url).post('/api/v1/auth/register', undefined, { rawBody });
      expect(res.status).toBeLessThan(500);
      expect(res.body.ok === true || res.body.error.code === 'VALIDATION_ERROR' || res.body.error.code === 'EMAIL_EXISTS').toBe(true);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 409, 400, 400, 400]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The server still works normally afterwards.
    expect((await new HttpClient(app.url).post('/api/v1/auth/login', { email, password: 'long enough password' })).status).toBe(200);
  });

  it('query-string values are checked the same way', async () => {
    const res = await new HttpClient(app.url).post('/api/v1/auth/login?email=', { password: 'long enough password' });
    expect(res.status).toBeLessThan(500);
  });

  it('the same holds on /graphql', async () => {
    const res = await new HttpClient(app.url).graphql('mutation ($email: String!, $password: String!) { register(email: $email, password: $password) { user { id } } }', {
      email: 'a@example.com',
      password: ['x'],
    });
    expect(res.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['password'] }] } });
    const malformed = await new HttpClient(app.url).request('POST', '/graphql', { rawBody: '{"query": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('api-version')).toBe('v1');
    expect(malformed.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(malformed.body.errors[0].message).toMatch(/JSON/);
  });
});
